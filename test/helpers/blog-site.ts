import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeLocales, makePage } from './content.ts';
import { ROOT } from './server.ts';

/** A title with everything XML and HTML care about, right-to-left text and an emoji. */
export const HOSTILE_TITLE = `</script><b>Tom & "Jerry"</b> it's <!-- مرحبا بالعالم 🎉`;
export const ARABIC_HOSTILE_TITLE = `«كل شيء» <&"'> يعمل 🎉`;

export const IMAGES = {
  'en/share.png': { path: '/assets/share-en-AAAA1111.png', width: 1200, height: 630 },
  'ar/share.png': { path: '/assets/share-ar-BBBB2222.png', width: 1200, height: 630 },
  'en/images/hostile.png': { path: '/assets/hostile-CCCC3333.png', width: 1000, height: 500 },
};

const messages = (locale: string) => JSON.parse(readFileSync(join(ROOT, 'locales', locale, 'messages.json'), 'utf8'));

/**
 * A small site in English (default) and Arabic with a blog and a docs tree: a
 * post whose title holds `<&"'`, RTL text and an emoji, with an image of its
 * own; a post that only exists in English; an Arabic docs page whose section has
 * no Arabic index page. The real messages, so every string is the site's.
 */
export function makeBlogSite(): string {
  return makeLocales({
    en: {
      'messages.json': messages('en'),
      'pages/index.md': makePage({ title: 'Welcome', description: 'The home page.' }),
      'pages/about.md': makePage({ title: 'About', description: 'Who we are.' }),
      'pages/blog/index.md': makePage({ title: 'Blog', description: 'News.' }),
      'pages/blog/first.md': makePage({ title: 'First post', description: 'The first one.', date: '2026-01-02', author: 'Ada' }),
      'pages/blog/hostile.md': makePage({
        title: HOSTILE_TITLE,
        description: `A summary with ${HOSTILE_TITLE}`,
        date: '2026-03-01',
        updated: '2026-03-05',
        author: 'Grace & "Co"',
        image: 'images/hostile.png',
      }),
      'pages/docs/index.md': makePage({ title: 'Docs', description: 'All the docs.' }),
      'pages/docs/guides/index.md': makePage({ title: 'Guides', description: 'How to.' }),
      'pages/docs/guides/install.md': makePage({ title: 'Install', description: 'Step by step.' }),
    },
    ar: {
      'messages.json': messages('ar'),
      'pages/index.md': makePage({ title: 'مرحبا', description: 'الصفحة الرئيسية.' }),
      'pages/blog/index.md': makePage({ title: 'المدونة', description: 'أخبار.' }),
      'pages/blog/hostile.md': makePage({
        title: ARABIC_HOSTILE_TITLE,
        description: 'ملخص.',
        date: '2026-03-01',
        author: 'فريق polysite',
      }),
      'pages/docs/index.md': makePage({ title: 'التوثيق', description: 'كل التوثيق.' }),
      'pages/docs/guides/install.md': makePage({ title: 'التثبيت', description: 'خطوة بخطوة.' }),
    },
  });
}

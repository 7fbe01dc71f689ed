import type { MessageIntl } from '../../i18n/intl.ts';
import type { NavNode } from '../../routes/types.ts';

// The docs tree of a page's sidebar as HTML, written once when the page is made: the page,
// its page data and the browser carry it as it is, and Docs (src/routes/screens/docs.tsx)
// sets it as its <nav>'s content. HTML and not data that React draws, because a long
// section shows a window of tens of its pages on each of its pages, and React spends per
// element, on every render of the page, what this spends once per entry. The browser
// needs no code to draw or read it back (read-back.ts#readSidebar reads the <nav>'s HTML).

const ESCAPED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
/** Text or an attribute's value, escaped as React escapes them: nothing a title holds can open a tag or leave an attribute. */
const escaped = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPED[character]!);

/**
 * The list of `nodes`, with each open section's list within it; `current`, the path of the
 * page that shows it (its entry is `aria-current`). A section whose pages are too many to
 * show shows a window of them and a link to its own page, which lists them all (`total`).
 */
export function treeHtml(nodes: readonly NavNode[], current: string, intl: MessageIntl): string {
  let html = '<ul>';
  for (const node of nodes) {
    const path = escaped(node.path);
    const lang = node.lang === undefined ? '' : ` lang="${escaped(node.lang)}"`;
    html += `<li><a href="${path}"${lang}${node.path === current ? ' aria-current="page"' : ''}>${escaped(node.title)}</a>`;
    if (node.children.length > 0) {
      // Folds and unfolds without a script; src/client/sections.ts finds it by `data-docs-section` and keeps the
      // reader's folding within a visit.
      const label = intl.formatMessage({ id: 'docs.sectionPages' }, { title: node.title });
      html += `<details${node.collapsed ? '' : ' open=""'} data-docs-section="${path}"${node.collapsed ? ' data-collapsed=""' : ''}>`;
      html += `<summary><span class="visually-hidden">${escaped(label)}</span></summary>${treeHtml(node.children, current, intl)}`;
      if (node.total !== undefined) {
        html += `<a class="docs-all" href="${path}">${escaped(intl.formatMessage({ id: 'docs.allPages' }, { count: node.total }))}</a>`;
      }
      html += '</details>';
    }
    html += '</li>';
  }
  return `${html}</ul>`;
}

/**
 * The page every peer serves, so they all render the same text: the docs of a made-up tool in
 * two locales under `/<locale>/<slug...>`, measured at `/de/docs/guides/install` (a nested slug;
 * German for non-ASCII text and `1.234,5` numbers). Every page is found, formatted (numbers and
 * dates through `Intl`, formatters kept per locale as i18n libraries do) and rendered per request
 * by the peers that render per request. All docs pages share the article and differ in title.
 *
 * This file imports nothing at run time: React's functions come in as an argument, so each peer's
 * bundler compiles it against the peer's own React, never the product's.
 */
import type * as React from 'react';

type ReactApi = Pick<typeof React, 'createElement' | 'useState'>;

export type Locale = 'de' | 'en';
export const LOCALES: readonly Locale[] = ['de', 'en'];

/** The path `npm run bench:peers` loads, and a string only that page's markup contains. */
export const BENCH_PATH = '/de/docs/guides/install';
export const BENCH_MARKER = 'data-slug="docs/guides/install"';

export type CounterProps = { locale: Locale; label: string; one: string; other: string };

export type PageModel = {
  locale: Locale;
  slug: string;
  siteName: string;
  title: string;
  heading: string;
  description: string;
  labels: { docs: string; languages: string; breadcrumbs: string; feedback: string };
  nav: { href: string; label: string; current: boolean }[];
  languages: { href: string; locale: Locale; label: string; current: boolean }[];
  breadcrumbs: { href: string; label: string }[];
  lead: string;
  updated: string;
  sections: { heading: string; paragraphs: string[]; code?: string }[];
  table: { caption: string; head: string[]; rows: string[][] };
  counter: CounterProps;
  footer: string;
};

/** Every page of every locale, for peers that prerender (slug `''` is a locale's home). */
export function pagePaths(): { locale: Locale; slug: string[] }[] {
  return LOCALES.flatMap((locale) => SLUGS.map((slug) => ({ locale, slug: slug ? slug.split('/') : [] })));
}

/** The page at `/<locale>/<slug>`, or undefined: the peer answers 404. */
export function pageModel(locale: string, slug: string): PageModel | undefined {
  if (!isLocale(locale) || !SLUGS.includes(slug)) return undefined;
  const text = TEXT[locale];
  const format = formatters(locale);
  const title = text.titles[slug]!;
  const parents = slug.split('/').slice(0, -1);
  return {
    locale,
    slug,
    siteName: text.siteName,
    title: `${title} · ${text.siteName}`,
    heading: title,
    description: text.description,
    labels: text.labels,
    nav: SLUGS.map((other) => ({ href: href(locale, other), label: text.titles[other]!, current: other === slug })),
    languages: LOCALES.map((other) => ({ href: href(other, slug), locale: other, label: TEXT[other].language, current: other === locale })),
    breadcrumbs: parents.map((_, index) => {
      const path = parents.slice(0, index + 1).join('/');
      return { href: href(locale, SLUGS.find((other) => other.startsWith(`${path}/`))!), label: text.crumbs[path]! };
    }),
    lead: text.lead,
    updated: text.updated(format.date.format(UPDATED)),
    sections: text.sections,
    table: {
      caption: text.table.caption,
      head: text.table.head,
      rows: PLATFORMS.map((row) => [
        row.platform,
        row.node,
        format.size.format(row.sizeMb),
        format.count.format(row.downloads),
        format.date.format(new Date(row.tested)),
      ]),
    },
    counter: { locale, ...text.counter },
    footer: text.footer(format.count.format(PLATFORMS.reduce((sum, row) => sum + row.downloads, 0))),
  };
}

/** The page's body, the same element tree in every peer; `island` is the peer's hydrated counter. */
export function docsPage(react: Pick<ReactApi, 'createElement'>, page: PageModel, island: React.ReactNode): React.ReactElement {
  const h = react.createElement;
  const link = (item: { href: string; label: string; current?: boolean }) =>
    h('a', { href: item.href, 'aria-current': item.current ? 'page' : undefined }, item.label);
  return h(
    'div',
    { className: 'page' },
    h(
      'header',
      null,
      h('a', { className: 'brand', href: `/${page.locale}` }, page.siteName),
      h(
        'nav',
        { 'aria-label': page.labels.languages },
        page.languages.map((item) => h('a', { key: item.locale, href: item.href, hrefLang: item.locale, lang: item.locale }, item.label)),
      ),
    ),
    h('aside', null, h('nav', { 'aria-label': page.labels.docs }, h('ul', null, page.nav.map((item) => h('li', { key: item.href }, link(item)))))),
    h(
      'main',
      null,
      h(
        'article',
        { 'data-slug': page.slug },
        h('nav', { 'aria-label': page.labels.breadcrumbs }, page.breadcrumbs.map((item) => h('span', { key: item.href }, link(item), ' / '))),
        h('h1', null, page.heading),
        h('p', { className: 'lead' }, page.lead),
        h('p', { className: 'updated' }, page.updated),
        page.sections.map((section) =>
          h(
            'section',
            { key: section.heading },
            h('h2', null, section.heading),
            section.paragraphs.map((paragraph, index) => h('p', { key: index }, paragraph)),
            section.code ? h('pre', null, h('code', null, section.code)) : null,
          ),
        ),
        h(
          'table',
          null,
          h('caption', null, page.table.caption),
          h('thead', null, h('tr', null, page.table.head.map((cell) => h('th', { key: cell, scope: 'col' }, cell)))),
          h(
            'tbody',
            null,
            page.table.rows.map((row) =>
              h(
                'tr',
                { key: row[0] },
                row.map((cell, index) => (index === 0 ? h('th', { key: index, scope: 'row' }, cell) : h('td', { key: index }, cell))),
              ),
            ),
          ),
        ),
        h('aside', { className: 'feedback', 'aria-label': page.labels.feedback }, island),
      ),
    ),
    h('footer', null, h('p', null, page.footer)),
  );
}

/** The one client component: a button that counts its clicks, pluralized in the page's locale. */
export function counterComponent(react: ReactApi) {
  return function Counter({ locale, label, one, other }: CounterProps): React.ReactElement {
    const [count, setCount] = react.useState(0);
    const unit = new Intl.PluralRules(locale).select(count) === 'one' ? one : other;
    return react.createElement('button', { type: 'button', onClick: () => setCount(count + 1) }, `${label} · ${count} ${unit}`);
  };
}

function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

function href(locale: Locale, slug: string): string {
  return slug ? `/${locale}/${slug}` : `/${locale}`;
}

const cache = new Map<Locale, { size: Intl.NumberFormat; count: Intl.NumberFormat; date: Intl.DateTimeFormat }>();
function formatters(locale: Locale) {
  let entry = cache.get(locale);
  if (!entry) {
    entry = {
      size: new Intl.NumberFormat(locale, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 }),
      count: new Intl.NumberFormat(locale),
      date: new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }),
    };
    cache.set(locale, entry);
  }
  return entry;
}

const SLUGS = [
  '',
  'docs/getting-started',
  'docs/guides/install',
  'docs/guides/configure',
  'docs/guides/deploy',
  'docs/reference/cli',
  'docs/reference/config-file',
  'docs/faq',
];

const UPDATED = new Date('2026-03-14T00:00:00Z');

const PLATFORMS = [
  { platform: 'Linux x64 (glibc)', node: '20.12', sizeMb: 48.2, downloads: 1_284_113, tested: '2026-03-02' },
  { platform: 'Linux x64 (musl)', node: '20.12', sizeMb: 47.9, downloads: 402_771, tested: '2026-03-02' },
  { platform: 'Linux arm64 (glibc)', node: '20.12', sizeMb: 46.4, downloads: 318_040, tested: '2026-03-03' },
  { platform: 'Linux arm64 (musl)', node: '20.12', sizeMb: 46.1, downloads: 91_502, tested: '2026-03-03' },
  { platform: 'Linux armv7', node: '20.12', sizeMb: 41.7, downloads: 12_860, tested: '2026-02-21' },
  { platform: 'macOS arm64', node: '20.12', sizeMb: 44.8, downloads: 733_416, tested: '2026-03-05' },
  { platform: 'macOS x64', node: '20.12', sizeMb: 49.3, downloads: 120_994, tested: '2026-02-27' },
  { platform: 'Windows x64', node: '20.12', sizeMb: 52.6, downloads: 604_238, tested: '2026-03-04' },
  { platform: 'Windows arm64', node: '22.0', sizeMb: 50.1, downloads: 28_377, tested: '2026-02-19' },
  { platform: 'FreeBSD x64', node: '20.12', sizeMb: 47.5, downloads: 6_915, tested: '2026-01-30' },
  { platform: 'Docker (Debian slim)', node: '20.12', sizeMb: 71.3, downloads: 2_047_590, tested: '2026-03-06' },
  { platform: 'Docker (Alpine)', node: '20.12', sizeMb: 58.8, downloads: 815_006, tested: '2026-03-06' },
];

type Text = {
  siteName: string;
  language: string;
  description: string;
  labels: PageModel['labels'];
  titles: Record<string, string>;
  crumbs: Record<string, string>;
  lead: string;
  updated: (date: string) => string;
  sections: PageModel['sections'];
  table: { caption: string; head: string[] };
  counter: Omit<CounterProps, 'locale'>;
  footer: (downloads: string) => string;
};

const TEXT: Record<Locale, Text> = {
  de: {
    siteName: 'Acme Doku',
    language: 'Deutsch',
    description: 'Acme Schritt für Schritt installieren, prüfen und aktualisieren, auf jedem unterstützten System.',
    labels: { docs: 'Dokumentation', languages: 'Sprache wählen', breadcrumbs: 'Brotkrümelnavigation', feedback: 'Rückmeldung' },
    titles: {
      '': 'Startseite',
      'docs/getting-started': 'Erste Schritte',
      'docs/guides/install': 'Installation',
      'docs/guides/configure': 'Konfiguration',
      'docs/guides/deploy': 'Ausrollen',
      'docs/reference/cli': 'Befehlszeile',
      'docs/reference/config-file': 'Konfigurationsdatei',
      'docs/faq': 'Häufige Fragen',
    },
    crumbs: { docs: 'Dokumentation', 'docs/guides': 'Anleitungen', 'docs/reference': 'Referenz' },
    lead: 'Diese Anleitung installiert Acme aus dem Paketregister, richtet die Umgebung ein und prüft, ob alles so läuft, wie es soll. Rechnen Sie mit etwa zehn Minuten; die Kurzfassung in zwei Befehlen steht unter „Erste Schritte“.',
    updated: (date) => `Zuletzt geändert am ${date}`,
    sections: [
      {
        heading: 'Voraussetzungen',
        paragraphs: [
          'Acme braucht Node.js 20.12 oder neuer und npm 10 oder neuer. Ältere Versionen starten zwar, brechen aber beim ersten Build mit einer Fehlermeldung ab, die auf die fehlende Funktion hinweist. Prüfen Sie die installierten Versionen, bevor Sie weitermachen; ein Versionsmanager wie fnm oder nvm erspart Ihnen dabei viel Ärger.',
          'Für die Browsertests wird zusätzlich ein Chromium gebraucht. Zum Bauen und Ausliefern ist es nicht nötig. Auf Servern ohne grafische Oberfläche genügt die Headless-Variante aus den Paketquellen Ihrer Distribution.',
        ],
        code: 'node --version   # v20.12.0 oder neuer\nnpm --version    # 10.0.0 oder neuer',
      },
      {
        heading: 'Installieren',
        paragraphs: [
          'Legen Sie ein leeres Verzeichnis an und installieren Sie Acme dort als Abhängigkeit. Das Paket bringt seine nativen Teile für die gängigen Plattformen vorgebaut mit; nur auf seltenen Systemen übersetzt npm sie beim Installieren selbst, was einige Minuten dauern kann und einen C-Compiler voraussetzt.',
          'Hinter einem Firmen-Proxy setzen Sie vorher die Umgebungsvariablen HTTPS_PROXY und NO_PROXY. Eine eigene Paketquelle tragen Sie in die Datei .npmrc im Projektverzeichnis ein, nicht global, damit Kolleginnen und Kollegen dieselbe Quelle verwenden.',
        ],
        code: 'mkdir meine-seite && cd meine-seite\nnpm init -y\nnpm install acme',
      },
      {
        heading: 'Prüfen',
        paragraphs: [
          'Starten Sie den Entwicklungsserver und öffnen Sie die angezeigte Adresse. Die Startseite erscheint in der Sprache, die Ihr Browser bevorzugt; Umlaute, Anführungszeichen und Zahlen wie 1.234,5 müssen dabei korrekt dargestellt werden. Ist das nicht der Fall, stimmt meist die Zeichenkodierung einer Inhaltsdatei nicht.',
          'Der Befehl acme doctor prüft die Umgebung ausführlicher: Node-Version, Schreibrechte im Projektverzeichnis, freie Ports und die Erreichbarkeit der Paketquelle. Jede Prüfung meldet entweder „in Ordnung“ oder einen konkreten nächsten Schritt.',
        ],
        code: 'npx acme dev      # http://localhost:3000\nnpx acme doctor',
      },
      {
        heading: 'Aktualisieren und entfernen',
        paragraphs: [
          'Neue Versionen installieren Sie mit npm update acme. Kleine Versionssprünge ändern nichts an Ihrer Konfiguration; vor einem großen Versionssprung lesen Sie bitte die Hinweise zur Migration, die jeder Veröffentlichung beiliegen und jede nötige Änderung mit einem Beispiel zeigen.',
          'Zum Entfernen genügt npm uninstall acme. Zwischengespeicherte Builds liegen im Verzeichnis .acme und können gefahrlos gelöscht werden; Ihre Inhalte bleiben davon unberührt.',
        ],
      },
      {
        heading: 'Fehlerbehebung',
        paragraphs: [
          'Meldet npm beim Installieren EACCES, fehlen Schreibrechte im globalen Verzeichnis: Installieren Sie nie mit sudo, sondern richten Sie npm so ein, dass es in Ihr Benutzerverzeichnis schreibt. Meldet es ETIMEDOUT, blockiert meist ein Proxy die Verbindung zur Paketquelle.',
          'Startet der Server nicht, weil der Port belegt ist, wählen Sie mit PORT=3001 einen anderen oder beenden den Prozess, der ihn hält. Zeigt die Seite statt Umlauten Ersatzzeichen, speichern Sie die betroffene Inhaltsdatei als UTF-8 ohne Byte-Order-Mark.',
          'Hilft das alles nicht, starten Sie acme doctor --verbose und hängen Sie die Ausgabe an Ihre Frage im Forum an. Sie enthält keine Zugangsdaten, nur Versionen, Pfade und die Ergebnisse der einzelnen Prüfungen.',
        ],
        code: 'PORT=3001 npx acme dev\nnpx acme doctor --verbose > doctor.txt',
      },
      {
        heading: 'Nächste Schritte',
        paragraphs: [
          'Jetzt, da Acme läuft, legen Sie unter „Konfiguration“ die Sprachen Ihrer Seite fest und schreiben die erste eigene Seite. Wie Sie die fertige Seite auf einen Server bringen, beschreibt „Ausrollen“; die Befehlszeile ist unter „Befehlszeile“ vollständig dokumentiert.',
        ],
      },
    ],
    table: { caption: 'Unterstützte Plattformen', head: ['Plattform', 'Node.js ab', 'Paketgröße', 'Downloads im Monat', 'Zuletzt getestet'] },
    counter: { label: 'Hilfreich', one: 'Stimme', other: 'Stimmen' },
    footer: (downloads) => `© 2026 Acme-Projekt. ${downloads} Downloads im letzten Monat. Inhalte stehen unter CC BY 4.0.`,
  },
  en: {
    siteName: 'Acme Docs',
    language: 'English',
    description: 'Install, check and update Acme step by step, on every supported system.',
    labels: { docs: 'Documentation', languages: 'Choose a language', breadcrumbs: 'Breadcrumbs', feedback: 'Feedback' },
    titles: {
      '': 'Home',
      'docs/getting-started': 'Getting started',
      'docs/guides/install': 'Installation',
      'docs/guides/configure': 'Configuration',
      'docs/guides/deploy': 'Deploying',
      'docs/reference/cli': 'Command line',
      'docs/reference/config-file': 'Configuration file',
      'docs/faq': 'FAQ',
    },
    crumbs: { docs: 'Documentation', 'docs/guides': 'Guides', 'docs/reference': 'Reference' },
    lead: 'This guide installs Acme from the package registry, sets up the environment and checks that everything runs as it should. Allow about ten minutes; the two-command version is under “Getting started”.',
    updated: (date) => `Last changed on ${date}`,
    sections: [
      {
        heading: 'Requirements',
        paragraphs: [
          'Acme needs Node.js 20.12 or newer and npm 10 or newer. Older versions start, but stop at the first build with an error that names the missing feature. Check the installed versions before you go on; a version manager such as fnm or nvm saves a lot of trouble here.',
          'The browser tests also need a Chromium. Building and serving do not. On servers without a desktop, the headless variant from your distribution’s packages is enough.',
        ],
        code: 'node --version   # v20.12.0 or newer\nnpm --version    # 10.0.0 or newer',
      },
      {
        heading: 'Install',
        paragraphs: [
          'Create an empty folder and install Acme there as a dependency. The package ships its native parts prebuilt for the common platforms; only on rare systems does npm compile them while installing, which can take a few minutes and needs a C compiler.',
          'Behind a company proxy, set HTTPS_PROXY and NO_PROXY first. Put a private registry in the project’s .npmrc, not the global one, so that your colleagues use the same source.',
        ],
        code: 'mkdir my-site && cd my-site\nnpm init -y\nnpm install acme',
      },
      {
        heading: 'Check',
        paragraphs: [
          'Start the development server and open the address it prints. The home page appears in the language your browser prefers; quotes and numbers such as 1,234.5 must show correctly. If they do not, a content file usually has the wrong encoding.',
          'The acme doctor command checks the environment in more depth: Node version, write access to the project folder, free ports and whether the registry can be reached. Each check says either “fine” or a concrete next step.',
        ],
        code: 'npx acme dev      # http://localhost:3000\nnpx acme doctor',
      },
      {
        heading: 'Update and remove',
        paragraphs: [
          'Install new versions with npm update acme. Minor versions change nothing in your configuration; before a major version, read the migration notes that come with every release and show each needed change with an example.',
          'npm uninstall acme removes it. Cached builds live in the .acme folder and can be deleted safely; your content is not touched.',
        ],
      },
      {
        heading: 'Troubleshooting',
        paragraphs: [
          'If npm reports EACCES while installing, it cannot write to the global folder: never install with sudo, set npm up to write to your home folder instead. If it reports ETIMEDOUT, a proxy usually blocks the registry.',
          'If the server does not start because the port is taken, pick another with PORT=3001 or stop the process that holds it. If the page shows replacement characters instead of accents, save the content file as UTF-8 without a byte order mark.',
          'If none of this helps, run acme doctor --verbose and attach its output to your question in the forum. It holds no credentials, only versions, paths and the result of each check.',
        ],
        code: 'PORT=3001 npx acme dev\nnpx acme doctor --verbose > doctor.txt',
      },
      {
        heading: 'Next steps',
        paragraphs: [
          'Now that Acme runs, set your site’s languages under “Configuration” and write your first page. “Deploying” shows how to put the site on a server; every command is documented under “Command line”.',
        ],
      },
    ],
    table: { caption: 'Supported platforms', head: ['Platform', 'Node.js from', 'Package size', 'Downloads per month', 'Last tested'] },
    counter: { label: 'Helpful', one: 'vote', other: 'votes' },
    footer: (downloads) => `© 2026 The Acme project. ${downloads} downloads last month. Content under CC BY 4.0.`,
  },
};

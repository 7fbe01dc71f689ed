import { announce } from './code-blocks.ts';

/**
 * What "Copy page as Markdown" does (src/routes/copy-page.tsx): loaded (a chunk of its
 * own, not in the first load) only when a shown page has the button (main.tsx).
 */
const wired = new WeakSet<HTMLButtonElement>();

/** Shows the button under `root` and makes it copy; safe to call again. */
export function enhance(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('.copy-page[hidden]')) {
    button.hidden = false;
    if (wired.has(button)) continue;
    wired.add(button);
    button.addEventListener('click', () => void copyPage(button));
  }
}

async function copyPage(button: HTMLButtonElement): Promise<void> {
  // Read when clicked: after a client navigation the same button names another page's twin.
  const text = fetch(button.dataset.twin!).then((answer) => (answer.ok ? answer.text() : Promise.reject(new Error(`${answer.status}`))));
  // The write starts within the click, its text still on its way: Safari allows a clipboard write only then.
  if (typeof ClipboardItem === 'function') {
    await navigator.clipboard.write([
      new ClipboardItem({ 'text/plain': text.then((markdown) => new Blob([markdown], { type: 'text/plain' })) }),
    ]);
  } else await navigator.clipboard.writeText(await text);
  announce(button.dataset.copied ?? '');
}

/**
 * What a page's code blocks and tab sets do when a reader acts: loaded (a chunk of its
 * own, not in the first load) only when a shown page has them (main.tsx). The server's
 * HTML is complete without it: every tab panel under its label, the copy buttons hidden.
 * Under the CSP: no inline script or style, only attributes and classes.
 */

/** The remembered tab of each `key=` (src/server/content/markdown/tabs.ts). */
const STORAGE_PREFIX = 'polysite.tabs.';
let sets = 0;

/** Shows the copy buttons and makes tab lists of the tab sets under `root`; safe to call again. */
export function enhance(root: ParentNode): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('.code-copy[hidden]')) {
    button.hidden = false;
    button.addEventListener('click', () => void copy(button));
  }
  for (const set of root.querySelectorAll<HTMLElement>('.tabs:not([data-enhanced])')) makeTabList(set);
  markSkipped(root);
}

/**
 * On a block of the text that has buttons, while the browser skips it: the same attribute
 * as skipped.css reads, which hides the block's buttons then.
 */
const SKIPPED_ATTRIBUTE = 'data-skipped';
let watching = false;

/**
 * A block far below the screen is skipped until it comes near (`content-visibility`,
 * styles.css), and is one line tall meanwhile. Its content is laid out at its real size
 * only for a query, so a tool that measures targets (axe's target size) would find the
 * block's buttons lying over the blocks below it. So the copy buttons and tab list of a
 * skipped block are hidden, keeping their size, and shown as it comes near: its state now,
 * then each change (`contentvisibilityautostatechange`; where no browser sends it, nothing
 * is ever hidden).
 */
function markSkipped(root: ParentNode): void {
  if (!watching) {
    watching = true;
    document.addEventListener(
      'contentvisibilityautostatechange',
      (event) => {
        const block = event.target as Element;
        // Sent to elements (ContentVisibilityAutoStateChangeEvent), but not in the document's event map.
        const { skipped } = event as ContentVisibilityAutoStateChangeEvent;
        if (block.matches('.prose > *') && block.querySelector('button')) block.toggleAttribute(SKIPPED_ATTRIBUTE, skipped);
      },
      true,
    );
  }
  for (const block of root.querySelectorAll('.prose > *')) {
    // Probed on the block's first child, which only the block's own skipping can hide (a
    // button may be in a closed <details> or a hidden panel too); a skipped child answers
    // without being styled.
    const probe = block.firstElementChild;
    if (probe && block.querySelector('button'))
      block.toggleAttribute(SKIPPED_ATTRIBUTE, !probe.checkVisibility({ contentVisibilityAuto: true }));
  }
}

async function copy(button: HTMLButtonElement): Promise<void> {
  const code = button.closest('.code-block')?.querySelector('code');
  if (!code) return;
  // The lines a reader would run: a diff's removed lines are left out.
  const lines = [...code.querySelectorAll('.line')].filter((line) => !line.classList.contains('remove')).map((line) => line.textContent);
  await navigator.clipboard.writeText(lines.join('\n'));
  announce(button.dataset.copied ?? '');
}

/** A polite live region of its own, outside the page React renders. */
export function announce(message: string): void {
  let region = document.getElementById('code-announcer');
  if (!region) {
    region = document.createElement('p');
    region.id = 'code-announcer';
    region.className = 'visually-hidden';
    region.setAttribute('role', 'status');
    document.body.append(region);
  }
  // Cleared first, so the same message twice is announced twice.
  region.textContent = '';
  setTimeout(() => {
    region.textContent = message;
  }, 50);
}

function makeTabList(set: HTMLElement): void {
  const panels = [...set.children].filter((child): child is HTMLElement => child.classList.contains('tab-panel'));
  const list = document.createElement('div');
  list.className = 'tab-list';
  list.setAttribute('role', 'tablist');
  const id = `tabs-${++sets}`;
  const tabs = panels.map((panel, i) => {
    const tab = document.createElement('button');
    tab.type = 'button';
    tab.id = `${id}-tab-${i}`;
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-controls', `${id}-panel-${i}`);
    tab.textContent = panel.querySelector(':scope > .tab-label')?.textContent ?? String(i + 1);
    tab.addEventListener('click', () => choose(set, i, true));
    panel.id = `${id}-panel-${i}`;
    panel.setAttribute('role', 'tabpanel');
    panel.setAttribute('aria-labelledby', tab.id);
    panel.tabIndex = 0;
    list.append(tab);
    return tab;
  });
  list.addEventListener('keydown', (event) => {
    const current = tabs.indexOf(event.target as HTMLButtonElement);
    if (current === -1) return;
    // Arrows follow the reading direction: in right-to-left text, left is next.
    const forward = getComputedStyle(list).direction === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const backward = forward === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft';
    const next =
      event.key === forward
        ? (current + 1) % tabs.length
        : event.key === backward
          ? (current - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next === -1) return;
    event.preventDefault();
    choose(set, next, true);
    tabs[next]!.focus();
  });
  set.prepend(list);
  set.dataset.enhanced = '';
  const key = set.dataset.tabsKey;
  const remembered = key ? readChoice(key) : null;
  const found = remembered === null ? -1 : tabs.findIndex((tab) => tab.textContent === remembered);
  choose(set, Math.max(0, found), false);
}

/** Shows tab `index` of `set`; when the reader chose it, every set of the same key follows and the choice is kept. */
function choose(set: HTMLElement, index: number, byReader: boolean): void {
  const tabs = [...set.querySelectorAll<HTMLButtonElement>(':scope > .tab-list > [role="tab"]')];
  tabs.forEach((tab, i) => {
    const selected = i === index;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    const panel = document.getElementById(tab.getAttribute('aria-controls')!);
    if (panel) panel.hidden = !selected;
  });
  const key = set.dataset.tabsKey;
  if (!byReader || !key) return;
  const label = tabs[index]?.textContent ?? '';
  saveChoice(key, label);
  for (const other of document.querySelectorAll<HTMLElement>(`.tabs[data-enhanced][data-tabs-key="${CSS.escape(key)}"]`)) {
    if (other === set) continue;
    const match = [...other.querySelectorAll(':scope > .tab-list > [role="tab"]')].findIndex((tab) => tab.textContent === label);
    if (match !== -1) choose(other, match, false);
  }
}

// Storage can be refused (private modes, a full quota): the choice is then this page's only.
function readChoice(key: string): string | null {
  try {
    return localStorage.getItem(STORAGE_PREFIX + key);
  } catch {
    return null;
  }
}

function saveChoice(key: string, label: string): void {
  try {
    localStorage.setItem(STORAGE_PREFIX + key, label);
  } catch {
    // Not kept; see readChoice.
  }
}

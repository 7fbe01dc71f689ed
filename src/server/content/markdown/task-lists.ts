import type MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import { envOf } from './env.ts';

const TASK = /^\[([ xX])\][ \t]+/;

/**
 * Task lists (`- [ ] to do`, `- [x] done`): each item gets a read-only checkbox,
 * labelled by the item's text, and its list the class that drops the bullets.
 */
export function taskLists(md: MarkdownIt): void {
  md.core.ruler.push('task_lists', (state) => {
    const env = envOf(state);
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const item = tokens[i]!;
      const inline = tokens[i + 2];
      if (item.type !== 'list_item_open' || tokens[i + 1]?.type !== 'paragraph_open' || inline?.type !== 'inline') continue;
      const first = inline.children?.[0];
      const match = first?.type === 'text' ? first.content.match(TASK) : null;
      if (!first || !match) continue;
      first.content = first.content.slice(match[0].length);
      const id = `task-${++env.tasks}`;
      const box = new state.Token('task_checkbox', 'input', 0);
      box.meta = { id, checked: match[1] !== ' ' };
      const labelOpen = new state.Token('task_label_open', 'label', 1);
      labelOpen.attrSet('for', id);
      const labelClose = new state.Token('task_label_close', 'label', -1);
      inline.children = [box, labelOpen, ...inline.children!, labelClose];
      item.attrJoin('class', 'task-list-item');
      const list = listOf(tokens, i);
      if (list && !String(list.attrGet('class') ?? '').includes('contains-task-list')) list.attrJoin('class', 'contains-task-list');
    }
  });
  md.renderer.rules.task_checkbox = (tokens, idx) => {
    const { id, checked } = tokens[idx]!.meta as { id: string; checked: boolean };
    return `<input class="task-list-item-checkbox" type="checkbox" id="${id}" disabled${checked ? ' checked' : ''}> `;
  };
  md.renderer.rules.task_label_open = (tokens, idx) => `<label for="${tokens[idx]!.attrGet('for')}">`;
  md.renderer.rules.task_label_close = () => '</label>';
}

/** The list an item at `i` belongs to. */
function listOf(tokens: Token[], i: number): Token | undefined {
  const level = tokens[i]!.level - 1;
  for (let j = i - 1; j >= 0; j--) {
    const token = tokens[j]!;
    if (token.level === level && (token.type === 'bullet_list_open' || token.type === 'ordered_list_open')) return token;
  }
  return undefined;
}

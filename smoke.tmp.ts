import { createHighlighterCore, createCssVariablesTheme } from '@shikijs/core';
import { createOnigurumaEngine } from '@shikijs/engine-oniguruma';
import ts from '@shikijs/langs/typescript';
import githubLight from '@shikijs/themes/github-light';
const theme = createCssVariablesTheme({ name: 'vars', variablePrefix: '--tk-', fontStyle: false });
const h = await createHighlighterCore({ themes: [theme], langs: [ts], engine: createOnigurumaEngine(import('@shikijs/engine-oniguruma/wasm-inlined')) });
const arg = process.argv[2];
if (arg === 'warm') h.codeToTokensBase('x', { lang: 'ts', theme: 'vars' });
for (let i = 0; i < 3; i++) console.log(JSON.stringify(h.codeToTokensBase('const a = 1;', { lang: 'ts', theme: 'vars' })[0].map((t: any) => t.content + '|' + t.color.slice(5, -1))));

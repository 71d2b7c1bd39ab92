// `npm run docs`: writes the reference pages of docs/reference/ from the code (scripts/reference-pages.ts),
// CONTRIBUTING.md's layout table from the layering rules' layers (scripts/layout-table.ts) and the OpenAPI documents'
// answer examples from the sandbox's own answers (scripts/answer-examples.ts), and says which files changed. The
// tests fail while a committed file differs from what the code renders.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANSWER_EXAMPLES_PATH, answerExamplesText } from './answer-examples.js';
import { withLayoutTable } from './layout-table.js';
import { referencePages } from './reference-pages.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const contributing = await readFile(join(root, 'CONTRIBUTING.md'), 'utf8');
const written = [
  ...referencePages(),
  { path: 'CONTRIBUTING.md', text: withLayoutTable(contributing) },
  { path: ANSWER_EXAMPLES_PATH, text: await answerExamplesText() },
];
for (const { path, text } of written) {
  const file = join(root, path);
  const before = await readFile(file, 'utf8').catch(() => undefined);
  if (before === text) continue;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  process.stdout.write(`wrote ${path}\n`);
}

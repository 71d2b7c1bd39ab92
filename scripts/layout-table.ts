// CONTRIBUTING.md's layout table, written from the layers the layering rules check (tools/layers.cjs): `npm run
// docs` puts it between its markers, and test/unit/layers.test.ts fails while the committed one differs.
import { createRequire } from 'node:module';
import { z } from 'zod';
import { table } from './reference-pages.js';

const Layers = z.object({
  layers: z.array(z.object({ parts: z.array(z.string()).min(1), holds: z.string() })).min(1),
});

/** The house's layers, top to bottom: the folders (`cli/`) and files (`main.ts`) of src/ in each, and what it holds. */
export const layers = Layers.parse(createRequire(import.meta.url)('../tools/layers.cjs')).layers;

const START =
  '<!-- The layout table is written by `npm run docs` from tools/layers.cjs: edit the layers there. -->';
const END = '<!-- End of the layout table. -->';

/** The table of the layers, each a row, the top one first. */
export function layoutTable(): string {
  return table(
    ['Layer, top to bottom', 'What it holds'],
    layers.map(({ parts, holds }) => [parts.map((part) => `\`src/${part}\``).join(', '), holds]),
  );
}

/** CONTRIBUTING.md's text with the table between its markers as the layers give it. */
export function withLayoutTable(contributing: string): string {
  const start = contributing.indexOf(START);
  const end = contributing.indexOf(END);
  if (start === -1 || end < start)
    throw new Error(`CONTRIBUTING.md has lost the layout table's markers:\n${START}\n${END}`);
  return `${contributing.slice(0, start)}${START}\n${layoutTable()}\n${contributing.slice(end)}`;
}

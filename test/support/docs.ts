// The repository's documentation as the docs tests read it: which files count, and the fenced code blocks in them.

import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

/** The documentation a reader of the repository opens: README.md, CONTRIBUTING.md and every page under docs/. */
export async function docFiles(): Promise<string[]> {
  const pages = await readdir(join(ROOT, 'docs'), { recursive: true });
  return [
    'README.md',
    'CONTRIBUTING.md',
    ...pages
      .filter((name) => name.endsWith('.md'))
      .map((name) => relative(ROOT, join(ROOT, 'docs', name)))
      .sort(),
  ];
}

export interface CodeBlock {
  /** The file it is in, relative to the repository's root. */
  file: string;
  /** Its line in that file (1-based), for messages. */
  line: number;
  /** The first word of the fence's info string (`ts`, `sh`), or '' for none. */
  lang: string;
  /** The rest of the info string, word by word (`no-run`). */
  flags: string[];
  /** The code, less the indentation of its fence (a block inside a list item is indented). */
  code: string;
}

/** The fenced blocks of a Markdown text, in order. */
export function codeBlocks(file: string, text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  for (const m of text.matchAll(/^([ \t]*)```([^\n`]*)\n([\s\S]*?)^\1```[ \t]*$/gm)) {
    const indent = m[1] ?? '';
    const [lang = '', ...flags] = (m[2] ?? '').trim().split(/\s+/);
    const code = (m[3] ?? '')
      .split('\n')
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
      .join('\n');
    const line = text.slice(0, m.index).split('\n').length;
    blocks.push({ file, line, lang, flags, code });
  }
  return blocks;
}

/** Every fenced block of the documentation. */
export async function docBlocks(): Promise<CodeBlock[]> {
  const all: CodeBlock[] = [];
  for (const file of await docFiles()) {
    all.push(...codeBlocks(file, await readFile(join(ROOT, file), 'utf8')));
  }
  return all;
}

/** The test file a block names on its first line (`// example: run by test/e2e/x.test.ts`), if it does. */
export function runBy(block: CodeBlock): string | undefined {
  return /^\/\/ example: run by (\S+)\s*$/m.exec(block.code.split('\n')[0] ?? '')?.[1];
}

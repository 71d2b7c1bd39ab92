// The documentation names nothing a reader of the repository cannot open, links only to files that exist (and to
// headings that exist in them), keeps its performance figures on one page, and keeps the README short enough to
// read in one sitting.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles, ROOT } from '../support/docs.js';

/** Phrases that name a document outside the repository, with what to write instead. */
const UNOPENABLE: { pattern: RegExp; why: string }[] = [
  { pattern: /spec\/banking-api/i, why: 'a specification file that is not in the repository' },
  { pattern: /\bCONTRACT\b/, why: 'a contract document that is not in the repository' },
  { pattern: /\bthe contract\b/i, why: 'a contract document that is not in the repository' },
  { pattern: /\bthe spec\b/i, why: "the bank's specification, which a reader cannot open" },
  { pattern: /§/, why: 'a section of a document that is not in the repository' },
  { pattern: /\bissue #?\d+/i, why: 'an issue a reader of the repository cannot see' },
];

/** Words that only a performance figure uses: such a figure belongs in docs/performance.md, dated. */
const FIGURE = /\bRSS\b|\bp99\b|requests\/s\b|requests a second/;

const README_MAX_LINES = 250;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings (outside code blocks), with GitHub's `-1` for a repeated one. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const prose = text.replace(/^([ \t]*)```[\s\S]*?^\1```[ \t]*$/gm, '');
  for (const m of prose.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative links of a Markdown text (inline `[text](target)`), outside code. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/^([ \t]*)```[\s\S]*?^\1```[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

const files = await docFiles();
const read = (file: string) => readFile(join(ROOT, file), 'utf8');

describe('the documentation', () => {
  it('is found: the README, CONTRIBUTING and the pages of docs/', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('CONTRIBUTING.md');
    expect(files).toContain('docs/README.md');
  });

  it.each(files)('%s names no document a reader cannot open', async (file) => {
    const text = await read(file);
    const found = UNOPENABLE.flatMap(({ pattern, why }) =>
      text
        .split('\n')
        .map((line, i) => ({ line: i + 1, text: line }))
        .filter(({ text }) => pattern.test(text))
        .map(({ line, text }) => `${file}:${line}: ${why}: ${text.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it.each(files)('%s links only to files and headings that exist', async (file) => {
    const text = await read(file);
    const broken: string[] = [];
    for (const link of relativeLinks(text)) {
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      if (!existsSync(join(ROOT, target))) {
        broken.push(`${link}: no file ${target}`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchors(await read(target)).has(anchor)) {
        broken.push(`${link}: no heading #${anchor} in ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it.each(files.filter((file) => file !== 'docs/performance.md'))(
    '%s leaves performance figures to docs/performance.md',
    async (file) => {
      const lines = (await read(file)).split('\n');
      const figures = lines.flatMap((line, i) =>
        FIGURE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [],
      );
      expect(figures).toEqual([]);
    },
  );

  it(`keeps the README at ${README_MAX_LINES} lines at most`, async () => {
    const lines = (await read('README.md')).trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });
});

describe('the checks themselves', () => {
  it('make anchors as GitHub does', () => {
    expect(slug('Where production is stricter: `x-sandbox-warning`')).toBe(
      'where-production-is-stricter-x-sandbox-warning',
    );
    expect(slug("The bank's API (`/api/v1`)")).toBe('the-banks-api-apiv1');
    expect([...anchors('# A\n## A\n```\n# not a heading\n```\n')]).toEqual(['a', 'a-1']);
  });

  it('find relative links outside code, and leave absolute ones', () => {
    expect(
      relativeLinks('[a](docs/a.md) [b](https://x.test/b) `[c](c.md)`\n```\n[d](d.md)\n```\n[e](#e)'),
    ).toEqual(['docs/a.md', '#e']);
  });

  it('catch every phrase that names what a reader cannot open', () => {
    const caught = (text: string) => UNOPENABLE.some(({ pattern }) => pattern.test(text));
    for (const text of [
      'see spec/banking-api.md',
      'CONTRACT §3',
      'as the contract says',
      'fixed in issue 18',
    ]) {
      expect(caught(text), text).toBe(true);
    }
    expect(caught('each route is a contract in src/contract/')).toBe(false);
  });
});

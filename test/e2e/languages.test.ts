// docs/languages.md: the plain-HTTP recipe of each language, run as printed against the built sandbox wherever the
// language is installed (Debian's default-jdk-headless, golang-go, php-cli), printing what its `prints:` comments
// say. The Testcontainers parts and .NET's are fenced `no-run`: their libraries (and .NET itself) come from
// registries the test machine does not reach, which the page says.

import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodeBlock, codeBlocks, ROOT } from '../support/docs.js';
import { run, type SandboxProcess, startProcess, stop } from '../support/process.js';

const PAGE = 'docs/languages.md';
const blocks = codeBlocks(PAGE, readFileSync(join(ROOT, PAGE), 'utf8'));

/** How each language's recipe runs: its file's name and the command, with what to install when it is missing. */
const RUNNERS: Record<string, { file: string; command: string[]; install: string }> = {
  java: {
    file: 'Sandbox.java',
    command: ['java', 'Sandbox.java'],
    install: 'apt-get install default-jdk-headless',
  },
  go: { file: 'sandbox.go', command: ['go', 'run', 'sandbox.go'], install: 'apt-get install golang-go' },
  php: { file: 'sandbox.php', command: ['php', 'sandbox.php'], install: 'apt-get install php-cli' },
};
const SECTIONS = { java: 'java', go: 'go', csharp: 'csharp', php: 'php' } as const;

const runnable = blocks.filter((b) => !b.flags.includes('no-run'));
const promised = (b: CodeBlock) =>
  [...b.code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => (m[1] ?? '').trim());

let sandbox: SandboxProcess;
let dir: string;
beforeAll(async () => {
  sandbox = await startProcess(['--in-memory']);
  dir = await mkdtemp(join(tmpdir(), 'languages-'));
});
afterAll(async () => {
  if (sandbox) await stop(sandbox);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe(PAGE, () => {
  it('has, for Java, Go, .NET and PHP, a Testcontainers generic container and a plain-HTTP recipe', () => {
    for (const lang of Object.values(SECTIONS)) {
      const mine = blocks.filter((b) => b.lang === lang);
      expect(
        mine.some((b) => /GenericContainer|ContainerBuilder/.test(b.code)),
        lang,
      ).toBe(true);
      const recipe = mine.find((b) => b.code.includes('/__sandbox/sandboxes'));
      expect(recipe?.code, lang).toMatch(/__sandbox\/clients/);
    }
  });

  it('runs every recipe not fenced no-run, each in a language this test knows', () => {
    expect(runnable.map((b) => b.lang).sort()).toEqual(Object.keys(RUNNERS).sort());
    for (const b of runnable) expect(promised(b).length, b.lang).toBeGreaterThan(0);
  });

  const cases: [string, CodeBlock][] = runnable.map((b) => [b.lang, b]);
  it.for(cases)(
    'the %s recipe runs as printed and prints what it says',
    { timeout: 180_000 },
    async ([lang, b], context) => {
      const runner = RUNNERS[lang];
      if (!runner) throw new Error(`no runner for ${lang}`);
      const [command = '', ...args] = runner.command;
      const probe = await run('sh', ['-c', `command -v ${command}`]);
      if (probe.code !== 0) {
        const why = `skipped: ${command} is not installed (${runner.install})`;
        console.warn(why);
        return context.skip(why);
      }
      const folder = await mkdtemp(join(dir, `${lang}-`));
      await writeFile(join(folder, runner.file), b.code);
      const r = await run(command, args, { cwd: folder, env: { SANDBOX_URL: sandbox.url } });
      expect({ code: r.code, stderr: r.stderr }, b.code).toEqual({ code: 0, stderr: '' });
      expect(r.stdout.trimEnd().split('\n'), b.code).toEqual(promised(b));
    },
  );
});

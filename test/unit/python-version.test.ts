import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../support/docs.js';

// One release, one number: `npm version` rewrites the Python package's through scripts/python-version.mjs, and a
// hand edit of either file alone fails here.
it("the Python package's version is package.json's", () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const pyproject = readFileSync(join(ROOT, 'clients', 'python', 'pyproject.toml'), 'utf8');
  expect(/^version = "([^"]*)"$/m.exec(pyproject)?.[1]).toBe(version);
});

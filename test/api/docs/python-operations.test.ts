// The Python package maps every operation of the control API's document to a method of its `Sandbox`, so a suite in
// Python can reach all the sandbox can do. Read from its source, so this runs where no Python is installed; the
// package's own tests call the methods (test/e2e/python-kit.test.ts).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { controlDocument } from '../../../src/openapi/document.js';
import { ROOT } from '../../support/docs.js';

const PACKAGE = join(ROOT, 'clients', 'python', 'banking_sandbox');
// The dashboard's pages and the documents themselves are for a browser, not for a test suite.
const FOR_BROWSERS = /^\/(ui|openapi\.json|docs)(\/|$)/;

/** `OPERATIONS` of operations.py: a literal dict of strings, one entry a line. */
function operations(): Map<string, string> {
  const source = readFileSync(join(PACKAGE, 'operations.py'), 'utf8');
  const body = /^OPERATIONS = \{\n([\s\S]*?)^\}/m.exec(source)?.[1] ?? '';
  return new Map(
    [...body.matchAll(/^\s+"(\w+)": "(\w+)",$/gm)].map((m) => [m[1] ?? '', m[2] ?? ''] as const),
  );
}

const documented = Object.entries(controlDocument().paths).flatMap(([path, item]) =>
  FOR_BROWSERS.test(path)
    ? []
    : Object.values(item as Record<string, { operationId?: string }>).flatMap((op) =>
        typeof op === 'object' && op?.operationId ? [op.operationId] : [],
      ),
);

it("OPERATIONS names every operation of the control document but the browsers' pages, and no other", () => {
  expect([...operations().keys()].sort()).toEqual([...documented].sort());
});

it('each name of OPERATIONS is a method of Sandbox', () => {
  const source = readFileSync(join(PACKAGE, 'sandbox.py'), 'utf8');
  const methods = new Set([...source.matchAll(/^ {4}def (\w+)\(\s*self\b/gm)].map((m) => m[1]));
  const missing = [...operations().values()].filter((name) => !methods.has(name));
  expect(missing).toEqual([]);
});

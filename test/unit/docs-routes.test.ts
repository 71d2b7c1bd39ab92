// Every operation the documentation names by method and path (`GET /clients/business`, `POST /__sandbox/reset`)
// is one the sandbox has: a route renamed or removed in the code fails here, naming the page and the call. The
// pages' tables are written by hand (the generated reference covers the control API whole); this keeps them honest.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { apiContracts } from '../../src/contract/api/index.js';
import { controlContracts } from '../../src/contract/control/index.js';
import { API_PREFIX, CONTROL_PREFIX, DASHBOARD_PATH, DOCS_PATH } from '../../src/contract/mounts.js';
import { docFiles, ROOT } from '../support/docs.js';

/** A path with its parameters' names left out: `/disputes/{id}` and `/disputes/{disputeId}` are one route. */
const shape = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

/** Every method and path the sandbox answers, as the docs may write them (the API's with or without its prefix). */
const KNOWN = new Set([
  ...apiContracts.flatMap((c) => {
    const key = `${c.method.toUpperCase()} ${shape(c.path)}`;
    return [key, `${c.method.toUpperCase()} ${API_PREFIX}${shape(c.path)}`];
  }),
  ...controlContracts.map((c) => `${c.method.toUpperCase()} ${CONTROL_PREFIX}${shape(c.path)}`),
  // The pages the sandbox serves beside the contracts: the reference, its documents, the dashboard.
  `GET ${DOCS_PATH}`,
  'GET /openapi.json',
  `GET ${CONTROL_PREFIX}/openapi.json`,
  `GET ${DASHBOARD_PATH}`,
]);

/** `METHOD /path` in backquotes or a table cell; a path cut short (`…`, `...`) is left out, as is a query. */
const CALL = /\b(GET|POST|PUT|PATCH|DELETE) (\/[A-Za-z0-9_{}./-]*)/g;

it('every operation the docs name by method and path is one the sandbox has', async () => {
  const unknown: string[] = [];
  let seen = 0;
  for (const file of await docFiles()) {
    if (file.startsWith('docs/reference/')) continue; // generated from the contracts themselves
    const text = await readFile(join(ROOT, file), 'utf8');
    for (const match of text.matchAll(CALL)) {
      const [whole, method, raw = ''] = match;
      const path = raw.replace(/[.]+$/, '');
      const cutShort = text[match.index + whole.length] === '…' || path.includes('..');
      if (cutShort || path === '/') continue;
      seen++;
      const call = `${method} ${shape(path)}`;
      if (!KNOWN.has(call)) unknown.push(`${file}: ${method} ${path}`);
    }
  }
  expect(seen).toBeGreaterThan(50);
  expect([...new Set(unknown)]).toEqual([]);
});

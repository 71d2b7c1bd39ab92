import { Hono } from 'hono';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from '../http/env.js';
import type { ScenarioLibrary } from '../scenarios/library.js';
import { DOCS_ASSETS, docsAssetReader } from './assets.js';
import { DOCS_PAGE } from './docs-page.js';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/**
 * `GET /openapi.json` (the bank's API) and `GET /docs`, the reference page of both documents, with its assets. The
 * control API's document is one of its own routes (`GET /__sandbox/openapi.json`).
 */
export function openapiRoutes(scenarios: Pick<ScenarioLibrary, 'list'>) {
  // `x-sandbox-scenario` is documented with the names of the ready scenarios this sandbox loaded: the files of
  // its `scenarios/` folder, known once it has started.
  // Loaded and built on the first request: the bundle keeps the documents (operations, response schemas) in a
  // chunk of their own, so start-up, which the benchmark watches, does not pay for them (about 13 ms when it did).
  let api: string | undefined;
  const asset = docsAssetReader();
  return new Hono<AppEnv>()
    .get('/openapi.json', async (c) => {
      if (api === undefined) {
        const { apiDocument } = await import('./document.js');
        api = JSON.stringify(apiDocument(scenarios.list().map((s) => s.name)));
      }
      return c.body(api, 200, JSON_TYPE);
    })
    .get('/docs', (c) => c.html(DOCS_PAGE))
    .get('/docs/assets/:file', async (c) => {
      const file = c.req.param('file');
      const text = await asset(file);
      if (text === undefined) throw new ApiError(404, `No docs asset ${file} (run npm run build?)`);
      return c.body(text, 200, {
        'content-type': DOCS_ASSETS[file] ?? 'application/octet-stream',
        'cache-control': 'public, max-age=3600',
      });
    });
}

import { Hono } from 'hono';
import type { Config } from '../config.js';
import { openapiControlContract } from '../contract/control/sandbox.js';
import { CONTROL_PREFIX, DOCS_PATH } from '../contract/mounts.js';
import type { Deps } from '../deps.js';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from '../http/env.js';
import { type AnswerCheck, mountRoutes } from '../http/mount.js';
import { implementer } from '../http/route.js';
import type { ScenarioLibrary } from '../scenarios/library.js';
import { DOCS_ASSETS, docsAssetReader } from './assets.js';
import { DOCS_PAGE } from './docs-page.js';
import type { OpenApiDocument } from './document.js';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

/**
 * The documents, a door of their own: `GET /openapi.json` (the bank's API), `GET /__sandbox/openapi.json` (the control
 * API's, one of its contracts, behind its guard), and `GET /docs`, the reference page of both, with its assets.
 * Mount it at `/`, after the control API's guard.
 */
export function createDocs(options: {
  config: Config;
  scenarios: Pick<ScenarioLibrary, 'list'>;
  check?: AnswerCheck;
}): Hono<AppEnv> {
  const { config, scenarios, check } = options;
  // Loaded and built on the first request: the bundle keeps the documents (operations, response schemas) in a
  // chunk of their own, so start-up does not pay for them.
  const builder = () => import('./document.js');
  // The control document names the ready scenarios `x-sandbox-scenario` takes: the files of this sandbox's
  // `scenarios/` folder, known once it has started.
  let api: string | undefined;
  let control: Promise<OpenApiDocument> | undefined;
  const asset = docsAssetReader();
  const app = new Hono<AppEnv>()
    .get('/openapi.json', async (c) => {
      if (api === undefined) {
        const { apiDocument } = await builder();
        api = JSON.stringify(apiDocument());
      }
      return c.body(api, 200, JSON_TYPE);
    })
    .get(DOCS_PATH, (c) => c.html(DOCS_PAGE))
    .get(`${DOCS_PATH}/assets/:file`, async (c) => {
      const file = c.req.param('file');
      const text = await asset(file);
      if (text === undefined) throw new ApiError(404, `No docs asset ${file} (run npm run build?)`);
      return c.body(text, 200, {
        'content-type': DOCS_ASSETS[file] ?? 'application/octet-stream',
        'cache-control': 'public, max-age=3600',
      });
    });
  const route = implementer<{ deps: Deps }>();
  mountRoutes(
    app,
    CONTROL_PREFIX,
    [
      route(openapiControlContract, async () => {
        control ??= builder().then((m) => m.controlDocument(scenarios.list().map((s) => s.name)));
        return { json: await control };
      }),
    ],
    ['deps'],
    config,
    check,
  );
  return app;
}

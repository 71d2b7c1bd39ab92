import { Hono } from 'hono';
import type { Deps } from '../deps.js';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from '../http/env.js';
import type { RequestJournal } from '../http/request-log.js';
import { type AssetTypes, assetReader, nearestFolder } from '../http/static-assets.js';
import { isDashboard, LiveFeed } from './live.js';
import { Page } from './views.js';

/** The page's own browser files, with their content types. */
export const DASHBOARD_ASSETS: AssetTypes = {
  'app.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};

/** The folder `scripts/build.mjs` copies them to, beside the bundle; from source they are in `assets/` here. */
export const DASHBOARD_ASSETS_FOLDER = 'dashboard-assets';

const locate = () =>
  nearestFolder(import.meta.url, DASHBOARD_ASSETS_FOLDER, 'app.js') ??
  nearestFolder(import.meta.url, 'assets', 'app.js');

/**
 * `/__sandbox/ui`: the live dashboard. The page is rendered on the server from the state; its buttons and forms
 * call the control API, and `/events` keeps it current. It sits under the control API, so `--control-token`
 * guards it too.
 */
export function dashboardRoutes(deps: Deps, requests: RequestJournal) {
  const asset = assetReader(DASHBOARD_ASSETS, locate);
  const feed = new LiveFeed(deps, requests);
  return new Hono<AppEnv>()
    .get('/', (c) => {
      const shown = requests.entries().filter((r) => !isDashboard(r.path));
      return c.html(`<!doctype html>${Page({ deps, requests: shown })}`);
    })
    .get('/events', (c) => feed.respond(c))
    .get('/assets/:file', async (c) => {
      const file = c.req.param('file');
      const text = await asset(file);
      if (text === undefined) throw new ApiError(404, `No dashboard asset ${file}`);
      return c.body(text, 200, {
        'content-type': DASHBOARD_ASSETS[file] ?? 'application/octet-stream',
        'cache-control': 'no-cache',
      });
    });
}

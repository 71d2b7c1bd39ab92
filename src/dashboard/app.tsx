import { type Context, Hono } from 'hono';
import type { Config } from '../config.js';
import { dashboardContract, dashboardEventsContract } from '../contract/control/dashboard.js';
import type { Deps } from '../deps.js';
import { ApiError } from '../domain/errors.js';
import type { AppEnv, RequestWorld } from '../http/env.js';
import { type AnswerCheck, mountRoutes, worldPart } from '../http/mount.js';
import type { RequestJournal } from '../http/request-log.js';
import { implementer, type Route } from '../http/route.js';
import { type AssetTypes, assetReader } from '../http/static-assets.js';
import { nearestFolder } from '../store/nearest-folder.js';
import type { DriftReport } from '../upstream/drift.js';
import { BatchItems, RequestDetail } from './details.js';
import { isDashboard, type LiveFeed } from './live.js';
import { readItems, readModel, readRequest, readRequestById } from './model.js';
import { dashboardGuard } from './token.js';
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
 * What the dashboard's handlers are given of their world: the state, the control hooks (its request journal, its
 * drift report, the registry of sandboxes its picker lists), and the live feed of it all.
 */
export interface DashboardRuntime {
  deps: Deps;
  control: {
    requests: RequestJournal;
    drift: DriftReport;
    sandboxId: string | null;
    sandboxes: { list(): readonly { id: string }[] };
  };
  feed: LiveFeed;
}

/** A world as the dashboard reads it: the app gives it worlds of this type or more (`createDashboard<W>`). */
export type DashboardWorld = RequestWorld & DashboardRuntime;

/** The request journal of a request's world. */
const journalOf = (c: Context<AppEnv>) => worldPart<DashboardWorld, 'control'>(c, 'control').requests;

const route = implementer<DashboardRuntime>();

/** A piece of the page, rendered on the server for the page's script to swap in by id. */
const fragment = (c: Context<AppEnv>, html: unknown) =>
  c.html(String(html), 200, { 'cache-control': 'no-store' });

/** The journal keeps the newest requests only: what a 404 of an entry says. */
const GONE = 'in the journal (it holds the last ones only)';

/**
 * What the page fetches when the reader asks for it, rendered once, here (`details.tsx`): a batch's items (under
 * its row, fetched again as the batch moves) and a request's detail (by its journal id, or as the first POST with
 * a record's `x-request-id`). Like the assets, they are the page's own and outside the documents.
 */
function mountFragments(app: Hono<AppEnv>): void {
  app.get('/ui/fragments/batches/:id/items', (c) => {
    const found = readItems(c.env.world.deps.store, c.req.param('id'));
    if (!found) throw new ApiError(404, 'Bulk transfer not found');
    return fragment(c, BatchItems(found));
  });
  app.get('/ui/fragments/requests/:id', (c) => {
    const id = c.req.param('id');
    const entry = readRequest(journalOf(c), id);
    if (!entry) throw new ApiError(404, `Request not found: no entry ${id} ${GONE}`);
    return fragment(c, RequestDetail({ entry }));
  });
  app.get('/ui/fragments/requests', (c) => {
    const requestId = c.req.query('requestId') ?? '';
    const entry = readRequestById(journalOf(c), requestId);
    if (!entry) throw new ApiError(404, `Request not found: no POST with x-request-id ${requestId} ${GONE}`);
    return fragment(c, RequestDetail({ entry }));
  });
}

const dashboardRoutes: Route<DashboardRuntime>[] = [
  route(dashboardContract, ({ c, deps, control, query }) => {
    const shown = control.requests.entries().filter((r) => !isDashboard(r.path));
    const model = readModel(deps, {
      requests: shown,
      clientId: query.client || undefined,
      unfold: query.unfold === '1',
      drift: control.drift,
      sandboxes: { current: control.sandboxId, ids: control.sandboxes.list().map((s) => s.id) },
    });
    const page = Page({ model });
    return { response: c.html(`<!doctype html>${page}`) };
  }),
  route(dashboardEventsContract, ({ c, feed }) => ({ response: feed.respond(c) })),
];

/**
 * `/__sandbox/ui`: the live dashboard, a door of its own, of each world (an isolated sandbox's at
 * `/sandboxes/{id}/__sandbox/ui`; its picker moves between them). The page is rendered on the server from one model of the
 * state (`model.ts`), and so is what it fetches on demand (`/ui/fragments/…`); its buttons and forms call the
 * control API, and `/ui/events` keeps it current. It owns its token flow (`token.ts`):
 * with `--control-token` it takes the token once, from `?token=` or its page's form, into the cookie that the
 * page's control calls then carry. Mount it under `CONTROL_PREFIX` before the control API's guard, which would
 * otherwise answer the token's offer with a 401.
 */
export function createDashboard<W extends DashboardWorld>(options: {
  config: Config;
  check?: AnswerCheck;
}): Hono<AppEnv> {
  const { config, check } = options;
  const app = new Hono<AppEnv>();
  const guard = dashboardGuard(config);
  app.use('/ui', guard);
  app.use('/ui/*', guard);
  mountRoutes<W, keyof DashboardRuntime>(
    app,
    '',
    dashboardRoutes,
    ['deps', 'control', 'feed'],
    config,
    check,
  );
  mountFragments(app);
  // The page's script and style sheet, outside the documents.
  const asset = assetReader(DASHBOARD_ASSETS, locate);
  app.get('/ui/assets/:file', async (c) => {
    const file = c.req.param('file');
    const text = await asset(file);
    if (text === undefined) throw new ApiError(404, `No dashboard asset ${file}`);
    return c.body(text, 200, {
      'content-type': DASHBOARD_ASSETS[file] ?? 'application/octet-stream',
      'cache-control': 'no-cache',
    });
  });
  return app;
}

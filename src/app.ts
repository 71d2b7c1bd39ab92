import { randomUUID } from 'node:crypto';
import { type Context, Hono, type Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { MAX_DOCUMENTS } from './api/business/registration.js';
import { apiRoutes } from './api/routes.js';
import { type ControlHooks, controlRoutes } from './control/routes.js';
import type { Deps } from './deps.js';
import type { BulkProcessor } from './engine/bulk-processor.js';
import type { WebhookDispatcher } from './engine/webhook-dispatcher.js';
import { openapiRoutes } from './openapi/routes.js';

/** The background workers the routes hand work to. */
export interface Engines {
  bulk: BulkProcessor;
  webhooks: WebhookDispatcher;
}

import type { AppEnv } from './http/env.js';
import { ApiError, errorBody } from './http/envelope.js';
import { header } from './http/headers.js';
import { batchedWriter, formatRequest, type RequestEntry, RequestJournal } from './http/request-log.js';
import { chosenScenario, routeOf } from './http/scenario.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** A state import (`PUT /__sandbox/state`) may be far larger than any API body. */
const STATE_IMPORT_LIMIT_BYTES = 512 * 1_048_576;
const STATE_PATH = '/__sandbox/state';
const REGISTRATION_PATH = '/api/v1/clients/business/complete-registration';
const BULK_CREATE_PATH = '/api/v1/clients/business/customers/funds/bulk-transfer';
/** A batch of 10 000 transfers is a few MB of JSON. */
const BULK_CREATE_LIMIT_BYTES = 32 * 1_048_576;

function limit(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(413, 'Request body too large');
    },
  });
}

/** The whole HTTP surface: `/api/v1` (the emulated bank) and `/__sandbox` (control). No port is opened here. */
export function createApp(deps: Deps, hooks: Omit<ControlHooks, 'requests'>, engines: Engines) {
  const app = new Hono<AppEnv>();
  const requests = new RequestJournal(deps.config.journalSize);

  const normal = limit(deps.config.bodyLimitBytes);
  const stateImport = limit(STATE_IMPORT_LIMIT_BYTES);
  // A registration form carries a photo and up to five documents; the route checks each file against the
  // upload limit, so this only bounds the whole form.
  const registration = limit((MAX_DOCUMENTS + 1) * deps.config.uploadLimitBytes + 65_536);
  const bulkCreate = limit(BULK_CREATE_LIMIT_BYTES);
  // One middleware in front of everything: the request id, then the body limit. (Each layer costs a little on
  // every request, and the cheapest reads are what the benchmark watches.)
  const logLine = deps.config.quiet ? null : batchedWriter((chunk) => process.stdout.write(chunk));
  app.use(async (c, next) => {
    const started = performance.now();
    await frontDoor(c, next);
    const entry: RequestEntry = {
      time: new Date().toISOString(),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      requestId: c.get('requestId'),
    };
    requests.add(entry);
    logLine?.(formatRequest(entry, deps.config.logFormat));
  });

  /** The request id, then the body limit. */
  const frontDoor = (c: Context<AppEnv>, next: Next) => {
    const given = header(c, 'x-request-id');
    const id = given && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', id);
    // Set before the handler runs, so every response carries it, errors included. Under @hono/node-server it
    // goes straight onto Node's response (merged at writeHead): through `c.header()` every response would carry
    // a fetch `Headers` object, which costs a third of a cheap read.
    const outgoing = c.env?.outgoing;
    if (outgoing) outgoing.setHeader('x-request-id', id);
    else c.header('x-request-id', id);
    // A request without a body needs no limit, and looking at it would make @hono/node-server build a full
    // fetch Request.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    if (c.req.path === STATE_PATH) return stateImport(c, next);
    if (c.req.path === REGISTRATION_PATH) return registration(c, next);
    if (c.req.path === BULK_CREATE_PATH) return bulkCreate(c, next);
    return normal(c, next);
  };
  // Scenario rules on any API route: a delay, or an answer of their own before the handler runs.
  app.use('/api/v1/*', async (c, next) => {
    const chosen = chosenScenario(c, deps);
    if (chosen === undefined && !deps.scenarios.has('http')) return next();
    // Keyed on the request's place among the requests to its method and route, not on its (random) id.
    const subject = `${c.req.method} ${routeOf(c)}`;
    const ordinal = deps.scenarios.ordinal(`http:${subject}`, chosen);
    const effect = deps.scenarios.check(
      { on: 'http', method: c.req.method, path: c.req.path, key: `${subject} ${ordinal}` },
      chosen,
    );
    if (effect?.delayMs) await deps.clock.sleep(effect.delayMs);
    if (effect?.http) throw new ApiError(effect.http.status as ContentfulStatusCode, effect.http.message);
    return next();
  });
  app.route('/api/v1', apiRoutes(deps, engines));
  app.route('/__sandbox', controlRoutes(deps, { ...hooks, requests }, engines));
  // After the control routes, so that --control-token guards /__sandbox/openapi.json too.
  app.route('/', openapiRoutes());
  // Uploaded registration files, at the URLs the business record holds.
  app.get('/uploads/:businessId/:file', async (c) => {
    const file = await deps.uploads.read(c.req.param('businessId'), c.req.param('file'));
    if (!file) throw new ApiError(404, 'File not found');
    return c.body(file.bytes.slice().buffer, 200, { 'content-type': file.contentType });
  });

  app.notFound((c) => c.json(errorBody(`Route not found: ${c.req.method} ${c.req.path}`), 404));
  app.onError((error, c) => {
    if (error instanceof ApiError)
      return c.json(errorBody(error.message, error.errors, error.errorCode, error.waiting), error.status);
    if (error instanceof HTTPException && error.status < 500) {
      return c.json(errorBody(error.message || 'Bad request'), error.status);
    }
    deps.log(
      `error ${c.req.method} ${c.req.path} request=${c.get('requestId')}: ${(error as Error).stack ?? error}`,
    );
    return c.json(errorBody('Internal server error'), 500);
  });
  return app;
}

export type App = ReturnType<typeof createApp>;

import { randomUUID } from 'node:crypto';
import { type Context, Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { apiRouteList } from './api/routes.js';
import { controlGuard } from './control/guard.js';
import { type ControlHooks, controlRouteList } from './control/routes.js';
import { LiveFeed } from './dashboard/live.js';
import { dashboardAssets } from './dashboard/routes.js';
import type { Deps } from './deps.js';
import { ApiError, type ErrorStatus } from './domain/errors.js';
import { unmatchedRoute } from './http/allow.js';
import { createAuth } from './http/auth.js';
import type { AppEnv } from './http/env.js';
import {
  ANSWER_TEXT,
  errorBody,
  jsonAnswer,
  REQUEST_TEXT,
  type WithAnswerText,
  type WithRequestText,
} from './http/envelope.js';
import { header } from './http/headers.js';
import { type AnswerCheck, mountRoutes } from './http/mount.js';
import {
  ENTRY_OVERHEAD_BYTES,
  envelopeMessage,
  exceeds,
  formatRequest,
  NO_WARNINGS,
  type RequestEntry,
  RequestJournal,
} from './http/request-log.js';
import type { Engines, Runtime } from './http/route.js';
import { chosenScenario, routeOf } from './http/scenario.js';
import { bufferedUnreadBody, settleUnreadBody } from './http/unread-body.js';
import { copyWarnings } from './http/warnings.js';
import { requestError } from './log-events.js';
import { openapiRoutes } from './openapi/routes.js';
import { asWriteError, isWriteFailureCode, StoreWriteError } from './store/write-error.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/**
 * nginx's "client closed request": the client went away before its request was complete. Hono's status type
 * lists the official codes only.
 */
const CLIENT_CLOSED_REQUEST = 499 as number as ContentfulStatusCode;

/**
 * The control API's own journal routes (`/__sandbox/requests`, `…/{id}`, `…/search`, `…/verify`, `.har`) are not
 * journaled: a verification would otherwise count the calls that read the journal, and a test that polls it
 * would push out what it looks for. They still get their log line.
 */
const isJournalRoute = (path: string) =>
  path.startsWith('/__sandbox/requests') &&
  (path.length === 19 || path[19] === '/' || path === '/__sandbox/requests.har');

/** The whole HTTP surface: `/api/v1` (the emulated bank) and `/__sandbox` (control). No port is opened here. */
export function createApp(
  deps: Deps,
  hooks: Omit<ControlHooks, 'requests'>,
  engines: Engines,
  check?: AnswerCheck,
) {
  const app = new Hono<AppEnv>();
  const requests = new RequestJournal(deps.config.journalSize, deps.config.journalBytes);
  const bodyLimit = deps.config.journalBodyLimit;
  const runtime: Runtime = {
    deps,
    engines,
    control: { ...hooks, requests },
    feed: new LiveFeed(deps, requests),
  };

  /** The one answer to every error: the envelope, and a log line for an unexpected one. */
  const answerError = (error: Error, c: Context<AppEnv>): Response => {
    // The client closed the connection before its body was complete (whatever the error reading it became, a
    // parse failure included): not the server's failure, and nobody reads the answer. The request line says 499.
    const incoming = c.env?.incoming;
    if (incoming && !incoming.complete && incoming.destroyed)
      return jsonAnswer(
        c,
        errorBody('The client closed the connection before the request was complete'),
        CLIENT_CLOSED_REQUEST,
      );
    if (error instanceof ApiError) {
      const body = errorBody(error.message, error.errors, error.errorCode, error.waiting, error.data);
      const route = c.get('route');
      if (route) check?.(route, error.status, body);
      return jsonAnswer(c, body, error.status);
    }
    // A disk that refuses a write: the change was undone, and the client may try again once space returns.
    if (error instanceof StoreWriteError || isWriteFailureCode((error as NodeJS.ErrnoException).code)) {
      return jsonAnswer(c, errorBody(asWriteError(error).message), 503);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return jsonAnswer(c, errorBody(error.message || 'Bad request'), error.status);
    }
    deps.log(requestError(c.req.method, c.req.path, c.get('requestId'), error));
    return jsonAnswer(c, errorBody('Internal server error'), 500);
  };
  // One middleware in front of everything: the request id and the journal. (Each layer costs a little on every
  // request, and the cheapest reads are what the benchmark watches.) Each route bounds its own body.
  // Null when the log keeps no request lines (quiet); the CLI's goes to standard output, with every other line.
  const logLine = deps.requestLog;
  app.use(async (c, next) => {
    const started = performance.now();
    const given = header(c, 'x-request-id');
    const id = given && REQUEST_ID.test(given) ? given : randomUUID();
    c.set('requestId', id);
    // Set before the handler runs, so every response carries it, errors included. Under @hono/node-server it
    // goes straight onto Node's response (merged at writeHead): through `c.header()` every response would carry
    // a fetch `Headers` object, which costs a third of a cheap read.
    const outgoing = c.env?.outgoing;
    if (outgoing) outgoing.setHeader('x-request-id', id);
    else c.header('x-request-id', id);
    await next();
    // Answered before the request body was all received: read the rest (keeping what the journal may show), or
    // say the connection closes. All received but never read (a 401 before the body): what Node buffered.
    const incoming = c.env?.incoming;
    let unread: Buffer | undefined;
    if (incoming && outgoing) {
      if (!incoming.complete) unread = await settleUnreadBody(incoming, outgoing, c.res, bodyLimit);
      else if (!incoming.readableDidRead && incoming.readableLength > 0)
        unread = bufferedUnreadBody(incoming);
    }
    const path = c.req.path;
    const entry = journalEntry(c, started, path, unread);
    if (entry.warnings.length > 0) copyWarnings(c, entry.warnings);
    if (!isJournalRoute(path)) requests.add(entry);
    logLine?.(formatRequest(entry, deps.config.logFormat));
  });

  /**
   * The journal's entry of an answered request: the references the request left on the context, and a check of
   * their sizes against `--journal-body-limit`. Nothing is parsed or serialised here (see `RequestEntry`).
   */
  const journalEntry = (
    c: Context<AppEnv>,
    started: number,
    path: string,
    unread: Buffer | undefined,
  ): RequestEntry => {
    let requestBody: string | Buffer | null = (c.req as WithRequestText)[REQUEST_TEXT] ?? unread ?? null;
    let requestSize: number | null = c.get('bodySize') ?? null;
    let requestTruncated = false;
    if (typeof requestBody === 'string' && exceeds(requestBody, bodyLimit)) {
      requestSize = Buffer.byteLength(requestBody);
      requestBody = null;
      requestTruncated = true;
    } else if (requestBody !== null && requestBody.length > bodyLimit) {
      requestSize = requestBody.length;
      requestBody = null;
      requestTruncated = true;
    } else if (requestBody === null && requestSize === null && c.req.method !== 'GET') {
      // A body never read and not kept: too large to keep, by what it said of its length.
      const length = Number(header(c, 'content-length'));
      requestTruncated = length > bodyLimit;
    }
    let answer: string | null = (c.res as WithAnswerText)[ANSWER_TEXT] ?? null;
    let answerSize: number | null = null;
    let answerType: string | null = null;
    let answerMessage: string | null = null;
    let truncated = false;
    if (answer === null) {
      // An answer of its own (a page, an event stream, a file): its type and, where it says, its size. Only these
      // rarer answers build the response's headers.
      const headers = c.res.headers;
      answerType = headers.get('content-type');
      const length = headers.get('content-length');
      answerSize = length === null ? null : Number(length);
    } else if (exceeds(answer, bodyLimit)) {
      answerSize = Buffer.byteLength(answer);
      answerMessage = envelopeMessage(answer);
      answer = null;
      truncated = true;
    }
    const caller = c.get('caller');
    return {
      seq: 0,
      time: new Date().toISOString(),
      method: c.req.method,
      path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
      requestId: c.get('requestId'),
      warnings: c.get('warnings') ?? NO_WARNINGS,
      url: c.req.url,
      clientId: caller ? caller.client.id : null,
      businessId: c.get('business')?.id ?? null,
      scenario: c.get('scenario') ?? null,
      headers: c.env?.incoming?.headers ?? c.req.raw.headers,
      requestBody,
      requestSize,
      requestTruncated,
      answer,
      answerSize,
      answerType,
      answerMessage,
      truncated,
      cost: ENTRY_OVERHEAD_BYTES + (requestBody?.length ?? 0) + (answer?.length ?? 0),
    };
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
      (fired) => c.set('scenario', fired),
    );
    if (effect?.delayMs) await deps.clock.sleep(effect.delayMs);
    if (effect?.http) throw new ApiError(effect.http.status as ErrorStatus, effect.http.message);
    return next();
  });
  // One auth for both mounts: one cache of verified tokens.
  const auth = createAuth(deps);
  mountRoutes(app, '/api/v1', apiRouteList, runtime, auth, check);
  // Before every /__sandbox route: the documents and the dashboard's assets too, and a path no route answers.
  app.use('/__sandbox/*', controlGuard(deps.config));
  mountRoutes(app, '/__sandbox', controlRouteList, runtime, auth, check);
  app.get('/__sandbox/ui/assets/:file', dashboardAssets());
  app.route('/', openapiRoutes(deps.scenarios.library));
  // Uploaded registration files, at the URLs the business record holds.
  app.get('/uploads/:businessId/:file', async (c) => {
    const file = await deps.uploads.read(c.req.param('businessId'), c.req.param('file'));
    if (!file) throw new ApiError(404, 'File not found');
    return c.body(file.bytes.slice().buffer, 200, { 'content-type': file.contentType });
  });

  app.notFound(
    unmatchedRoute([
      ['/api/v1', apiRouteList],
      ['/__sandbox', controlRouteList],
    ]),
  );
  app.onError(answerError);
  return app;
}

export type App = ReturnType<typeof createApp>;

import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { getPath } from 'hono/utils/url';
import { apiRouteList } from './api/routes.js';
import { upstreamUrl } from './config.js';
import { apiContracts } from './contract/api/index.js';
import { controlContracts } from './contract/control/index.js';
import { API_PREFIX, CONTROL_PREFIX, ISOLATED_PREFIX } from './contract/mounts.js';
import { controlGuard } from './control/guard.js';
import { controlRouteList } from './control/routes.js';
import { createDashboard } from './dashboard/app.js';
import { ApiError } from './domain/errors.js';
import { maskedText } from './domain/redact.js';
import { unmatchedRoute } from './http/allow.js';
import { limit } from './http/body-limit.js';
import type { AppEnv, RequestEnv } from './http/env.js';
import { errorAnswer, errorBody, jsonAnswer } from './http/envelope.js';
import { foreignHost, hostCheck } from './http/exposure.js';
import { type Dispatch, front } from './http/front.js';
import { requestHeader } from './http/headers.js';
import { type AnswerCheck, honoPath, mountRoutes } from './http/mount.js';
import { formatRequest } from './http/request-log.js';
import {
  afterTheCommit,
  NO_ROUTE,
  scenarioFirst,
  transferRulesFirst,
  withErrorRules,
} from './http/scenario.js';
import { requestError } from './log-events.js';
import { createDocs } from './openapi/routes.js';
import { asWriteError, isWriteFailureCode, StoreWriteError } from './store/write-error.js';
import { shownUpstream, upstreamProxy } from './upstream/proxy.js';
import type { UpstreamExchange } from './upstream/recording.js';
import { routeMatcher } from './upstream/route-match.js';
import { noSuchSandbox, type Worlds } from './worlds/registry.js';
import { crossesWorlds, targetPath } from './worlds/request-target.js';
import type { World } from './worlds/world.js';

const API = API_PREFIX;
/** The start-up scenario when none is chosen: its magic values never shadow the real bank. */
const DEFAULT_SCENARIO = 'default';
const isApiPath = (path: string) => path === API || path.startsWith(`${API}/`);

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

/**
 * The whole HTTP surface: `/api/v1` (the emulated bank) and `/__sandbox` (control), of the root sandbox and, under
 * `/sandboxes/{id}`, of every isolated one. The doors are mounted once; each request is answered in its world (the
 * root's, or the isolated sandbox its path names), which its handlers, its guards and its journal are all of. No
 * port is opened here. `record` (`--record`) hears each answer of the upstream.
 */
export function createApp(
  worlds: Worlds,
  check?: AnswerCheck,
  record?: (exchange: UpstreamExchange) => void,
) {
  const { root } = worlds;
  const { config } = root.deps;
  // The path is read once, by the front (which journals it), and routed from there.
  const app = new Hono<AppEnv>({
    getPath: (request, options) => options?.env?.facts.path ?? getPath(request),
  });
  const upstream = config.upstream === undefined ? undefined : upstreamUrl(config.upstream);

  /**
   * An error answer as it goes out: under `/api/v1`, as the scenario's `error` rules make it (a 422 for a
   * validation failure, a 200 that still says `status: false`, a custom answer, a transport fault); elsewhere as it
   * is.
   */
  const refuse = (
    c: Context<AppEnv>,
    body: ReturnType<typeof errorBody>,
    status: number,
  ): Response | Promise<Response> =>
    isApiPath(c.req.path) ? withErrorRules(c, c.env.world.deps, body, status) : jsonAnswer(c, body, status);

  /**
   * The one answer to every error, and so the one place the `error` rules meet them: the envelope, and a log line
   * for an unexpected one.
   */
  const answerError = (error: Error, c: Context<AppEnv>): Response | Promise<Response> => {
    // The client closed the connection before its body was complete (whatever the error reading it became, a
    // parse failure included): not the server's failure, and nobody reads the answer. The request line says 499.
    const incoming = c.env.incoming;
    if (incoming && !incoming.complete && incoming.destroyed)
      return jsonAnswer(
        c,
        errorBody('The client closed the connection before the request was complete'),
        CLIENT_CLOSED_REQUEST,
      );
    if (error instanceof ApiError) {
      const body = errorBody(error.message, error.errors, error.waiting, error.data);
      const route = c.env.facts.route;
      // Held against what the route documents as it answers it, before a scenario changes its status. A 503 is the
      // process's (it stops, or its disk refuses a write), never a route's own answer, as below.
      if (route && error.status !== 503) check?.(route, error.status, body);
      return refuse(c, body, error.status);
    }
    // A disk that refuses a write: the change was undone, and the client may try again once space returns.
    if (error instanceof StoreWriteError || isWriteFailureCode((error as NodeJS.ErrnoException).code)) {
      return refuse(c, errorBody(asWriteError(error).message), 503);
    }
    if (error instanceof HTTPException && error.status < 500) {
      return refuse(c, errorBody(error.message || 'Bad request'), error.status);
    }
    c.env.world.deps.log(requestError(c.req.method, c.req.path, c.env.facts.requestId, error));
    return refuse(c, errorBody('Internal server error'), 500);
  };
  // With `--upstream`, the real bank answers the root's /api/v1 in the sandbox's stead, its answers held against
  // the routes. An isolated sandbox always emulates: it exists for a state of its own.
  if (upstream) {
    const proxy = upstreamProxy({
      base: upstream.href,
      shownAs: shownUpstream(upstream),
      timeoutMs: config.upstreamTimeout,
      maxBody: config.upstreamMaxBody,
      report: root.control.drift,
      routes: apiContracts,
      bodySettings: config,
      record,
    });
    const routeOf = routeMatcher(apiContracts);
    // The rules a tester chose apply first (`--scenario`, a scenario set or rules put in front at run time): a call
    // one answers is answered here, never forwarded nor checked for drift. The start-up default's magic values never
    // shadow the real bank, nor does a ready scenario a request names for itself.
    const testerRules = () => config.scenario !== DEFAULT_SCENARIO || root.deps.scenarios.changed();
    const rootOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
      if (c.env.world !== root) return next();
      if (!testerRules()) return proxy(c);
      // Rules put in front of the start-up default apply; the default's own magic values do not.
      c.env.facts.overridesOnly = config.scenario === DEFAULT_SCENARIO && root.deps.scenarios.startupActive();
      const route = routeOf(c.req.method, c.req.path.slice(API.length));
      const { bytes, message, status, field } = route?.bodyLimit?.(config) ?? { bytes: config.bodyLimit };
      const bound = limit(bytes, message, status, field);
      const answer = await scenarioFirst(
        c,
        root.deps,
        route ? `${API}${honoPath(route.path)}` : NO_ROUTE,
        // A fault that spoils an answer (truncated, a slow body) is played on the sandbox's own: the call stays.
        async (c) =>
          c.env.facts.fault !== undefined
            ? undefined
            : ((await transferRulesFirst(c, root.deps, route?.operationId, bound)) ?? proxy(c)),
        bound,
      );
      if (answer === undefined) return next();
      return answer;
    };
    app.all(API, rootOnly);
    app.all(`${API}/*`, rootOnly);
  }
  // The four doors, side by side. The bank's API gets the deps and the engines, nothing of the sandbox's own.
  mountRoutes<World, 'deps' | 'engines'>(app, API, apiRouteList, ['deps', 'engines'], config, check, true);
  // The dashboard before the control API's guard: it applies the same rules itself, with its token flow in front.
  app.route(CONTROL_PREFIX, createDashboard<World>({ config, check }));
  // Before every other /__sandbox path: the control document too, and a path no route answers.
  app.use(`${CONTROL_PREFIX}/*`, controlGuard(config));
  mountRoutes<World, 'deps' | 'engines' | 'control'>(
    app,
    CONTROL_PREFIX,
    controlRouteList,
    ['deps', 'engines', 'control'],
    config,
    check,
  );
  app.route('/', createDocs({ config, scenarios: root.deps.scenarios.library, check }));
  // Uploaded registration files, at the URLs the business record holds.
  app.get('/uploads/:businessId/:file', async (c) => {
    const file = await c.env.world.deps.uploads.read(c.req.param('businessId'), c.req.param('file'));
    if (!file) throw new ApiError(404, 'File not found');
    return c.body(file.bytes.slice().buffer, 200, { 'content-type': file.contentType });
  });

  const unmatched = unmatchedRoute([
    [API, apiContracts],
    [CONTROL_PREFIX, controlContracts],
  ]);
  // A path under /api/v1 that no route takes still meets the scenario rules, as a request of `(no route)`.
  app.notFound((c) =>
    isApiPath(c.req.path) ? scenarioFirst(c, c.env.world.deps, NO_ROUTE, unmatched) : unmatched(c),
  );
  app.onError(answerError);

  // In front of everything, around Hono: the request id and the journal (see `front`). Without a control token, a
  // request must name the sandbox by a name no page can rebind (`hostCheck`: a page that reached it by another name
  // got there by DNS rebinding), before anything else, even which sandboxes exist. Then the request's world: a path
  // under `/sandboxes/{id}` is routed inside that sandbox, as the root would route the rest of it.
  const hostAllowed = hostCheck(config);
  const hono = app.fetch;
  /**
   * What the rules add once the answer is ready: the answer lost after the commit (`after: "commit"`), and a 429 of
   * a counting rule's `Retry-After`. Two properties looked at per request otherwise.
   */
  const lastWords = (env: RequestEnv, res: Response): Response | Promise<Response> => {
    const { facts } = env;
    if (facts.retryAfter !== undefined && res.status === 429 && !res.headers.has('retry-after'))
      res.headers.set('retry-after', String(facts.retryAfter));
    return facts.afterCommit ? afterTheCommit(env, res) : res;
  };
  // A rule with `after: "commit"` let the call run and gives the client another answer once it has: one property
  // looked at per request otherwise.
  const honoFetch: Dispatch = (request, env) => {
    const res = hono(request, env);
    if (res instanceof Promise) return res.then((r) => lastWords(env, r));
    return lastWords(env, res);
  };
  const dispatch: Dispatch<World> = (request, env) => {
    if (hostAllowed) {
      const host = requestHeader(env.incoming, request, 'host');
      if (!hostAllowed(host)) return errorAnswer(foreignHost(host ?? '', config.host));
    }
    // The world is the one the target names as sent: a dot segment could move a path under one sandbox's prefix
    // to the root or to another sandbox once resolved.
    const target = env.incoming?.url;
    if (target !== undefined && crossesWorlds(target, env.facts.path)) {
      env.facts.journaled = false;
      return errorAnswer(
        new ApiError(
          400,
          `The path ${maskedText(targetPath(target))} holds a dot segment ("." or ".."): a path under ${ISOLATED_PREFIX}/ is taken as it was sent, and no sandbox's path may lead out of it`,
        ),
      );
    }
    const found = worlds.resolve(env.facts.path);
    if ('world' in found && found.world === root) return honoFetch(request, env);
    // A refusal at the door of an isolated sandbox is nobody's request: not the root's journal (another test's
    // world), and no sandbox's. It is still in the request log.
    if ('missing' in found || !isWorldPath(found.path)) env.facts.journaled = false;
    if ('missing' in found) return errorAnswer(noSuchSandbox(found.missing));
    if (!isWorldPath(found.path))
      return errorAnswer(
        new ApiError(
          404,
          `No route ${request.method} ${env.facts.path}: an isolated sandbox answers ${found.world.prefix}${API}/… and ${found.world.prefix}${CONTROL_PREFIX}/…`,
        ),
      );
    const world = found.world;
    // In use until it is answered; an answer to a world dropped meanwhile says so (its work went with it).
    world.enter(Date.now());
    env.world = world;
    env.facts.path = found.path;
    let res: Response | Promise<Response>;
    try {
      res = honoFetch(request, env);
    } catch (error) {
      world.leave(Date.now());
      throw error;
    }
    if (!(res instanceof Promise)) {
      world.leave(Date.now());
      return res;
    }
    return res.then(
      (answer) => {
        world.leave(Date.now());
        if (!world.gone) return answer;
        void answer.body?.cancel();
        env.facts.journaled = false;
        return errorAnswer(world.deletedError());
      },
      (error: unknown) => {
        world.leave(Date.now());
        throw error;
      },
    );
  };
  const logLine = root.deps.requestLog;
  app.fetch = front(dispatch, {
    root,
    bodyLimit: config.journalBodyLimit,
    answered: (entry, facts, world) => {
      if (facts.journaled && !isJournalRoute(entry.path)) world.control.requests.add(entry);
      logLine?.(formatRequest(entry, config.logFormat, world.prefix));
    },
    failed: (error, entry) => root.deps.log(requestError(entry.method, entry.path, entry.requestId, error)),
  });
  return app;
}

/** What an isolated sandbox answers: its two doors, and the uploads its records point at. */
const isWorldPath = (path: string) =>
  isApiPath(path) ||
  path === CONTROL_PREFIX ||
  path.startsWith(`${CONTROL_PREFIX}/`) ||
  path.startsWith('/uploads/');

export type App = ReturnType<typeof createApp>;

/**
 * The app as an isolated sandbox's handle offers it: `request('/api/v1/…')` reaches that sandbox, its paths put
 * under its `/sandboxes/{id}` before the process's app routes them.
 */
export function underPrefix(app: App, prefix: string): App {
  const scoped = new Hono<AppEnv>();
  scoped.fetch = (request, env) => {
    const url = new URL(request.url);
    url.pathname = `${prefix}${url.pathname}`;
    return app.fetch(new Request(url, request), env);
  };
  return scoped;
}

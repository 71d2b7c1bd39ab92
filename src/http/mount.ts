import type { Context, Handler, Hono, MiddlewareHandler } from 'hono';
import type { Config } from '../config.js';
import { declares, isReply, type RouteContract } from '../contract/kit.js';
import type { Actor } from '../domain/actor.js';
import { ApiError } from '../domain/errors.js';
import { canonicalId } from '../domain/ids.js';
import { parseInput } from '../domain/parse.js';
import type { BusinessRecord } from '../domain/records.js';
import { actorOf } from './auth.js';
import { limit } from './body-limit.js';
import type { AppEnv, Caller, RequestWorld } from './env.js';
import { jsonAnswer } from './envelope.js';
import { header } from './headers.js';
import type { FormFields, Route } from './route.js';
import { scenarioFirst } from './scenario.js';
import { jsonBody, jsonText } from './validate.js';

/**
 * Looks at every answer of a route before it is sent: `body` is the JSON body or, for a route that builds its
 * own `Response` (a page, an event stream), that response, unread. The tests give one that holds it against the
 * route's documented responses.
 */
export type AnswerCheck = (route: RouteContract, status: number, body: unknown) => void;

/** The answer a handler gave, whatever its route: the fields `Answer<R>` allows. */
interface GivenAnswer {
  status?: number;
  message?: string;
  data?: unknown;
  page?: { data: unknown[]; pagination: unknown };
  json?: unknown;
  response?: Response;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * The type of a handler's input for a door whose handlers read `parts` of their world: the request's own fields on
 * the instance, and each part a getter on the prototype that reads it from the request's world. One class for every
 * request of a door, whichever world it belongs to: every input has one shape, and nothing of the world is copied
 * (an object literal that spread a runtime into each input made a new shape every time, which cost the reads
 * benchmark a third of its CPU per request).
 */
function inputType<W extends RequestWorld, K extends keyof W>(parts: readonly K[]) {
  class Input {
    readonly caller: Caller | undefined;
    readonly business: BusinessRecord | undefined;
    /** The acting user, for the audit log: a closure, as handlers take it out of their input. */
    readonly actor: () => Actor;
    constructor(
      readonly c: Context<AppEnv>,
      readonly params: Readonly<Record<string, string>>,
      readonly body: unknown,
      readonly query: unknown,
      readonly text: string | undefined,
    ) {
      this.caller = c.env.facts.caller;
      this.business = c.env.facts.business;
      this.actor = () => actorOf(c);
    }
  }
  for (const part of parts) {
    Object.defineProperty(Input.prototype, part, {
      get(this: Input) {
        return worldPart<W, K>(this.c, part);
      },
      enumerable: true,
    });
  }
  return Input;
}

/**
 * The part `part` of a request's world, of the type the door that reads it names (`W`): the kit knows only its own
 * part of a world (`RequestWorld`); the app, which makes the worlds, names their type to every door it mounts.
 */
export function worldPart<W extends RequestWorld, K extends keyof W>(c: Context<AppEnv>, part: K): W[K] {
  return Reflect.get(c.env.world, part);
}

/** OpenAPI's `{param}` as Hono's `:param`. */
export const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The JSON body an envelope answer carries, or undefined for a raw answer of its own. */
function envelope(route: RouteContract, status: number, answer: GivenAnswer): unknown {
  const reply = route.responses[status];
  if (!isReply(reply)) throw new Error(`${route.operationId} answered ${status}, which it does not document`);
  switch (reply.kind) {
    case 'data':
      return { status: true, message: answer.message ?? reply.message, data: answer.data };
    case 'page':
      return {
        status: true,
        message: answer.message ?? reply.message,
        data: answer.page?.data,
        pagination: answer.page?.pagination,
      };
    case 'done':
      return { status: true, message: answer.message ?? reply.message };
    case 'raw':
      return answer.json;
  }
}

/** The path parameters, each an id as the store keys it: an upper-cased UUID names the same record. */
function paramsOf(c: Context<AppEnv>): Record<string, string> {
  const params: Record<string, string> = c.req.param();
  for (const [name, value] of Object.entries(params)) params[name] = canonicalId(value);
  return params;
}

/**
 * A form's fields with `name[]` (how many form libraries name a repeated field, `businessDocuments[]`) read as
 * `name`, the values of both spellings together.
 */
export function withoutBrackets(form: FormFields): FormFields {
  const fields: FormFields = {};
  for (const [key, value] of Object.entries(form)) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const before = fields[name];
    if (before === undefined) fields[name] = value;
    else
      fields[name] = [
        ...(Array.isArray(before) ? before : [before]),
        ...(Array.isArray(value) ? value : [value]),
      ];
  }
  return fields;
}

/** A multipart form: 415 for another content type, 400 for one that does not parse. */
async function formBody(c: Context<AppEnv>): Promise<FormFields> {
  if (!/^multipart\/form-data/i.test(header(c, 'content-type') ?? ''))
    throw new ApiError(415, 'Content-Type must be multipart/form-data');
  const form = await c.req.parseBody({ all: true }).catch(() => {
    throw new ApiError(400, 'Malformed multipart body');
  });
  // The request journal keeps a form's size only: the parse above read the bytes once, this reads the same buffer.
  c.env.facts.bodySize = (await c.req.arrayBuffer()).byteLength;
  return withoutBrackets(form);
}

/**
 * Mounts `routes` under `prefix`: each is one Hono handler that authenticates, reads and validates its input,
 * calls the route's handler and sends its answer, behind the route's body limit and, with `scenarios` (the API),
 * after the scenario rules. Every route works in every world: its handler reads the `parts` of the request's world
 * its door gives (`Route<Pick<W, K>>`, `W` the type of the worlds the app gives it), the credentials are checked against that world, and its rules
 * are that world's. One handler rather than a chain of middleware: every layer costs a little on every request,
 * and a read that Hono finds one handler for is answered without a promise (cheap reads are what the benchmark
 * watches). A route with a body has its limit in front, a middleware, so the scenario rules come first.
 */
export function mountRoutes<W extends RequestWorld, K extends keyof W>(
  app: Hono<AppEnv>,
  prefix: string,
  routes: readonly Route<Pick<W, K>>[],
  parts: readonly K[],
  config: Config,
  check?: AnswerCheck,
  scenarios = false,
): void {
  const Input = inputType<W, K>(parts);
  const mounted: Mounted[] = [];
  for (const route of routes) {
    const hasParams = route.path.includes('{');
    // Read from the route's properties: a request schema is built when a request first needs it.
    const readsBody = route.text || declares(route, 'body') || declares(route, 'form');
    /** The handler's input, with the path parameters only where the path has some. */
    const input = (c: Context<AppEnv>, query: unknown, body: unknown, text: string | undefined) =>
      new Input(c, hasParams ? paramsOf(c) : NO_PARAMS, body, query, text);
    const send = (c: Context<AppEnv>, answer: GivenAnswer): Response => {
      if (answer.response) {
        check?.(route, answer.response.status, answer.response);
        return answer.response;
      }
      const status = answer.status ?? 200;
      const json = envelope(route, status, answer);
      check?.(route, status, json);
      return jsonAnswer(c, json, status);
    };
    const answered = (c: Context<AppEnv>, given: unknown): Response | Promise<Response> =>
      given instanceof Promise
        ? given.then((answer: GivenAnswer) => send(c, answer))
        : send(c, given as GivenAnswer);
    const withBody = async (c: Context<AppEnv>, query: unknown) => {
      const text = route.text ? await jsonText(c) : undefined;
      let body: unknown;
      if (route.form) body = await formBody(c);
      else if (route.body && !route.text) body = await jsonBody(c, route.body);
      return answered(c, route.handle(input(c, query, body, text)));
    };
    // Not async: a read that takes no body answers without a turn of the microtask queue for each step.
    const handle = (c: Context<AppEnv>) => {
      c.env.facts.route = route;
      c.env.world.auth.authenticate(c, route.auth);
      const query = route.query ? parseInput(route.query, c.req.query()) : undefined;
      if (readsBody) return withBody(c, query);
      return answered(c, route.handle(input(c, query, undefined, undefined)));
    };
    const path = `${prefix}${honoPath(route.path)}`;
    const handlers: (MiddlewareHandler<AppEnv> | Handler<AppEnv>)[] = [];
    if (route.method === 'get') {
      handlers.push(scenarios ? (c) => scenarioFirst(c, c.env.world.deps, path, handle) : handle);
    } else {
      const bound = route.bodyLimit?.(config) ?? { bytes: config.bodyLimit };
      const limited = limit(bound.bytes, bound.message, bound.status, bound.field);
      handlers.push(
        scenarios
          ? (c, next) =>
              scenarioFirst(
                c,
                c.env.world.deps,
                path,
                // A rule that read the body first read it within this same bound (`match.body`).
                () => (c.env.facts.requestText === undefined ? limited(c, next) : next()),
                limited,
              )
          : limited,
        handle,
      );
    }
    mounted.push({ method: route.method.toUpperCase(), path, handlers });
  }
  register(app, mounted);
}

/** A route as Hono registers it: its method, its path in Hono's form, its handlers in order. */
interface Mounted {
  method: string;
  path: string;
  handlers: (MiddlewareHandler<AppEnv> | Handler<AppEnv>)[];
}

/**
 * Registers the routes so that Hono keeps its fastest router. RegExpRouter takes no static path beside a parameter
 * at the same place for the same method (the bank has `PATCH /clients/members/complete-registration` beside
 * `PATCH /clients/members/{memberId}`), and where one route does, Hono falls back to TrieRouter for the whole app,
 * which cost every read a fifth more CPU. Such a static route is answered through its parameter's sibling
 * instead: one Hono route, whose handler gives a request of the static path to the static route, as the routes'
 * order did before (the static one is listed first).
 */
function register(app: Hono<AppEnv>, mounted: readonly Mounted[]): void {
  const statics = mounted.filter((m) => !m.path.includes(':'));
  // Each parameter route with the static routes it would sit beside, found before anything is registered.
  const siblingsOf = new Map<Mounted, Mounted[]>();
  for (const m of mounted) {
    if (!m.path.includes(':')) continue;
    const pattern = new RegExp(
      `^${m.path
        .split('/')
        .map((segment) =>
          segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&'),
        )
        .join('/')}$`,
    );
    const siblings = statics.filter((s) => s.method === m.method && pattern.test(s.path));
    if (siblings.length > 0) siblingsOf.set(m, siblings);
  }
  const shadowed = new Set([...siblingsOf.values()].flat());
  for (const m of mounted) {
    if (shadowed.has(m)) continue;
    const siblings = siblingsOf.get(m);
    if (!siblings) {
      app.on([m.method], [m.path], ...m.handlers);
      continue;
    }
    const own = asOne(m.handlers);
    const byPath = new Map(siblings.map((s) => [s.path, asOne(s.handlers)]));
    const fork: Handler<AppEnv> & AlsoAnswers = (c, next) => (byPath.get(c.req.path) ?? own)(c, next);
    fork[ALSO_ANSWERS] = siblings.map((s) => s.path);
    app.on([m.method], [m.path], fork);
  }
}

/** Where a Hono route's handler says which static paths (in Hono's form) it answers besides its own. */
export const ALSO_ANSWERS = Symbol('also answers');

/** A handler that answers static paths of its sibling routes besides its own (see `register`). */
export interface AlsoAnswers {
  [ALSO_ANSWERS]?: readonly string[];
}

/** A route's handlers as one: each middleware's `next` runs the rest, and the answer is what the last answers. */
function asOne(handlers: readonly (MiddlewareHandler<AppEnv> | Handler<AppEnv>)[]): Handler<AppEnv> {
  const [first, ...rest] = handlers;
  if (!first) throw new Error('a route with no handler');
  if (rest.length === 0) return first as Handler<AppEnv>;
  const then = asOne(rest);
  return async (c, next) => {
    let answer: Response | undefined;
    const early = await first(c, async () => {
      answer = await then(c, next);
    });
    return early instanceof Response ? early : (answer ?? c.res);
  };
}

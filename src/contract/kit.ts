import type * as z from 'zod';
import type { Pagination } from '../domain/pagination.js';
import type { Area } from '../domain/roles.js';

// A route's contract: what an operation is, as pure data. From it come the OpenAPI entry (`src/openapi/`), the
// typed calls of the client (`src/client/`), the fuzz model and the generated auth and role tests, and the type
// of the answer its implementation must give; a door joins it to its handler at mount time (`implementer` in
// `src/http/route.ts`). Nothing here imports anything but zod and the domain.

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * How a route authenticates.
 * - `A`: `Authorization: Bearer <token>` and `SECRET_KEY`; `business` says where the business is named: the
 *   `businessId` header, as on every route the spec gives "standard headers" (missing: 401, like any missing
 *   credential; another client's or an unknown one: 401 `Invalid businessId`), the form (business registration,
 *   which sends no such header), or nowhere (creating a business: a client with none has no id to send); `area`
 *   is what the role rules judge (`settings` and `member-admin`: Admin only); `currentKeyOnly` refuses a
 *   rotated-out `SECRET_KEY` even during its grace period (the spec's rule for get-keys).
 * - `B`: `x-api-key` and `x-api-secret` of one client and `businessId`, whose absence is 400 or 401 by the spec.
 * - `secretKey`: `SECRET_KEY` alone (the invited member's registration; the service matches it to a client).
 * - `none`: nothing (sign-in; the control API, whose optional `x-sandbox-token` guards all of it at once).
 */
export type RouteAuth =
  | { scheme: 'A'; business: 'header' | 'form' | 'none'; area: Area; currentKeyOnly?: true }
  | { scheme: 'B'; missingBusiness: 400 | 401 }
  | { scheme: 'secretKey' }
  | { scheme: 'none' };

/**
 * A response schema built on first use (building every one at start-up would cost cold start some 20 ms), with
 * the name the OpenAPI documents give it under `components.schemas`.
 */
export type LazySchema<T extends z.ZodType = z.ZodType> = (() => T) & { readonly schemaName: string };

/** A response schema named `name`, built once, the first time it is asked for. */
export function lazy<T extends z.ZodType>(name: string, build: () => T): LazySchema<T> {
  return Object.assign(deferred(build), { schemaName: name });
}

/**
 * A request schema built on first use, as the response schemas are: building every route's schemas at import cost
 * a cold start more than anything else of the contracts. A contract's `body`, `query` or `form` may be one;
 * `contract()` then gives it to its readers as the schema itself.
 */
export type Deferred<T extends z.ZodType = z.ZodType> = () => T;

/** A schema built once, the first time it is asked for. */
export function deferred<T extends z.ZodType>(build: () => T): Deferred<T> {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
}

/**
 * A success answer.
 * - `data`: the envelope `{status: true, message, data}`.
 * - `page`: the envelope with a page of `data` and `pagination`.
 * - `done`: the envelope with no `data` (the spec shows only `status` and `message`).
 * - `raw`: the body alone, JSON of `schema` unless `contentType` says otherwise (a page, an event stream).
 */
export type Reply =
  | { kind: 'data'; message: string; description?: string; schema: LazySchema }
  | { kind: 'page'; message: string; description?: string; schema: LazySchema }
  | { kind: 'done'; message: string; description?: string }
  | { kind: 'raw'; description: string; schema?: LazySchema; contentType?: string };

/** An error answer: why it happens, one line per cause; the body is always the error envelope. */
export type Failure = string | readonly string[];

export type Responses = Readonly<Record<number, Reply | Failure>>;

/** Whether a documented response is a success answer (a `Reply`) rather than the causes of an error. */
export const isReply = (response: Reply | Failure | undefined): response is Reply =>
  typeof response === 'object' && 'kind' in response;

/** `{status: true, message, data}` with `data` of `schema`; `message` is the usual one (a handler may give another). */
export const reply = <S extends z.ZodType>(message: string, schema: LazySchema<S>, description?: string) =>
  ({ kind: 'data', message, schema, description }) as const;

/** `{status: true, message, data, pagination}` with `data` a page of `item`s. */
export const page = <S extends z.ZodType>(message: string, item: LazySchema<S>, description?: string) =>
  ({ kind: 'page', message, schema: item, description }) as const;

/** `{status: true, message}`. */
export const done = (message: string, description?: string) =>
  ({ kind: 'done', message, description }) as const;

/** The body alone: JSON of `schema`. */
export const raw = <S extends z.ZodType>(description: string, schema: LazySchema<S>) =>
  ({ kind: 'raw', description, schema }) as const;

/** A body that is not JSON (a page, an event stream): the handler answers with a `Response` of its own. */
export const rawOf = (description: string, contentType: string) =>
  ({ kind: 'raw', description, contentType }) as const;

/**
 * Where a route's facts come from, shown as the operation's `x-source` in the OpenAPI document: the section of
 * the bank's API spec, the pages of the bank's published docs (paths under `BANK_DOCS`), and what the sandbox chose
 * where neither says.
 */
export interface RouteSource {
  spec?: string;
  docs?: readonly string[];
  sandbox?: string;
}

/** The bank's published API docs; a route's `source.docs` are paths on this site. */
export const BANK_DOCS = 'https://docs.interstellas.stellas.africa';

/** The settings a route's bound on its body may depend on (the sandbox's configuration has them, in bytes). */
export interface BodySettings {
  bodyLimit: number;
  uploadLimit: number;
  importLimit: number;
}

/** A route's bound on its body: the bytes, and the answer to a body over them (413 `Request body too large`). */
export interface BodyBound {
  bytes: number;
  message?: string;
  status?: 400 | 413;
  /** With `status` 400: the field the answer's `errors` names, and what it says of it. */
  field?: { field: string; message: string };
}

/** What a route is, as data. */
export interface RouteContract {
  operationId: string;
  method: Method;
  /** OpenAPI style (`{param}`), relative to the document's server (`/api/v1` or `/__sandbox`). */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  auth: RouteAuth;
  /** Where its facts come from (every `/api/v1` route says; a control route is the sandbox's own). */
  source?: RouteSource;
  /** What each `{param}` of the path is, with an example. */
  params?: Record<string, { description: string; example?: string }>;
  /** The JSON body schema, validated before the handler runs (with `text`: documented only). */
  body?: z.ZodType;
  /** The route reads the body itself as JSON text (`body` documents it). */
  text?: true;
  /** A `multipart/form-data` body: documented by this schema; the mount checks and parses it, the handler validates. */
  form?: z.ZodType;
  /** The query schema (a zod object: one parameter per key). */
  query?: z.ZodObject;
  /**
   * The bound on the body, from the settings; the default is `--body-limit`. A body over it is 413, or `status`
   * where the route says what is too large in its own terms (a batch of too many transfers: 400).
   */
  bodyLimit?: (settings: BodySettings) => BodyBound;
  example?: unknown;
  /** The error statuses at which a browser (`accept` with `text/html`) gets an HTML page instead of the envelope. */
  htmlErrors?: readonly number[];
  /** When the route answers with an `x-sandbox-warning` (production would refuse what it accepted), one per line. */
  warns?: readonly string[];
  responses: Responses;
}

/** The request schemas of a contract, which its declaration may defer. */
type RequestSchema = 'body' | 'query' | 'form';
const REQUEST_SCHEMAS: readonly RequestSchema[] = ['body', 'query', 'form'];

/** A contract as its file declares it: a request schema may be `deferred`. */
export type RouteDeclaration = Omit<RouteContract, RequestSchema> & {
  body?: z.ZodType | Deferred;
  query?: z.ZodObject | Deferred<z.ZodObject>;
  form?: z.ZodType | Deferred;
};

/** A declaration's contract: each deferred request schema read as the schema it builds. */
export type Declared<C extends RouteDeclaration> = {
  [K in keyof C]: K extends RequestSchema ? (C[K] extends Deferred<infer S> ? S : C[K]) : C[K];
};

/**
 * One contract, its types kept (`const`): the literal path, the auth, the schemas and the responses that the
 * implementation's input and answer are typed from (`src/http/route.ts`). A deferred request schema becomes a
 * getter that builds it when first read (a request that needs it, the documents), never at import or mount.
 */
export function contract<const C extends RouteDeclaration>(route: C): Declared<C> {
  const declared = { ...route };
  for (const key of REQUEST_SCHEMAS) {
    const schema = route[key];
    if (typeof schema === 'function') {
      Object.defineProperty(declared, key, { get: schema, enumerable: true, configurable: true });
    }
  }
  return declared as Declared<C>;
}

/**
 * Whether `route` takes `key` (a body, a query, a form), without building its schema. A route made from a contract
 * keeps the contract's getters (`implementer` in `src/http/route.ts`), so this looks at the property, not its value.
 */
export function declares(route: RouteContract, key: RequestSchema): boolean {
  const property = Object.getOwnPropertyDescriptor(route, key);
  return property !== undefined && (property.get !== undefined || property.value !== undefined);
}

type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

/** A path template as a pattern over request paths, as the router reads it: each `{param}` one segment. */
export const pathPattern = (path: string) =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}$`);

/** The path parameters of a path template: `/a/{id}/b` gives `{ id: string }`. */
export type Params<P extends string> = { [K in ParamNames<P>]: string };

type Built<L> = L extends LazySchema<infer S> ? z.input<S> : never;
type WithStatus<S> = S extends 200 ? { status?: 200 } : { status: S };

type AnswerFor<S, R> = R extends { kind: 'data'; schema: infer L }
  ? WithStatus<S> & { data: Built<L>; message?: string }
  : R extends { kind: 'page'; schema: infer L }
    ? WithStatus<S> & { page: { data: Built<L>[]; pagination: Pagination }; message?: string }
    : R extends { kind: 'done' }
      ? WithStatus<S> & { message?: string }
      : R extends { kind: 'raw'; schema: infer L }
        ? // The body as JSON of its schema, or a JSON `Response` of its own that streams it (a state export).
          WithStatus<S> & ({ json: Built<L> } | { response: Response })
        : R extends { kind: 'raw' }
          ? WithStatus<S> & { response: Response }
          : never;

/**
 * What an implementation must return: for one of the route's success statuses (200 unless it says another), the
 * data its response schema describes. The compiler refuses anything else.
 */
export type Answer<R extends Responses> = {
  [S in keyof R]: S extends number ? AnswerFor<S, R[S]> : never;
}[keyof R];

/** The answer when nothing is to be said but the usual message. */
export const DONE = {} as const;

/** The data of a route's success answer at `status` (200 by default), as its client reads it. */
export type DataOf<
  C extends RouteContract,
  S extends keyof C['responses'] = 200,
> = C['responses'][S] extends {
  kind: 'data' | 'page';
  schema: LazySchema<infer T>;
}
  ? C['responses'][S] extends { kind: 'page' }
    ? z.output<T>[]
    : z.output<T>
  : never;

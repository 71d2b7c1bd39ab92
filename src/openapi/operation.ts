import * as z from 'zod';
import { dispute } from '../api/disputes/schemas.js';
import type { RouteAuth, RouteInfo, Reply as RouteReply } from '../http/route.js';
import * as out from './responses.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * How an operation authenticates: scheme A (bearer token and `SECRET_KEY`), `SECRET_KEY` alone (the invited
 * member's registration), scheme B (`x-api-key` and `x-api-secret`), or nothing (sign-in, the control API, whose
 * optional `x-sandbox-token` the document states once for all of it).
 */
export type Security = 'A' | 'secretKey' | 'B' | 'none';

/**
 * A success answer: the envelope around `data` (a list adds `pagination`; `data` left out: any value), the
 * envelope with no `data` at all (`noData`), or `data` alone (`raw`).
 */
export interface Reply {
  description: string;
  data?: z.ZodType;
  list?: boolean;
  noData?: boolean;
  raw?: boolean;
}

/** An error answer: why it happens, one line per cause; the body is always the error envelope. */
export type Failure = string | readonly string[];

/** One operation of a document. The document adds the statuses its security, body and query imply. */
export interface Operation {
  operationId: string;
  method: Method;
  /** OpenAPI style (`{param}`), relative to the document's server (`/api/v1` or `/__sandbox`). */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  security: Security;
  /** Whether the route reads `businessId`; `required-401`: required, but a missing one is 401 (spec: get bulk). */
  businessIdHeader?: 'required' | 'optional' | 'required-401';
  /** Scheme A routes only Admin may call (settings, inviting members): 403 for Manager and Viewer. */
  adminOnly?: boolean;
  /** What each `{param}` of the path is, with an example. */
  params?: Record<string, { description: string; example?: string }>;
  /** The JSON body schema the route validates with. */
  body?: z.ZodType;
  /** The `multipart/form-data` body (business registration). */
  form?: z.ZodType;
  /** The query schema the route validates with (a zod object: one parameter per key). */
  query?: z.ZodObject;
  example?: unknown;
  responses: Record<number, Reply | Failure>;
}

/** A success answer with `data`. */
export const reply = (description: string, data?: z.ZodType): Reply => ({ description, data });

/** A success answer with only `status` and `message`. */
export const done = (description: string): Reply => ({ description, noData: true });

/** A success answer with a page of `item`s and `pagination`. */
export const page = (description: string, item: z.ZodType): Reply => ({
  description,
  data: item,
  list: true,
});

export { fixture } from '../api/examples.js';

const names = new Map<z.ZodType, string>([
  ...Object.entries(out).map(([name, schema]): [z.ZodType, string] => [
    schema,
    name.charAt(0).toUpperCase() + name.slice(1),
  ]),
  // Moved to its resource; the control API's old entries still use it, and the document still names it.
  [dispute(), dispute.schemaName],
]);

const named = (schema: z.ZodType) => Object.assign(() => schema, { schemaName: names.get(schema) ?? '' });

function replyOf(r: Reply): RouteReply {
  const description = r.description;
  if (r.raw)
    return r.data ? { kind: 'raw', description, schema: named(r.data) } : { kind: 'raw', description };
  if (r.noData) return { kind: 'done', message: '', description };
  const schema = named(r.data ?? z.unknown());
  return { kind: r.list ? 'page' : 'data', message: '', description, schema };
}

/** An entry of the old tables as a route's description, until every route is defined once. */
export function legacy(op: Operation): RouteInfo {
  const auth: RouteAuth =
    op.security === 'A'
      ? {
          scheme: 'A',
          business:
            op.businessIdHeader === 'required' ? 'required' : op.businessIdHeader ? 'optional' : 'ignored',
          area: op.adminOnly ? 'settings' : 'business',
        }
      : op.security === 'B'
        ? { scheme: 'B', missingBusiness: op.businessIdHeader === 'required-401' ? 401 : 400 }
        : { scheme: op.security };
  const responses: RouteInfo['responses'] = Object.fromEntries(
    Object.entries(op.responses).map(([status, r]) => [
      status,
      typeof r === 'object' && 'description' in r ? replyOf(r as Reply) : r,
    ]),
  );
  return { ...op, auth, responses };
}

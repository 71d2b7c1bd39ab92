import type * as z from 'zod';
import clients from '../../fixtures/clients.json' with { type: 'json' };
import roles from '../../fixtures/roles.json' with { type: 'json' };

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

const [clientA, clientB] = clients;
const [a1, a2] = clientA?.businesses ?? [];
const b1 = clientB?.businesses[0];

/** Values from `fixtures/clients.json`, for the document's examples. */
export const fixture = {
  clientA: clientA?.id ?? '',
  owner: { email: clientA?.owner.email ?? '', password: clientA?.owner.password ?? '' },
  secretKey: clientA?.secretKey ?? '',
  publicKey: clientA?.publicKey ?? '',
  /** Approved, with a payment account and a balance. */
  a1: a1?.id ?? '',
  a1Account: a1?.accountNumber ?? '',
  /** Not approved yet. */
  a2: a2?.id ?? '',
  b1: b1?.id ?? '',
  viewerRole: roles.find((r) => r.name === 'Viewer')?.id ?? '',
};

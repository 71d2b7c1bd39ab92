import fc from 'fast-check';
import * as z from 'zod';
import { apiContracts } from '../../src/contract/api/index.js';
import { controlContracts } from '../../src/contract/control/index.js';
import type { RouteAuth, RouteContract } from '../../src/contract/kit.js';

/** Where a value is taken from when the request is sent: the ids and secrets of the live state. */
export type LiveSource =
  | 'bulkTransfers'
  | 'bulkItems'
  | 'transactions'
  | 'payouts'
  | 'disputes'
  | 'audits'
  | 'deliveries'
  | 'clients'
  | 'businesses'
  | 'virtualAccounts'
  | 'invitationTokens'
  | 'virtualAccountNumbers'
  | 'businessAccountNumbers'
  | 'otps';

/**
 * A value resolved from the live state when the request is sent (the `index`-th id of a collection, modulo its
 * size), so that a generated request can name records an earlier request of the same run created.
 */
export class Live {
  constructor(
    readonly source: LiveSource,
    readonly index: number,
  ) {}

  [fc.toStringMethod](): string {
    return `live(${this.source}#${this.index})`;
  }

  toJSON(): string {
    return `live(${this.source}#${this.index})`;
  }
}

/** One route of the OpenAPI operation lists, as the fuzzer calls it. */
export interface Route {
  /** `METHOD /full/path/{param}`. */
  key: string;
  method: string;
  /** With `/api/v1` or `/__sandbox` in front. */
  path: string;
  params: string[];
  security: RouteAuth['scheme'];
  /** The status of a missing `businessId` header, for a route that reads one (400 only on bulk process, the spec's). */
  businessIdHeader: 400 | 401 | undefined;
  body?: z.ZodType;
  form?: z.ZodType;
  query?: z.ZodType;
}

function businessIdHeader(auth: RouteAuth): Route['businessIdHeader'] {
  if (auth.scheme === 'B') return auth.missingBusiness;
  return auth.scheme === 'A' && auth.business === 'header' ? 401 : undefined;
}

function routeOf(prefix: string, op: RouteContract): Route {
  const path = `${prefix}${op.path}`;
  const method = op.method.toUpperCase();
  return {
    key: `${method} ${path}`,
    method,
    path,
    params: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''),
    security: op.auth.scheme,
    businessIdHeader: businessIdHeader(op.auth),
    body: op.body,
    form: op.form,
    query: op.query,
  };
}

/** Every `/api/v1` and `/__sandbox` route, straight from the route definitions (so it cannot drift). */
export const routes: Route[] = [
  ...apiContracts.map((op) => routeOf('/api/v1', op)),
  ...controlContracts.map((op) => routeOf('/__sandbox', op)),
];

/** The subset of JSON Schema that `z.toJSONSchema` produces for the routes' schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  contentMediaType?: string;
}

/** The input side of a zod schema as JSON Schema; what zod cannot express (files, refinements) becomes `{}`. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as unknown as JsonSchema;
}

/** The authentication a request carries, resolved against the live state when it is sent. */
export type AuthSpec =
  | { kind: 'none' }
  | { kind: 'A'; user: UserKey; business: BusinessRef; token: TokenVariant; secret: SecretVariant }
  | { kind: 'B'; client: 'A' | 'B'; business: BusinessRef; publicKey: SecretVariant; secret: SecretVariant }
  | { kind: 'secretKey'; client: 'A' | 'B'; secret: SecretVariant }
  | { kind: 'raw'; headers: [string, string][] };

export type UserKey = 'ownerA' | 'managerA' | 'viewerA' | 'ownerB';
/** A business id header: a fixture business, a live one, none, or any string. */
export type BusinessRef = { kind: 'fixture'; name: 'a1' | 'a2' | 'b1' } | { kind: 'none' } | string | Live;
/** `valid`: the user's own token; the others are what an attacker or a buggy client sends. */
export type TokenVariant =
  | 'valid'
  | 'expired'
  | 'wrong-key'
  | 'unknown-user'
  | 'alg-none'
  | 'lowercase-bearer'
  | 'no-scheme'
  | 'truncated';
/** `valid`: the client's current key; `other`: the other client's; anything else is sent as given. */
export type SecretVariant = 'valid' | 'other' | 'swapped' | string;

export type QuerySpec = { kind: 'params'; entries: [string, unknown][] } | { kind: 'raw'; text: string };

export interface FileSpec {
  name: string;
  type: string;
  bytes: 'jpeg' | 'png' | 'gif' | 'empty' | 'text' | number[];
}

export type BodySpec =
  | { kind: 'none'; contentType: string | null }
  | { kind: 'json'; value: unknown; contentType: string | null; patch: { key: string; raw: string } | null }
  | { kind: 'raw'; text: string; contentType: string | null }
  | { kind: 'huge'; bytes: number; contentType: string | null }
  | { kind: 'form'; fields: [string, string | Live | FileSpec][]; contentType: string | null }
  | { kind: 'state'; edits: [string[], unknown][]; drop: string | null; contentType: string | null };

/** A request as generated: symbolic where it names live records or credentials. */
export interface RequestSpec {
  route: string;
  method: string;
  path: string;
  params: Record<string, string | Live>;
  /** A path of its own instead of the route's (unknown routes, dot segments). */
  rawPath: string | null;
  query: QuerySpec;
  auth: AuthSpec;
  headers: [string, string][];
  body: BodySpec;
}

import * as z from 'zod';
import pkg from '../../package.json' with { type: 'json' };
import { apiContracts } from '../contract/api/index.js';
import { accountNumber, bankCode, transferBody } from '../contract/api/transfers.js';
import { HTML_TYPE } from '../contract/control/dashboard.js';
import { controlContracts } from '../contract/control/index.js';
import { fixture } from '../contract/examples.js';
import { failures, missingBusinessStatus } from '../contract/failures.js';
import {
  BANK_DOCS,
  isReply,
  type LazySchema,
  type Method,
  type Reply,
  type RouteContract,
  type RouteSource,
} from '../contract/kit.js';
import { tagDescription } from '../contract/tags.js';
import { controlErrorEnvelope, errorEnvelope, pagination } from '../contract/wire.js';
import { webhookPayload } from '../domain/records.js';
import { withExamples } from './examples.js';

export type JsonObject = { [key: string]: unknown };

export interface OpenApiDocument {
  openapi: string;
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string; description: string }[];
  security?: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<Method, JsonObject>>>;
  /** What the bank sends rather than answers (OpenAPI 3.1): the API document's incoming-payment notification. */
  webhooks?: Record<string, Partial<Record<Method, JsonObject>>>;
  components: {
    schemas: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
  };
}

/** The package's license, as both documents state it. */
const LICENSE = { name: pkg.license, identifier: pkg.license };

/** The header on every answer of both APIs. */
const HEADERS = {
  RequestId: {
    description:
      'The request’s id: the `x-request-id` it was sent with (word characters, `.:-`, up to 128), else a new UUID.',
    required: true,
    schema: { type: 'string' },
  },
};

/** What the wire schemas cannot say about a field themselves, by the schema of the field. */
const notes = new Map<z.core.$ZodType, string>([
  [
    transferBody().shape.retrievalReference,
    'the idempotency key, per business, shared by both transfer endpoints',
  ],
  [bankCode, 'a CBN/NIP code of `fixtures/banks.json`'],
  [accountNumber, 'a 10-digit NUBAN'],
]);

/** A zod schema as JSON Schema 2020-12 (what OpenAPI 3.1 uses), its input side: what a client sends. */
function jsonSchema(schema: z.ZodType): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const note = notes.get(zodSchema);
      if (note && jsonSchema.description === undefined) jsonSchema.description = note;
      // zod gives every `.int()` a minimum of −(2^53 − 1): no field's rule (a count, a page, a status code is never
      // negative, and nothing asks for one that is), and a client generated with it would check a bound that means
      // nothing. The maximum stays: past it a number is not exact, which the sandbox refuses.
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      // A file of some media types: zod says so with a branch per type that has no type of its own, which client
      // generators read as `unknown`. A binary string it is; the request's `encoding` names the media types.
      if (jsonSchema.format === 'binary') delete jsonSchema.anyOf;
    },
  });
  return rest;
}

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `components.schemas` of one document: each named schema once, referred to from the operations. */
class Schemas {
  readonly used: Record<string, JsonObject> = {};
  private readonly names = new Map<z.ZodType, string>();

  /** A `$ref` to a named response schema. */
  named(schema: LazySchema): JsonObject {
    return this.ref(schema(), schema.schemaName || undefined);
  }

  /** A `$ref` to `schema`, named `fallbackName` unless it has a name already; inline without a name. */
  ref(schema: z.ZodType, fallbackName?: string): JsonObject {
    const name = this.names.get(schema) ?? fallbackName;
    if (name === undefined) return jsonSchema(schema);
    this.names.set(schema, name);
    this.used[name] ??= jsonSchema(schema);
    return schemaRef(name);
  }
}

/** The error envelope of each door's document. */
const errorContent = (api: boolean) => ({
  'application/json': { schema: schemaRef(api ? 'ErrorEnvelope' : 'ControlErrorEnvelope') },
});

function successContent(reply: Reply, schemas: Schemas): JsonObject {
  if (reply.kind === 'raw') {
    if (reply.contentType) return { [reply.contentType]: { schema: { type: 'string' } } };
    return { 'application/json': { schema: reply.schema ? schemas.named(reply.schema) : {} } };
  }
  const properties: JsonObject = { status: { const: true }, message: { type: 'string' } };
  const required = ['status', 'message'];
  if (reply.kind !== 'done') {
    const data = schemas.named(reply.schema);
    properties.data = reply.kind === 'page' ? { type: 'array', items: data } : data;
    required.push('data');
  }
  if (reply.kind === 'page') {
    properties.pagination = schemas.named(pagination);
    required.push('pagination');
  }
  return { 'application/json': { schema: { type: 'object', required, properties } } };
}

/**
 * The 200 of a bank operation also carries a refusal with `status: false` (`soft-errors`): beside the success
 * envelope where the operation answers 200, alone where it answers 201 or 202.
 */
function softErrors(result: JsonObject): void {
  const refusal = { schema: schemaRef('ErrorEnvelope') };
  const ok = result[200] as
    | { description: string; content: Record<string, { schema: JsonObject }> }
    | undefined;
  if (!ok) {
    result[200] = { description: SOFT_ERROR, content: { 'application/json': refusal } };
    return;
  }
  const json = ok.content['application/json'];
  if (!json) return;
  ok.description = `${ok.description}\n\nOr: ${SOFT_ERROR}.`;
  json.schema = { oneOf: [json.schema, refusal.schema] };
}

/** What the route's own description of a success says, else its message. */
const replyDescription = (reply: Reply) =>
  reply.kind === 'raw' ? reply.description : (reply.description ?? `\`${reply.message}\``);

/**
 * What the bank's errors page lists beside a 400 and a 4xx, where the operation can give them: 422 `Validation
 * error` where a field is validated, and a refusal answered 200 with `status: false` (the page: "Some error
 * conditions may return 200 with status: false"). The sandbox answers them under two ready scenarios.
 */
const VALIDATION_422 =
  'Validation error, as the bank’s [errors page](https://docs.interstellas.stellas.africa/essentials/errors) lists it: the sandbox answers a validation failure (a 400 with `errors`) 422 under scenario `validation-422`, same envelope and `errors`';
const SOFT_ERROR =
  'A refusal with `status: false`, which the bank’s [errors page](https://docs.interstellas.stellas.africa/essentials/errors) says some errors come back as: the sandbox answers every refused call (4xx) so under scenario `soft-errors`, with the body it would have had. Check `status`, not only the HTTP code';

function responses(op: RouteContract, api: boolean, schemas: Schemas): JsonObject {
  const result: JsonObject = {};
  for (const [status, response] of Object.entries(op.responses)) {
    if (isReply(response)) {
      result[status] = {
        description: replyDescription(response),
        content: successContent(response, schemas),
      };
    }
  }
  const errors = failures(op, api);
  for (const [status, lines] of errors) {
    const description = lines.length === 1 ? lines.join('') : lines.map((line) => `- ${line}`).join('\n');
    // A redirect (the dashboard's 303 after taking its token) has no body.
    result[status] = status < 400 ? { description } : { description, content: errorContent(api) };
    // A browser is refused with a page it can show (the dashboard's token page), any other client with JSON.
    if (op.htmlErrors?.includes(status))
      Object.assign((result[status] as { content: JsonObject }).content, {
        [HTML_TYPE]: { schema: { type: 'string' } },
      });
  }
  if (api && (op.body || op.query || op.form))
    result[422] = { description: VALIDATION_422, content: errorContent(true) };
  if (api) softErrors(result);
  withExamples(op, result);
  schemas.named(api ? errorEnvelope : controlErrorEnvelope);
  // Every answer carries the request's id, errors and redirects included.
  for (const response of Object.values(result))
    (response as JsonObject).headers = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
  if (op.warns) {
    const header = {
      description: `Where production would refuse what the sandbox accepted, one header per warning: ${op.warns.join('; ')}.`,
      schema: { type: 'string' },
    };
    for (const response of Object.values(result))
      Object.assign((response as JsonObject).headers as JsonObject, { 'x-sandbox-warning': header });
  }
  return result;
}

function parameters(op: RouteContract): JsonObject[] {
  const list: JsonObject[] = [];
  for (const [, name] of op.path.matchAll(/\{(\w+)\}/g)) {
    const param = name === undefined ? undefined : op.params?.[name];
    if (name === undefined || param === undefined) throw new Error(`${op.operationId}: describe {${name}}`);
    list.push({ name, in: 'path', required: true, schema: { type: 'string' }, ...param });
  }
  if (missingBusinessStatus(op)) list.push({ $ref: '#/components/parameters/BusinessId' });
  if (op.query) {
    const query = jsonSchema(op.query);
    const properties = (query.properties ?? {}) as Record<string, JsonObject>;
    const required = new Set((query.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(properties)) {
      list.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  return list;
}

function requestBody(op: RouteContract, schemas: Schemas): JsonObject | undefined {
  const name = `${pascal(op.operationId)}Request`;
  const example = op.example === undefined ? {} : { example: op.example };
  if (op.form) {
    const schema = schemas.ref(op.form, name);
    const encoding = { photoId: { contentType: 'image/jpeg, image/png' } };
    return { required: true, content: { 'multipart/form-data': { schema, encoding, ...example } } };
  }
  if (!op.body) return undefined;
  // A body the route accepts empty (every field optional) need not be sent at all.
  const required = !op.body.safeParse({}).success;
  return { required, content: { 'application/json': { schema: schemas.ref(op.body, name), ...example } } };
}

/**
 * Each scheme's security requirement. The bank's API says `[]` where a route takes no credential (sign-in), as
 * linters ask every operation to say; the control document's one requirement (the optional token) is its root's.
 */
const SECURITY: Record<RouteContract['auth']['scheme'], Record<string, string[]>[]> = {
  A: [{ bearerAuth: [], secretKey: [] }],
  secretKey: [{ secretKey: [] }],
  B: [{ apiKey: [], apiSecret: [] }],
  none: [],
};

/** A doc page's address: a path on the bank's docs site, or an address of its own (the older docs). */
const docsUrl = (page: string) => (page.startsWith('/') ? `${BANK_DOCS}${page}` : page);

/** `x-source`: where the operation's facts come from, its doc pages as addresses. */
function sourceOf(source: RouteSource): JsonObject {
  return {
    ...(source.spec === undefined ? {} : { spec: source.spec }),
    ...(source.docs === undefined ? {} : { docs: source.docs.map(docsUrl) }),
    ...(source.sandbox === undefined ? {} : { sandbox: source.sandbox }),
  };
}

/** The route's description, with the bank's doc pages it follows cited at its end. */
function describe(op: RouteContract): string | undefined {
  const pages = op.source?.docs ?? [];
  if (pages.length === 0) return op.description;
  const cited = `The bank’s docs: ${pages.map((page) => `[${page.startsWith('/') ? page : 'older docs'}](${docsUrl(page)})`).join(', ')}.`;
  return op.description === undefined ? cited : `${op.description}\n\n${cited}`;
}

function paths(
  operations: readonly RouteContract[],
  api: boolean,
  schemas: Schemas,
): OpenApiDocument['paths'] {
  const result: OpenApiDocument['paths'] = {};
  for (const op of operations) {
    const item = result[op.path] ?? {};
    result[op.path] = item;
    const body = requestBody(op, schemas);
    const security = api || op.auth.scheme !== 'none' ? SECURITY[op.auth.scheme] : undefined;
    const description = describe(op);
    item[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(description === undefined ? {} : { description }),
      ...(op.source === undefined ? {} : { 'x-source': sourceOf(op.source) }),
      tags: [op.tag],
      ...(security === undefined ? {} : { security }),
      parameters: parameters(op),
      ...(body === undefined ? {} : { requestBody: body }),
      responses: responses(op, api, schemas),
    };
  }
  return result;
}

const tags = (operations: readonly RouteContract[]) =>
  [...new Set(operations.map((op) => op.tag))].map((name) => ({ name, description: tagDescription(name) }));

const API_DESCRIPTION = `A local, stateful stand-in for the bank's business banking API. All amounts are kobo (100 kobo = ₦1).

**Envelope.** Success: \`{status: true, message, data}\`; lists add \`pagination\` (\`page\` ≥ 1, \`limit\` ≥ 1).
Error: \`{status: false, message, data: null}\`, plus \`errors: [{field, message}]\` on a validation failure. Every
response carries \`x-request-id\` (yours is echoed).

**Sources.** Each operation's \`x-source\` says where its facts come from: the bank's API spec (\`spec\`), the bank's
published docs (\`docs\`, ${BANK_DOCS}), and what the sandbox chose where neither says (\`sandbox\`).

**Fixture credentials.** Sign in as \`${fixture.owner.email}\` / \`${fixture.owner.password}\`; scheme A sends the
\`accessToken\` as bearer token with \`SECRET_KEY: ${fixture.secretKey}\` and \`businessId: ${fixture.a1}\`
(approved, funded). Scheme B (bulk transfers): \`x-api-key: ${fixture.publicKey}\`, \`x-api-secret\`: the same
secret key. The live values: \`GET /__sandbox/credentials\`.

**Failures on purpose.** Transfers to \`0000000051\`, \`0000000007\`, \`0000000091\` or \`0000000096\` fail with
that NIBSS code, and the BVN \`00000000000\` is not found; a scenario (\`PUT /__sandbox/scenario\`, see the control
document) can make any route answer another status first, or send its error with another status:
\`validation-422\` answers a validation failure 422 and \`soft-errors\` every 4xx 200 with \`status: false\`, the
two answers the bank's [errors page](https://docs.interstellas.stellas.africa/essentials/errors) lists, which each
operation describes where it can give them.`;

/** The components of the bank's document: no sandbox-only parameter, so a client generated from it has none. */
function apiComponents(): Omit<OpenApiDocument['components'], 'schemas'> {
  const businessId = {
    name: 'businessId',
    in: 'header',
    schema: { type: 'string' },
    examples: {
      approved: { value: fixture.a1, summary: 'Adebayo Foods (client A): approved, funded' },
      unapproved: { value: fixture.a2, summary: 'Adebayo Logistics (client A): not approved' },
      otherClient: { value: fixture.b1, summary: 'Bello Trading (client B)' },
    },
  };
  return {
    headers: HEADERS,
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'Scheme A: the `accessToken` of `POST /auth/signin`.',
      },
      secretKey: {
        type: 'apiKey',
        in: 'header',
        name: 'SECRET_KEY',
        description: `Scheme A: the client's current secret key (client A: \`${fixture.secretKey}\`).`,
      },
      apiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-key',
        description: `Scheme B: the client's public key (client A: \`${fixture.publicKey}\`).`,
      },
      apiSecret: {
        type: 'apiKey',
        in: 'header',
        name: 'x-api-secret',
        description: `Scheme B: the client's secret key (client A: \`${fixture.secretKey}\`).`,
      },
      webhookAuthKey: {
        type: 'apiKey',
        in: 'header',
        name: 'AUTH-KEY',
        description:
          'What the bank sends its notifications with: the client’s `webhookAuthKey`, for the receiver to check.',
      },
    },
    parameters: {
      BusinessId: {
        ...businessId,
        required: true,
        description: 'The business the call is about; an upper-cased UUID names the same one.',
      },
    },
  };
}

/**
 * The notification the bank POSTs to a client's webhook URL when money arrives on a virtual account: declared, so
 * a receiver can be generated and checked from the same document as the client.
 */
function apiWebhooks(schemas: Schemas): NonNullable<OpenApiDocument['webhooks']> {
  return {
    incomingPayment: {
      post: {
        operationId: 'incomingPaymentNotification',
        summary: 'Incoming payment notification',
        description:
          'Sent to the client’s webhook URL (`PATCH /clients/settings/update-webhook-url`) once per credit to one of its virtual accounts, with `content-type: application/json` and exactly these fields (`recpientAccountName` spelled as the bank spells it). Only a 200 acknowledges it: any other status, a timeout or a refused connection is retried with exponential backoff (in the sandbox: 5 s timeout, 1 s then ×2, 6 attempts, each a setting).',
        parameters: [
          {
            name: 'AUTH-KEY',
            in: 'header',
            required: true,
            description:
              'The client’s `webhookAuthKey`: compare it with yours before trusting the body (the sandbox’s `GET /__sandbox/credentials` shows it)',
            schema: { type: 'string' },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: schemas.ref(webhookPayload, 'IncomingPaymentNotification') },
          },
        },
        responses: {
          200: { description: 'Acknowledged: the delivery is done' },
          default: { description: 'Not acknowledged: the delivery is tried again later' },
        },
        security: [{ webhookAuthKey: [] }],
        externalDocs: { url: `${BANK_DOCS}/api-reference/settings/webhook` },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 document of the emulated bank's API (`/api/v1`): the bank's operations and nothing of the
 * sandbox's own, so a client generated from it is one production takes.
 */
export function apiDocument(): OpenApiDocument {
  const schemas = new Schemas();
  const builtPaths = paths(apiContracts, true, schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Banking sandbox API',
      version: pkg.version,
      description: API_DESCRIPTION,
      license: LICENSE,
    },
    servers: [{ url: '/api/v1', description: 'This sandbox' }],
    tags: tags(apiContracts),
    paths: builtPaths,
    webhooks: apiWebhooks(schemas),
    components: { schemas: schemas.used, ...apiComponents() },
  };
}

/**
 * `x-sandbox-scenario`, documented here once, in words: a header of the sandbox's own that a request to the bank's
 * API may carry. It is no parameter of the bank's operations (a client generated from the bank's document must not
 * send it), nor of this document's (none of these calls reads it).
 */
function scenarioHeader(readyScenarios: readonly string[]): string {
  const names = readyScenarios.length > 0 ? readyScenarios.map((n) => `\`${n}\``).join(', ') : 'none loaded';
  return `**\`x-sandbox-scenario\`**: a header a request to the bank’s API (\`/api/v1\`, not this one) may carry, naming a ready scenario (\`GET /__sandbox/scenarios\`; here: ${names}) that this one request uses instead of the active one; a name that is no ready scenario is 400. It is the sandbox’s own, so the bank’s document does not list it and a client generated from that document never sends it.`;
}

/**
 * The OpenAPI 3.1 document of the sandbox's control API (`/__sandbox`). `readyScenarios`: the names of the ready
 * scenarios, as the running sandbox loaded them from its `scenarios/` folder, which `x-sandbox-scenario` takes.
 */
export function controlDocument(readyScenarios: readonly string[] = []): OpenApiDocument {
  const schemas = new Schemas();
  const builtPaths = paths(controlContracts, false, schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Banking sandbox control API',
      version: pkg.version,
      description: `Reset, snapshot and restore, credentials, balances, approvals, the outbox, webhooks, the clock and failure scenarios. With \`--control-token T\` every call needs \`x-sandbox-token: T\`.\n\n${scenarioHeader(readyScenarios)}`,
      license: LICENSE,
    },
    servers: [{ url: '/__sandbox', description: 'This sandbox' }],
    security: [{}, { sandboxToken: [] }],
    tags: tags(controlContracts),
    paths: builtPaths,
    components: {
      schemas: schemas.used,
      securitySchemes: {
        sandboxToken: {
          type: 'apiKey',
          in: 'header',
          name: 'x-sandbox-token',
          description: 'Only when the sandbox was started with `--control-token`.',
        },
      },
      parameters: {},
      headers: HEADERS,
    },
  };
}

import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../src/contract/examples.js';
import type { JsonObject, OpenApiDocument } from '../../../src/openapi/document.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { rebased } from '../../support/json-schema.js';
import { memorySandbox, tokenFor } from '../../support/sandbox.js';

// What Dredd does with a document, in process: every operation of both documents is sent as the document alone
// describes it (its path with each parameter's example, a required query parameter's, its body's example, the
// fixture credentials a user passes on the command line), each on a fresh sandbox of the fixtures, and each answer
// is held against the document: a status it lists, a content type it names exactly, a body its schema takes (ajv),
// the `x-request-id` header it makes required. An example that stops working against the fixtures is caught here.

const require = createRequire(import.meta.url);
const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;

/**
 * The operations whose example cannot succeed against the fixtures alone, each with the documented status it gets
 * and why. Every other operation's example must answer a success.
 */
const CANNOT_SUCCEED: Record<string, { status: number; why: string }> = {
  'PATCH /api/v1/clients/business/complete-registration': {
    status: 400,
    why: 'photoId is a file: an example can only name it',
  },
  'PATCH /api/v1/clients/members/complete-registration': {
    status: 400,
    why: 'the authorizationToken is the one an invitation sends to the outbox',
  },
  'GET /__sandbox/requests/{id}': {
    status: 404,
    why: 'a journal entry exists once a request was made: a fresh sandbox’s journal is empty',
  },
  'DELETE /__sandbox/sandboxes/{id}': {
    status: 404,
    why: 'an isolated sandbox exists once one was made: a fresh process has none',
  },
  'GET /__sandbox/webhooks/deliveries/{id}': {
    status: 404,
    why: 'a delivery exists once a payment was made: the fixtures hold none',
  },
  'POST /__sandbox/webhooks/deliveries/{id}/redeliver': {
    status: 404,
    why: 'a delivery exists once a payment was made: the fixtures hold none',
  },
  'POST /__sandbox/businesses/{id}/transfers/{retrievalReference}/reverse': {
    status: 404,
    why: 'a transfer exists once one was sent: the fixtures’ only transfer is a failed bulk item',
  },
};

type Operation = {
  parameters?: {
    $ref?: string;
    name?: string;
    in?: string;
    required?: boolean;
    example?: unknown;
    schema?: { examples?: unknown[] };
  }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<
    string,
    { content?: Record<string, { schema?: JsonObject }>; headers?: Record<string, unknown> }
  >;
  security?: Record<string, string[]>[];
};

async function documentOf(sandbox: Sandbox, path: string): Promise<OpenApiDocument> {
  const res = await sandbox.app.request(path);
  expect(res.status).toBe(200);
  return (await res.json()) as OpenApiDocument;
}

/** The request the document describes: path parameters, headers (the fixture credentials), body. */
async function requestOf(
  sandbox: Sandbox,
  doc: OpenApiDocument,
  path: string,
  op: Operation,
): Promise<{ url: string; init: RequestInit }> {
  const server = doc.servers[0]?.url ?? '';
  let url = path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const param of op.parameters ?? []) {
    const resolved = param.$ref
      ? (doc.components.parameters[param.$ref.split('/').pop() ?? ''] as {
          name: string;
          in: string;
          examples?: Record<string, { value: string }>;
        })
      : param;
    if (resolved.in === 'path') {
      expect(param.example, `${path}: {${param.name}} has an example`).toBeDefined();
      url = url.replace(`{${param.name}}`, encodeURIComponent(String(param.example)));
    }
    // A required query parameter: its example, as Dredd sends it.
    if (resolved.in === 'query' && param.required) {
      const example = param.example ?? param.schema?.examples?.[0];
      expect(example, `${path}: ?${param.name} has an example`).toBeDefined();
      query.set(param.name ?? '', String(example));
    }
    // The business header: its first example, the approved business of client A.
    if (resolved.in === 'header' && 'examples' in resolved && resolved.examples) {
      const [first] = Object.values(resolved.examples);
      if (first) headers[resolved.name ?? ''] = first.value;
    }
  }
  // The credentials a user gives the tool (Dredd's --header): client A's, as the document's description says.
  const schemes = new Set(Object.keys(op.security?.[0] ?? {}));
  if (schemes.has('bearerAuth')) headers.authorization = `Bearer ${await tokenFor(sandbox, fixture.owner)}`;
  if (schemes.has('secretKey')) headers.SECRET_KEY = fixture.secretKey;
  if (schemes.has('apiKey')) headers['x-api-key'] = fixture.publicKey;
  if (schemes.has('apiSecret')) headers['x-api-secret'] = fixture.secretKey;
  let body: string | FormData | undefined;
  const [type, media] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
  if (type === 'application/json') {
    headers['content-type'] = type;
    body = JSON.stringify(media?.example);
  } else if (type === 'multipart/form-data') {
    const form = new FormData();
    for (const [key, value] of Object.entries((media?.example ?? {}) as Record<string, string>))
      form.append(key, value);
    body = form;
  }
  const search = query.size > 0 ? `?${query}` : '';
  return { url: `${server}${url}${search}`, init: { headers, body } };
}

describe.each([
  ['the bank’s API', '/openapi.json'],
  ['the control API', '/__sandbox/openapi.json'],
])('every example of %s, replayed on the fixtures and held against the document', async (_name, location) => {
  const reader = await memorySandbox();
  const doc = await documentOf(reader, location);
  await reader.close();
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  const base = `https://sandbox.test${location}`;
  ajv.addSchema({ $id: base, components: { schemas: doc.components.schemas } });
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op: op as Operation })),
  );

  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${doc.servers[0]?.url}${o.path}`, o] as const))(
    '%s',
    async (name, { path, method, op }) => {
      const sandbox = await memorySandbox();
      try {
        const { url, init } = await requestOf(sandbox, doc, path, op);
        const res = await sandbox.app.request(url, { ...init, method: method.toUpperCase() });
        const documented = op.responses[String(res.status)];
        // An event stream never ends by itself: its content type is checked, none of it read.
        const streamed = res.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
        const text = streamed ? '' : await res.text();
        if (streamed) await res.body?.cancel();
        expect(documented, `${name}: ${res.status} is documented (${text.slice(0, 300)})`).toBeDefined();
        const exception = CANNOT_SUCCEED[name];
        if (exception) expect(res.status, exception.why).toBe(exception.status);
        else expect(res.status, `${name}: the example succeeds (${text.slice(0, 300)})`).toBeLessThan(300);
        // Every answer carries the header the document makes required.
        expect(res.headers.get('x-request-id')).toMatch(/\S/);
        // The content type as sent is one the document names for this answer, exactly.
        const type = res.headers.get('content-type');
        const content = documented?.content ?? {};
        if (Object.keys(content).length === 0) expect(text).toBe('');
        else if (streamed) expect(Object.keys(content)).toEqual([type]);
        else expect(Object.keys(content), name).toContain(type);
        const schema = type ? content[type]?.schema : undefined;
        if (type?.startsWith('application/json') && schema) {
          const validate = ajv.compile(rebased(schema, base) as JsonObject);
          const valid = validate(JSON.parse(text));
          expect(validate.errors ?? [], `${name}: the body fits the document`).toEqual([]);
          expect(valid).toBe(true);
        }
      } finally {
        await sandbox.close();
      }
    },
  );
});

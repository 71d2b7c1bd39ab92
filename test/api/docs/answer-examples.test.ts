import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ANSWER_EXAMPLES_PATH, answerExamplesText } from '../../../scripts/answer-examples.js';
import type { JsonObject, OpenApiDocument } from '../../../src/openapi/document.js';
import { rebased } from '../../support/json-schema.js';
import { memorySandbox } from '../../support/sandbox.js';

// Every JSON answer of both documents shows an example, the sandbox's own answer (`npm run docs` records them from
// the contract tour into src/openapi/answer-examples.json), so that a mock server fed the document (Prism, Mockoon)
// answers what the sandbox would: each example is held against its response's schema, and the committed file
// against what the generator makes now. The documents' other examples (request bodies, parameters, headers) and
// their schemas' defaults are held against their schemas here too.

const require = createRequire(import.meta.url);
const addFormats = require('ajv-formats') as (ajv: Ajv2020) => Ajv2020;
const root = join(import.meta.dirname, '..', '..', '..');

type Response = { content?: Record<string, { schema?: JsonObject; example?: unknown }> };

/** The keywords of a JSON schema that hold one subschema, a list of them, or a map of names to them. */
const ONE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'];
const LIST = ['prefixItems', 'anyOf', 'oneOf', 'allOf'];
const MAP = ['properties', 'patternProperties', '$defs'];

/** A schema and each schema inside it, with where it is. */
function* subschemas(schema: unknown, at: string): Generator<{ at: string; schema: JsonObject }> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
  const node = schema as JsonObject;
  yield { at, schema: node };
  for (const key of ONE) yield* subschemas(node[key], `${at}/${key}`);
  for (const key of LIST)
    if (Array.isArray(node[key]))
      for (const [i, item] of node[key].entries()) yield* subschemas(item, `${at}/${key}/${i}`);
  for (const key of MAP)
    for (const [name, item] of Object.entries((node[key] ?? {}) as JsonObject))
      yield* subschemas(item, `${at}/${key}/${name}`);
}

/**
 * Every example of a document but the answers' (checked on their own below), each with its schema: a request
 * body's, a parameter's or a header's `example` and `examples`, and a schema's `default`, `example` and
 * `examples`, in the components and inline. What Spectral's `oas3-valid-media-example` and
 * `oas3-valid-schema-example` check, with the one ajv of this file (openapi-lint.test.ts leaves them to it).
 */
function* examplesOf(doc: OpenApiDocument): Generator<{ at: string; schema: unknown; value: unknown }> {
  const schemas: { at: string; schema: unknown }[] = Object.entries(doc.components.schemas).map(
    ([name, schema]) => ({ at: `#/components/schemas/${name}`, schema }),
  );
  function* walk(node: unknown, at: string): Generator<{ at: string; schema: unknown; value: unknown }> {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) yield* walk(item, `${at}/${i}`);
      return;
    }
    const object = node as JsonObject;
    if (object.schema !== null && typeof object.schema === 'object') {
      schemas.push({ at: `${at}/schema`, schema: object.schema });
      // An operation's answers are held against their schemas by the tests of each operation below.
      if (!/^#\/paths\/.*\/responses\/[^/]+\/content\//.test(at)) {
        if (object.example !== undefined)
          yield { at: `${at}/example`, schema: object.schema, value: object.example };
        for (const [name, example] of Object.entries(
          (object.examples ?? {}) as Record<string, { value?: unknown }>,
        ))
          if (example.value !== undefined)
            yield { at: `${at}/examples/${name}`, schema: object.schema, value: example.value };
      }
      return;
    }
    for (const [key, value] of Object.entries(object)) yield* walk(value, `${at}/${key}`);
  }
  yield* walk(doc.paths, '#/paths');
  yield* walk(doc.webhooks ?? {}, '#/webhooks');
  yield* walk({ parameters: doc.components.parameters, headers: doc.components.headers }, '#/components');
  for (const root of schemas)
    for (const { at, schema } of subschemas(root.schema, root.at)) {
      if (schema.default !== undefined) yield { at: `${at}/default`, schema, value: schema.default };
      if (schema.example !== undefined) yield { at: `${at}/example`, schema, value: schema.example };
      if (Array.isArray(schema.examples))
        for (const [i, value] of schema.examples.entries())
          yield { at: `${at}/examples/${i}`, schema, value };
    }
}

const DOCUMENTS = [
  ['the bank’s API', '/openapi.json'],
  ['the control API', '/__sandbox/openapi.json'],
] as const;

/** Both documents as the sandbox serves them. */
async function served(): Promise<Map<string, OpenApiDocument>> {
  const sandbox = await memorySandbox();
  try {
    const docs = new Map<string, OpenApiDocument>();
    for (const [, location] of DOCUMENTS) {
      const res = await sandbox.app.request(location);
      expect(res.status).toBe(200);
      docs.set(location, (await res.json()) as OpenApiDocument);
    }
    return docs;
  } finally {
    await sandbox.close();
  }
}

const documents = await served();

/** Each operation of a document, by `METHOD path`, with its responses. */
function operationsOf(doc: OpenApiDocument) {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      name: `${method.toUpperCase()} ${doc.servers[0]?.url}${path}`,
      operationId: String((op as JsonObject).operationId),
      responses: (op as { responses: Record<string, Response> }).responses,
    })),
  );
}

describe.each(DOCUMENTS)('the answer examples of %s', (_name, location) => {
  const doc = documents.get(location) as OpenApiDocument;
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  const base = `https://sandbox.test${location}`;
  ajv.addSchema({ $id: base, components: { schemas: doc.components.schemas } });
  const operations = operationsOf(doc);

  it('show an example on every JSON answer of every operation', () => {
    const json = operations.flatMap(({ name, responses }) =>
      Object.entries(responses)
        .filter(([, response]) => response.content?.['application/json'])
        .map(([status, response]) => ({
          at: `${name} ${status}`,
          media: response.content?.['application/json'],
        })),
    );
    expect(json.length).toBeGreaterThan(0);
    expect(json.filter(({ media }) => media?.example === undefined).map(({ at }) => at)).toEqual([]);
  });

  it('show no example on an answer that is not JSON (a page, a stream, a redirect)', () => {
    const others = operations.flatMap(({ name, responses }) =>
      Object.entries(responses).flatMap(([status, response]) =>
        Object.entries(response.content ?? {})
          .filter(([type, media]) => type !== 'application/json' && media.example !== undefined)
          .map(([type]) => `${name} ${status} ${type}`),
      ),
    );
    expect(others).toEqual([]);
  });

  it.each(operations.map((op) => [op.name, op] as const))('%s: each example fits its schema', (name, op) => {
    for (const [status, response] of Object.entries(op.responses)) {
      const media = response.content?.['application/json'];
      if (media?.example === undefined) continue;
      const validate = ajv.compile(rebased(media.schema ?? {}, base) as JsonObject);
      const valid = validate(media.example);
      expect(validate.errors ?? [], `${name} ${status}: the example fits the schema`).toEqual([]);
      expect(valid).toBe(true);
    }
  });

  it('show request bodies, parameters and headers whose examples fit their schemas, and schemas whose defaults and examples fit them', () => {
    const unfit: string[] = [];
    const check = (at: string, schema: unknown, value: unknown) => {
      const validate = ajv.compile(rebased(schema, base) as JsonObject);
      if (!validate(value)) unfit.push(`${at}: ${ajv.errorsText(validate.errors)}`);
    };
    let checked = 0;
    for (const { at, schema, value } of examplesOf(doc)) {
      checked += 1;
      check(at, schema, value);
    }
    expect(checked).toBeGreaterThan(0);
    expect(unfit).toEqual([]);
  });

  it('show the error envelope with `status: false` on every error status', () => {
    const wrong = operations.flatMap(({ name, responses }) =>
      Object.entries(responses)
        .filter(([status]) => Number(status) >= 400)
        .map(([status, response]) => ({
          at: `${name} ${status}`,
          example: response.content?.['application/json']?.example,
        }))
        .filter(({ example }) => example !== undefined && (example as JsonObject).status !== false)
        .map(({ at }) => at),
    );
    // Health's 503 is its own body (`status: "degraded"`), not the envelope.
    expect(wrong).toEqual(location === '/__sandbox/openapi.json' ? ['GET /__sandbox/health 503'] : []);
  });
});

describe(`${ANSWER_EXAMPLES_PATH}`, () => {
  it('holds documented JSON answers only, each operation by its operationId', async () => {
    const committed = JSON.parse(await readFile(join(root, ANSWER_EXAMPLES_PATH), 'utf8')) as Record<
      string,
      Record<string, unknown>
    >;
    const documented = new Set(
      [...documents.values()].flatMap((doc) =>
        operationsOf(doc).flatMap(({ operationId, responses }) =>
          Object.entries(responses)
            .filter(([, response]) => response.content?.['application/json'])
            .map(([status]) => `${operationId} ${status}`),
        ),
      ),
    );
    const held = Object.entries(committed).flatMap(([id, byStatus]) =>
      Object.keys(byStatus).map((status) => `${id} ${status}`),
    );
    expect(held.filter((key) => !documented.has(key))).toEqual([]);
    expect(held.length).toBe(documented.size);
  });

  it('is what `npm run docs` makes from the sandbox’s answers, the same on every run', async () => {
    const committed = await readFile(join(root, ANSWER_EXAMPLES_PATH), 'utf8').catch(() => '(no such file)');
    const made = await answerExamplesText();
    if (committed !== made) {
      const [a, b] = [committed.split('\n'), made.split('\n')];
      const line = a.findIndex((text, i) => text !== b[i]);
      expect.fail(
        `${ANSWER_EXAMPLES_PATH} differs from what the sandbox answers now at line ${line + 1} (${JSON.stringify(a[line])}, made ${JSON.stringify(b[line])}): run npm run docs`,
      );
    }
    expect(committed).toBe(made);
  });
});

import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import billers from '../../../fixtures/billers.json' with { type: 'json' };
import { bulkTransferWithItems } from '../../../src/contract/api/bulk.js';
import { apiContracts } from '../../../src/contract/api/index.js';
import { controlContracts } from '../../../src/contract/control/index.js';
import { readyScenarios } from '../../../src/contract/control/scenarios.js';
import { BANK_DOCS, type RouteContract } from '../../../src/contract/kit.js';
import { answerSchema } from '../../../src/contract/wire.js';
import { ALSO_ANSWERS, type AlsoAnswers } from '../../../src/http/mount.js';
import { DOCS_ASSETS } from '../../../src/openapi/assets.js';
import type { OpenApiDocument } from '../../../src/openapi/document.js';
import { dataOf } from '../../support/answers.js';
import { A, call, schemeA, schemeB, tokenFor, useSandbox } from '../../support/sandbox.js';

/**
 * Routes served beside the two documents: the documents, the reference page, uploaded files, and the dashboard's
 * own files and the pieces its page fetches.
 */
const OUTSIDE_THE_DOCUMENTS = [
  'GET /openapi.json',
  'GET /docs',
  'GET /docs/assets/{file}',
  'GET /uploads/{businessId}/{file}',
  'GET /__sandbox/ui/assets/{file}',
  'GET /__sandbox/ui/fragments/batches/{id}/items',
  'GET /__sandbox/ui/fragments/requests',
  'GET /__sandbox/ui/fragments/requests/{id}',
];

const sandbox = useSandbox();
let api: OpenApiDocument;
let control: OpenApiDocument;

async function documentAt(path: string): Promise<OpenApiDocument> {
  const res = await sandbox.app.request(path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as OpenApiDocument;
}

/** `METHOD /full/path` of every operation of a document, its server's path in front. */
function operationsOf(doc: OpenApiDocument): string[] {
  const server = doc.servers[0]?.url ?? '';
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${server}${path}`),
  );
}

/** The body an operation documents for a success status, as a strict zod schema. */
function documented(op: RouteContract, status: number): z.ZodType {
  const reply = op.responses[status];
  if (typeof reply !== 'object' || !('kind' in reply))
    throw new Error(`${op.operationId} documents no ${status}`);
  return answerSchema(reply) ?? z.unknown();
}

const allRoutes: RouteContract[] = [...apiContracts, ...controlContracts];

const byId = (id: string): RouteContract => {
  const op = allRoutes.find((o) => o.operationId === id);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
};

beforeAll(async () => {
  api = await documentAt('/openapi.json');
  control = await documentAt('/__sandbox/openapi.json');
});

describe('OpenAPI documents', () => {
  it.each([
    ['/openapi.json', '/api/v1'],
    ['/__sandbox/openapi.json', '/__sandbox'],
  ])('%s is a valid OpenAPI 3.1 document of %s', async (path, server) => {
    const doc = path === '/openapi.json' ? api : control;
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(doc.servers.map((s) => s.url)).toEqual([server]);
  });

  it('documents every route the app mounts, each in its own document, and nothing else', () => {
    // A route answered through its parameter's sibling (RegExpRouter takes no static path beside a parameter) is
    // mounted all the same: its sibling's handler names it.
    const mounted = new Set(
      sandbox.app.routes
        .filter((r) => r.method !== 'ALL')
        .flatMap((r) =>
          [r.path, ...((r.handler as AlsoAnswers)[ALSO_ANSWERS] ?? [])].map((path) => ({ ...r, path })),
        )
        .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const apiOps = operationsOf(api);
    const controlOps = operationsOf(control);
    expect(apiOps.every((o) => / \/api\/v1\//.test(o))).toBe(true);
    expect(controlOps.every((o) => / \/__sandbox\//.test(o))).toBe(true);
    expect([...mounted].sort()).toEqual([...apiOps, ...controlOps, ...OUTSIDE_THE_DOCUMENTS].sort());
  });

  it('gives each operation a unique id, its path parameters, and a description for every status', () => {
    for (const doc of [api, control]) {
      const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
      expect(new Set(ids).size).toBe(ids.length);
      for (const [path, item] of Object.entries(doc.paths)) {
        const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
        for (const op of Object.values(item)) {
          const parameters = (op.parameters ?? []) as { in?: string; name?: string }[];
          expect(parameters.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(inPath);
          const responses = Object.values(op.responses as Record<string, { description: string }>);
          expect(responses.every((r) => r.description.length > 0)).toBe(true);
        }
      }
    }
  });

  it("lists every status of the spec's tables, and those our routes give", () => {
    const statuses = (path: string, method: 'get' | 'post') =>
      Object.keys((api.paths[path]?.[method]?.responses ?? {}) as Record<string, unknown>);
    const bulk = '/clients/business/customers/funds/bulk-transfer';
    expect(statuses(`${bulk}/process`, 'post')).toEqual(
      expect.arrayContaining(['200', '202', '400', '401', '404', '413', '415']),
    );
    expect(statuses(`${bulk}/{bulkTransferId}`, 'get')).toEqual(
      expect.arrayContaining(['200', '401', '404']),
    );
    // Creating a business names none (the docs): no businessId to be missing or foreign, so no 404 for it.
    expect(statuses('/clients/business', 'post')).toEqual(
      expect.arrayContaining(['201', '400', '401', '403', '409', '413', '415']),
    );
    expect(statuses('/clients/business', 'post')).not.toContain('404');
    for (const [path, item] of Object.entries(api.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const codes = Object.keys(op.responses as Record<string, unknown>);
        if (op.security !== undefined) expect(codes, `${method} ${path}`).toContain('401');
        if (op.requestBody !== undefined) expect(codes, `${method} ${path}`).toContain('400');
      }
    }
  });

  it('documents x-sandbox-scenario once, in the control document with the ready scenarios loaded, never as a parameter of the bank’s operations', async () => {
    const ready = dataOf(await call(sandbox, 'GET', '/__sandbox/scenarios'), readyScenarios);
    expect(ready.length).toBeGreaterThan(1);
    for (const { name } of ready) expect(control.info.description).toContain(`\`${name}\``);
    expect(control.info.description).toContain('**`x-sandbox-scenario`**');
    expect(JSON.stringify(api)).not.toContain('x-sandbox-scenario');
    expect(api.components.parameters).not.toHaveProperty('SandboxScenario');
  });

  it('gives every path parameter and every request body an example', () => {
    for (const doc of [api, control]) {
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          const where = `${method.toUpperCase()} ${path}`;
          const params = (op.parameters ?? []) as { in?: string; name?: string; example?: unknown }[];
          for (const param of params.filter((p) => p.in === 'path'))
            expect(param.example, `${where}: {${param.name}}`).toBeDefined();
          const body = op.requestBody as { content: Record<string, { example?: unknown }> } | undefined;
          for (const [type, media] of Object.entries(body?.content ?? {}))
            expect(media.example, `${where}: its ${type} body`).toBeDefined();
        }
      }
    }
  });

  it('describes the 422 and the 200 with status: false of the bank’s errors page where they can occur', () => {
    for (const [path, item] of Object.entries(api.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        const responses = op.responses as Record<string, { description: string; content?: object }>;
        const validated =
          op.requestBody !== undefined ||
          ((op.parameters ?? []) as { in?: string }[]).some((p) => p.in === 'query');
        expect(responses[422] !== undefined, `${where}: 422 where a field is validated`).toBe(validated);
        expect(responses[422]?.description ?? 'validation-422', where).toContain('validation-422');
        expect(responses[200]?.description, where).toContain('soft-errors');
        expect(JSON.stringify(responses[200]?.content), where).toContain(
          '#/components/schemas/ErrorEnvelope',
        );
      }
    }
  });

  it('makes x-request-id a required header of every answer of both documents', () => {
    for (const doc of [api, control]) {
      expect(doc.components.headers.RequestId).toMatchObject({ required: true });
      for (const item of Object.values(doc.paths))
        for (const op of Object.values(item))
          for (const response of Object.values(op.responses as Record<string, { headers?: object }>))
            expect(response.headers).toMatchObject({
              'x-request-id': { $ref: '#/components/headers/RequestId' },
            });
    }
  });

  it('gives integer fields no minimum of −(2^53 − 1), which no field has', () => {
    for (const doc of [api, control])
      expect(JSON.stringify(doc)).not.toContain(String(Number.MIN_SAFE_INTEGER));
    expect(api.components.schemas.Pagination).toMatchObject({
      properties: { totalCount: { type: 'integer' } },
    });
  });

  it('says in the schemas what the server enforces: amounts, codes, the webhook URL, content types', () => {
    const transfer = JSON.stringify(api.components.schemas.TransferRequest);
    // Both forms of the amount (a JSON integer, a string of digits) carry the bounds and the whole-number rule: at
    // least one kobo, and no bound above but what a number holds exactly (neither the spec nor the docs give one).
    expect(transfer).toContain(`"type":"integer","minimum":1,"maximum":${Number.MAX_SAFE_INTEGER}`);
    // A bank code is a string of digits with examples, never an enum of the fixtures' codes (contract, section 3):
    // a client generated from the document takes any code the real bank takes.
    const digits = { type: 'string', pattern: '^[0-9]+$', examples: expect.arrayContaining(['058']) };
    expect(api.components.schemas.TransferRequest).toMatchObject({
      properties: { receiverBankCode: digits },
    });
    expect(api.components.schemas.ConfigureBillersRequest).toMatchObject({
      properties: { billers: { items: digits } },
    });
    expect(api.components.schemas.CreatePayoutAccountRequest).toMatchObject({
      properties: { bankCode: digits },
    });
    const everything = JSON.stringify(api);
    expect(everything).not.toContain('"enum":["044"');
    expect(banks.banks.some((b) => b.code === '044') && billers.includes('044')).toBe(true);
    expect(api.components.schemas.UpdateWebhookUrlRequest).toMatchObject({
      properties: { webhookUrl: { format: 'uri', description: expect.stringContaining('https') } },
    });
    const ui = control.paths['/ui']?.get?.responses as Record<string, { content?: object }>;
    // Exactly what is sent: Hono's `c.html` writes `charset=UTF-8`, and so does the token page of a 401.
    expect(Object.keys(ui['200']?.content ?? {})).toEqual(['text/html; charset=UTF-8']);
    expect(Object.keys((ui['401'] as { content?: object } | undefined)?.content ?? {})).toEqual([
      'application/json',
      'text/html; charset=UTF-8',
    ]);
    expect(ui['303']?.content).toBeUndefined();
    const events = control.paths['/ui/events']?.get?.responses as Record<string, { content?: object }>;
    expect(Object.keys(events['200']?.content ?? {})).toEqual(['text/event-stream']);
  });

  it('says where every operation of the bank’s API comes from, and cites the docs page in its description', () => {
    for (const [path, item] of Object.entries(api.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const source = op['x-source'] as { spec?: string; docs?: string[]; sandbox?: string } | undefined;
        expect(source, `${method} ${path}`).toBeDefined();
        expect(
          source?.spec ?? source?.docs?.[0],
          `${method} ${path}: a spec section or a docs page`,
        ).toBeTruthy();
        for (const page of source?.docs ?? []) {
          expect(page).toMatch(/^https:\/\//);
          const cited = page.startsWith(BANK_DOCS) ? page.slice(BANK_DOCS.length) : page;
          expect(op.description, `${method} ${path} cites ${page}`).toContain(cited);
        }
      }
    }
    expect(api.paths['/auth/signin']?.post?.['x-source']).toEqual({
      spec: 'Sign in',
      docs: [`${BANK_DOCS}/api-reference/auth/signin`],
      sandbox: expect.any(String),
    });
    // The control API is the sandbox's own: no operation of it claims the bank as its source.
    for (const item of Object.values(control.paths))
      for (const op of Object.values(item)) expect(op['x-source']).toBeUndefined();
  });

  it('takes request schemas from the zod schemas the routes validate with', () => {
    const transfer = api.components.schemas.TransferRequest as { required: string[]; properties: object };
    expect(transfer.required).toEqual([
      'amount',
      'receiverAccountNumber',
      'receiverBankCode',
      'retrievalReference',
      'narration',
    ]);
    const process = api.paths['/clients/business/customers/funds/bulk-transfer/process']?.post;
    expect(JSON.stringify(process?.requestBody)).toContain('#/components/schemas/ProcessBulkTransferRequest');
    expect(api.components.schemas.ProcessBulkTransferRequest).toMatchObject({
      properties: { bulkTransferId: { format: 'uuid' } },
    });
  });
});

describe('answers match the documented shapes', () => {
  let token: string;
  beforeAll(async () => {
    const signIn = await call(sandbox, 'POST', '/api/v1/auth/signin', {
      body: { email: A.owner.email, password: A.owner.password },
    });
    documented(byId('signIn'), 200).parse(signIn.body);
    token = await tokenFor(sandbox, A.owner);
  });

  it('every scheme A and B read without path parameters', async () => {
    const reads = apiContracts.filter((op) => op.method === 'get' && !op.path.includes('{'));
    expect(reads.length).toBeGreaterThan(8);
    for (const op of reads) {
      const headers =
        op.auth.scheme === 'B'
          ? schemeB(A.publicKey, A.secretKey, A.a1.id)
          : schemeA(token, A.secretKey, A.a1.id);
      const res = await call(sandbox, 'GET', `/api/v1${op.path}`, { headers });
      expect(res.status, op.operationId).toBe(200);
      const parsed = documented(op, 200).safeParse(res.body);
      expect(parsed.error?.issues, op.operationId).toBeUndefined();
    }
  });

  it('a transfer, and a bulk transfer created, processed and read back', async () => {
    const headers = schemeA(token, A.secretKey, A.a1.id);
    const transfer = await call(sandbox, 'POST', '/api/v1/clients/business/customers/funds/transfer', {
      headers,
      body: {
        amount: 150000,
        receiverAccountNumber: '0123456789',
        receiverBankCode: '058',
        retrievalReference: 'doc-1',
        narration: 'Docs',
      },
    });
    documented(byId('transfer'), 200).parse(transfer.body);

    const keys = schemeB(A.publicKey, A.secretKey, A.a1.id);
    const bulk = '/api/v1/clients/business/customers/funds/bulk-transfer';
    const item = {
      amount: 20000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      narration: 'x',
    };
    const created = await call(sandbox, 'POST', bulk, {
      headers: keys,
      body: {
        batchName: 'Docs',
        transfers: [
          { ...item, retrievalReference: 'doc-b1' },
          { ...item, receiverAccountNumber: '0000000051', retrievalReference: 'doc-b2' },
        ],
      },
    });
    expect(created.status).toBe(201);
    documented(byId('createBulkTransfer'), 201).parse(created.body);
    const { id } = dataOf(created, bulkTransferWithItems);
    const processed = await call(sandbox, 'POST', `${bulk}/process`, {
      headers: keys,
      body: { bulkTransferId: id },
    });
    expect(processed.status).toBe(202);
    documented(byId('processBulkTransfer'), 202).parse(processed.body);
    await sandbox.drain();
    const read = await call(sandbox, 'GET', `${bulk}/${id}`, { headers: keys });
    documented(byId('getBulkTransfer'), 200).parse(read.body);
    expect(dataOf(read, bulkTransferWithItems).status).toBe('partially_completed');
  });

  it('the control API: health, credentials, the clock', async () => {
    for (const id of ['health', 'credentials', 'getClock']) {
      const op = byId(id);
      const res = await call(sandbox, 'GET', `/__sandbox${op.path}`);
      expect(res.status, id).toBe(200);
      documented(op, 200).parse(res.body);
    }
  });
});

describe('the reference page', () => {
  it('loads only its own assets, each served from the sandbox', async () => {
    const page = await sandbox.app.request('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    // What the page loads (scripts, style sheets, the icon); its one link, the control-token notice's, is followed
    // only by a click and stays on the sandbox.
    const urls = [...html.matchAll(/<(?:script|link)\b[^>]*\s(?:src|href)="([^"]+)"/g)].map(
      (m) => m[1] ?? '',
    );
    expect(urls.length).toBe(Object.keys(DOCS_ASSETS).length + 1);
    expect([...html.matchAll(/<a\b[^>]*\shref="([^"]+)"/g)].map((m) => m[1])).toEqual([
      expect.stringMatching(/^\/__sandbox\/ui\?next=/),
    ]);
    for (const url of urls.filter((u) => !u.startsWith('data:'))) {
      expect(url).toMatch(/^\/docs\/assets\//);
      const res = await sandbox.app.request(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe(DOCS_ASSETS[url.slice('/docs/assets/'.length)]);
    }
    expect((await sandbox.app.request('/docs/assets/package.json')).status).toBe(404);
    expect((await sandbox.app.request('/docs/assets/..%2Fpackage.json')).status).toBe(404);
  });
});

import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { apiContracts } from '../../../src/contract/api/index.js';
import { controlContracts } from '../../../src/contract/control/index.js';
import {
  harDocument,
  requestEntry,
  requestEntryWithCurl,
  verificationResult,
} from '../../../src/contract/control/requests.js';
import { isReply } from '../../../src/contract/kit.js';
import { controlErrorEnvelope } from '../../../src/contract/wire.js';
import { isSecretField, masked, redactJson } from '../../../src/domain/redact.js';
import { VerificationError } from '../../../src/errors.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox.js';
import { type Answered, answerOf, bodyOf, dataOf, pageOf } from '../../support/answers.js';
import { pageAt } from '../../support/pagination.js';
import {
  A,
  B,
  call,
  memorySandbox,
  ownerHeaders,
  schemeA,
  schemeB,
  tokenFor,
} from '../../support/sandbox.js';

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';

/** The lines of a refusal's message, read with the control API's error envelope. */
const messageLines = (res: Answered) => bodyOf(res, controlErrorEnvelope).message.split('\n');

async function journal(sandbox: Sandbox, query = '') {
  return pageOf(await call(sandbox, 'GET', `/__sandbox/requests${query}`), requestEntry);
}
const newest = async (sandbox: Sandbox, query = '') => {
  const [entry] = (await journal(sandbox, query)).data;
  if (!entry) throw new Error(`no entry for ${query}`);
  return entry;
};

const transferBody = (retrievalReference: string, extra: Record<string, unknown> = {}) => ({
  amount: 150000,
  receiverAccountNumber: '0123456789',
  receiverBankCode: '058',
  retrievalReference,
  narration: 'Invoice 2026-0001 — ₦1,500 café',
  ...extra,
});

describe('the journal entry', () => {
  it('holds the request as sent and the answer as given, with who called and the credentials redacted', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    // Sent as text, with spacing and a number written as 1.5e5: the journal keeps the text the app sent.
    const text =
      '{ "amount": 1.5e5, "receiverAccountNumber": "0123456789", "receiverBankCode": "058",\n "retrievalReference": "ref-entry-1", "narration": "Café ₦ 🚀", "extra": {"list": [1, "two", null, true]} }';
    const res = await call(sandbox, 'POST', `${TRANSFER}?trace=1&trace=2`, {
      headers: { ...schemeA(token, A.secretKey, A.a1.id), 'content-type': 'application/json' },
      body: text,
    });
    expect(res.status).toBe(200);
    const entry = await newest(sandbox);
    expect(entry).toMatchObject({
      method: 'POST',
      path: TRANSFER,
      query: { trace: '1' },
      status: 200,
      clientId: A.id,
      businessId: A.a1.id,
      scenario: null,
    });
    expect(entry.id).toMatch(/^\d+$/);
    // The body in meaning, exactly: what JSON.parse of the sent text gives.
    expect(entry.request.body).toEqual(JSON.parse(text));
    expect(entry.request.bodySize).toBe(Buffer.byteLength(text));
    expect(entry.request.contentType).toBe('application/json');
    expect(entry.request.truncated).toBe(false);
    expect(entry.request.headers.authorization).toBe(`Bearer ****${token.slice(-4)}`);
    expect(entry.request.headers.secret_key).toBe(`****${A.secretKey.slice(-4)}`);
    expect(entry.request.headers.businessid).toBe(A.a1.id);
    expect(JSON.stringify(entry)).not.toContain(token);
    expect(JSON.stringify(entry)).not.toContain(A.secretKey);
    expect(entry.response).toMatchObject({
      status: 200,
      message: 'Transfer successful',
      body: res.body,
      contentType: 'application/json',
      truncated: false,
    });
    expect(entry.response.bodySize).toBe(Buffer.byteLength(JSON.stringify(res.body)));
    // And by its id.
    const { curl, ...one } = dataOf(
      await call(sandbox, 'GET', `/__sandbox/requests/${entry.id}`),
      requestEntryWithCurl,
    );
    expect(one).toEqual(entry);
    // Only the single entry carries the command; the credentials in it are shell variables.
    expect(entry).not.toHaveProperty('curl');
    expect(curl).toMatch(new RegExp(`^curl -X POST 'http://localhost${TRANSFER}\\?trace=1&trace=2' -H `));
    expect(curl).toContain(`-H 'authorization: Bearer '"$AUTHORIZATION"`);
    expect(curl).toContain(`-H 'secret_key: '"$SECRET_KEY"`);
    expect(curl).toContain(`-H 'businessid: ${A.a1.id}'`);
    expect(curl).not.toMatch(/content-length|'host:/);
    expect(curl.endsWith(` --data-raw '${text.replace('\n', ' ')}'`)).toBe(true);
    expect(curl).not.toContain(token);
    expect(curl).not.toContain(A.secretKey);
  });

  it('curl: a secret field of the body is sent as the journal shows it; no body, no --data-raw', async () => {
    const sandbox = await memorySandbox();
    await tokenFor(sandbox, A.owner);
    const signin = await newest(sandbox, '?path=signin');
    const { curl } = dataOf(
      await call(sandbox, 'GET', `/__sandbox/requests/${signin.id}`),
      requestEntryWithCurl,
    );
    expect(curl).toContain(`--data-raw '{"email":"${A.owner.email}","password":"****"}'`);
    expect(curl).not.toContain(A.owner.password);
    await call(sandbox, 'GET', '/api/v1/nowhere?page=2');
    const get = await newest(sandbox, '?path=nowhere');
    const plain = dataOf(await call(sandbox, 'GET', `/__sandbox/requests/${get.id}`), requestEntryWithCurl);
    expect(plain.curl).toBe("curl -X GET 'http://localhost/api/v1/nowhere?page=2'");
  });

  it('shows scheme B callers and the redacted key secret; x-api-key (the public key) stays readable', async () => {
    const sandbox = await memorySandbox();
    const unknownBatch = '00000000-0000-4000-8000-000000000000';
    await call(sandbox, 'GET', `/api/v1/clients/business/customers/funds/bulk-transfer/${unknownBatch}`, {
      headers: schemeB(B.publicKey, B.secretKey, B.b1.id),
    });
    const entry = await newest(sandbox);
    // Refused by the route (no such batch) after the credentials were accepted.
    expect(entry).toMatchObject({ clientId: B.id, businessId: B.b1.id, status: 404 });
    expect(entry.request.headers['x-api-secret']).toBe(`****${B.secretKey.slice(-4)}`);
    expect(entry.request.headers['x-api-key']).toBe(B.publicKey);
    expect(entry.request.body).toBeNull();
    expect(entry.request.bodySize).toBe(0);
  });

  it('names the client of a successful sign-in, so verify({clientId}) finds it; a refused one names none', async () => {
    const sandbox = await memorySandbox();
    await tokenFor(sandbox, A.manager);
    expect(await newest(sandbox, '?path=signin')).toMatchObject({
      clientId: A.id,
      businessId: null,
      status: 200,
    });
    const held = await call(sandbox, 'POST', '/__sandbox/requests/verify', {
      body: { path: '/api/v1/auth/signin', clientId: A.id, exactly: 1 },
    });
    expect(held.status).toBe(200);
    await call(sandbox, 'POST', '/api/v1/auth/signin', { body: { email: A.owner.email, password: 'wrong' } });
    expect(await newest(sandbox, '?path=signin')).toMatchObject({ clientId: null, status: 401 });
  });

  it('names the scenario rule that fired: an http rule before the route, a transfer rule in the service', async () => {
    const sandbox = await memorySandbox();
    const headers = await ownerHeaders(sandbox);
    // The default scenario's rule 1 fails a transfer to 0000000007.
    await call(sandbox, 'POST', TRANSFER, {
      headers,
      body: transferBody('ref-rule-1', { receiverAccountNumber: '0000000007' }),
    });
    expect((await newest(sandbox)).scenario).toEqual({ name: 'default', rule: 1 });
    await call(sandbox, 'POST', '/__sandbox/scenario/rules', {
      body: {
        rules: [
          {
            on: 'http',
            match: { method: 'GET', path: 'account-details$' },
            effect: { http: { status: 503, message: 'Down for a moment' } },
            times: 1,
          },
        ],
      },
    });
    const down = await call(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers });
    expect(down.status).toBe(503);
    const entry = await newest(sandbox);
    expect(entry.scenario).toEqual({ name: 'default', rule: 0 });
    expect(entry.response.message).toBe('Down for a moment');
    // A request no rule applied to.
    await call(sandbox, 'GET', '/api/v1/clients/business/account-details', { headers });
    expect((await newest(sandbox)).scenario).toBeNull();
  });

  it('keeps the error answer of a refused request, with its message', async () => {
    const sandbox = await memorySandbox();
    const headers = await ownerHeaders(sandbox);
    const res = await call(sandbox, 'POST', TRANSFER, { headers, body: { amount: 'lots' } });
    expect(res.status).toBe(400);
    const entry = await newest(sandbox);
    expect(entry.response.message).toBe(res.body.message);
    expect(entry.response.body).toEqual(res.body);
    expect(entry.request.body).toEqual({ amount: 'lots' });
  });

  it('a body that is not JSON: its size and type only', async () => {
    const sandbox = await memorySandbox();
    const form = new FormData();
    form.append('password', 'form-password-123');
    const res = await sandbox.app.request('/api/v1/clients/business/register', {
      method: 'POST',
      body: form,
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const entry = await newest(sandbox);
    expect(entry.request.body).toBeNull();
    expect(entry.request.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(JSON.stringify(entry)).not.toContain('form-password-123');
    // A page: its type, no body.
    await call(sandbox, 'GET', '/__sandbox/ui');
    const page = await newest(sandbox);
    expect(page.response).toMatchObject({ body: null, message: null, truncated: false });
    expect(page.response.contentType).toMatch(/^text\/html/);
  });
});

describe('filters', () => {
  /** A journal with requests of clients A and B, bodies, statuses 200, 400, 401 and 404. */
  async function filled() {
    const sandbox = await memorySandbox();
    const owner = await ownerHeaders(sandbox);
    const bToken = await tokenFor(sandbox, B.owner);
    const bHeaders = schemeA(bToken, B.secretKey, B.b1.id);
    await call(sandbox, 'POST', TRANSFER, { headers: owner, body: transferBody('ref-a-1') });
    await call(sandbox, 'POST', TRANSFER, {
      headers: owner,
      body: transferBody('ref-a-2', { amount: 1000 }),
    });
    await call(sandbox, 'POST', TRANSFER, { headers: bHeaders, body: transferBody('ref-b-1') });
    await call(sandbox, 'POST', TRANSFER, { headers: owner, body: { amount: -1 } });
    await call(sandbox, 'GET', '/api/v1/clients/business/account-details');
    await call(sandbox, 'GET', '/api/v1/nowhere');
    return sandbox;
  }

  it('method in any case, a part of the path, a status or a class of them', async () => {
    const sandbox = await filled();
    const paths = async (q: string) => (await journal(sandbox, q)).data.map((e) => `${e.method} ${e.status}`);
    expect(await paths('?method=post&path=funds/transfer')).toEqual([
      'POST 400',
      'POST 200',
      'POST 200',
      'POST 200',
    ]);
    expect(await paths('?path=nowhere')).toEqual(['GET 404']);
    expect(await paths('?status=401')).toEqual(['GET 401']);
    expect(await paths('?status=4xx&path=/api/v1/')).toEqual(['GET 404', 'GET 401', 'POST 400']);
    expect(await paths('?status=4XX&path=/api/v1/')).toHaveLength(3);
    expect((await paths('?status=2xx&path=funds')).every((p) => p.endsWith('200'))).toBe(true);
    expect(await paths('?status=5xx')).toEqual([]);
    for (const bad of ['abc', '4x', '6xx', '600', '99', '4xxx', '']) {
      const res = await call(sandbox, 'GET', `/__sandbox/requests?status=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ status: false, message: expect.stringMatching(/^status is invalid/) });
    }
  });

  it('clientId and businessId: what the credentials resolved to', async () => {
    const sandbox = await filled();
    const ofB = (await journal(sandbox, `?clientId=${B.id}&path=funds`)).data;
    expect(ofB.map((e) => e.request.body)).toEqual([transferBody('ref-b-1')]);
    const ofA1 = (await journal(sandbox, `?businessId=${A.a1.id.toUpperCase()}&path=funds`)).data;
    expect(ofA1).toHaveLength(3);
  });

  it('requestId: the x-request-id the sandbox answered with, exactly, in the query, the search and the verification', async () => {
    const sandbox = await filled();
    const owner = await ownerHeaders(sandbox);
    const sent = await call(sandbox, 'POST', TRANSFER, {
      headers: { ...owner, 'x-request-id': 'find-me-1' },
      body: transferBody('ref-id-1'),
    });
    expect(sent.headers.get('x-request-id')).toBe('find-me-1');
    // One the sandbox made up is found as well, by what it answered.
    const made = await call(sandbox, 'POST', TRANSFER, { headers: owner, body: transferBody('ref-id-2') });
    const madeId = made.headers.get('x-request-id') ?? '';
    const found = (await journal(sandbox, '?requestId=find-me-1')).data;
    expect(found.map((e) => [e.requestId, e.request.body])).toEqual([
      ['find-me-1', transferBody('ref-id-1')],
    ]);
    expect((await journal(sandbox, `?requestId=${madeId}`)).data.map((e) => e.requestId)).toEqual([madeId]);
    // Exact: neither a part of it nor another case.
    expect((await journal(sandbox, '?requestId=find-me')).data).toEqual([]);
    expect((await journal(sandbox, '?requestId=FIND-ME-1')).data).toEqual([]);
    const search = await call(sandbox, 'POST', '/__sandbox/requests/search', {
      body: { requestId: 'find-me-1', method: 'POST' },
    });
    expect(pageOf(search, requestEntry).data.map((e) => e.requestId)).toEqual(['find-me-1']);
    const held = await call(sandbox, 'POST', '/__sandbox/requests/verify', {
      body: { requestId: 'find-me-1', exactly: 1 },
    });
    expect(dataOf(held, verificationResult).count).toBe(1);
    const missed = await call(sandbox, 'POST', '/__sandbox/requests/verify', {
      body: { requestId: 'find-me-1', status: 400 },
    });
    expect(missed.status).toBe(409);
    expect(messageLines(missed)[0]).toBe(
      'Expected at least 1 request matching status 400, requestId find-me-1, found 0',
    );
    const { nearest } = missed.body.data as {
      nearest: { unmatched: string[]; entry: { requestId: string } }[];
    };
    expect(nearest[0]).toMatchObject({ unmatched: ['status'], entry: { requestId: 'find-me-1' } });
    expect(nearest[1]?.unmatched).toEqual(['requestId']);
  });

  it('body.<dotted.path>=value: a text, a number, nested and through lists', async () => {
    const sandbox = await filled();
    const refs = async (q: string) =>
      (await journal(sandbox, q)).data.map(
        (e) => (e.request.body as { retrievalReference?: string }).retrievalReference,
      );
    expect(await refs('?body.retrievalReference=ref-a-2')).toEqual(['ref-a-2']);
    expect(await refs('?body.amount=1000')).toEqual(['ref-a-2']);
    expect(await refs('?body.amount=150000&method=POST')).toEqual(['ref-b-1', 'ref-a-1']);
    expect(await refs('?body.amount=%20')).toEqual([]);
    expect(await refs('?body.nothing=1')).toEqual([]);
    // Lists, through a state import: `collections.clients.id` looks into each client.
    const state = await sandbox.app.request('/__sandbox/state');
    await call(sandbox, 'PUT', '/__sandbox/state', {
      body: await state.text(),
      headers: { 'content-type': 'application/json' },
    });
    expect((await journal(sandbox, `?body.collections.clients.id=${A.id}`)).data).toHaveLength(1);
    expect((await journal(sandbox, `?body.collections.clients.0.id=${A.id}`)).data).toHaveLength(1);
    expect((await journal(sandbox, `?body.collections.clients.1.id=${A.id}`)).data).toHaveLength(0);
    // Past the body limit, a body is recorded by its size only, so no body filter finds it.
    const small = await memorySandbox({ journalBodyLimit: 1000 });
    const exported = await (await small.app.request('/__sandbox/state')).text();
    await call(small, 'PUT', '/__sandbox/state', {
      body: exported,
      headers: { 'content-type': 'application/json' },
    });
    expect((await journal(small, `?body.collections.clients.id=${A.id}`)).data).toEqual([]);
  });

  it('newest first, paginated like the other control lists', async () => {
    const sandbox = await memorySandbox();
    for (let i = 0; i < 7; i++) await call(sandbox, 'GET', `/__sandbox/health?i=${i}`);
    const first = await journal(sandbox, '?path=health&limit=3');
    expect(first.data.map((e) => e.query.i)).toEqual(['6', '5', '4']);
    expect(first.pagination).toEqual(pageAt(1, { totalCount: 7, limit: 3, lastPage: 3 }));
    const last = await journal(sandbox, '?path=health&limit=3&page=3');
    expect(last.data.map((e) => e.query.i)).toEqual(['0']);
    expect((await journal(sandbox, '?path=health')).pagination.limit).toBe(100);
    expect((await call(sandbox, 'GET', '/__sandbox/requests?limit=1001')).status).toBe(400);
    expect((await call(sandbox, 'GET', '/__sandbox/requests?page=0')).status).toBe(400);
  });

  it('POST /search: the same filters, and a JSON subset of the body', async () => {
    const sandbox = await filled();
    const search = async (body: Record<string, unknown>) => {
      const res = await call(sandbox, 'POST', '/__sandbox/requests/search', { body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return pageOf(res, requestEntry).data.map(
        (e) => (e.request.body as { retrievalReference?: string }).retrievalReference,
      );
    };
    expect(await search({ method: 'post', body: { amount: 1000 } })).toEqual(['ref-a-2']);
    expect(await search({ status: 200, path: 'funds', clientId: A.id })).toEqual(['ref-a-2', 'ref-a-1']);
    expect(
      await search({
        status: '2xx',
        body: { receiverBankCode: '058', narration: transferBody('').narration },
      }),
    ).toEqual(['ref-b-1', 'ref-a-2', 'ref-a-1']);
    expect(await search({ body: { amount: '1000' } })).toEqual([]);
    expect(await search({ body: { retrievalReference: 'ref-a-1', amount: 1 } })).toEqual([]);
    expect(await search({ limit: 1, page: 2, path: 'funds/transfer', status: 200 })).toEqual(['ref-a-2']);
    for (const bad of [{ status: '4x' }, { stauts: 400 }, { limit: 0 }, { method: 7 }]) {
      const res = await call(sandbox, 'POST', '/__sandbox/requests/search', { body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
  });

  it('a JSON subset: objects by their fields at any depth, lists holding a match for each element in any order', async () => {
    const { contains } = await import('../../../src/control/requests/match.js');
    const doc = { a: { b: [{ x: 1, y: 2 }, { x: 3 }], c: 'text' }, n: null };
    expect(contains(doc, {})).toBe(true);
    expect(contains(doc, { a: { c: 'text' } })).toBe(true);
    expect(contains(doc, { a: { b: [{ x: 3 }, { y: 2 }] } })).toBe(true);
    expect(contains(doc, { a: { b: [{ x: 4 }] } })).toBe(false);
    expect(contains(doc, { a: { b: { x: 1 } } })).toBe(false);
    expect(contains(doc, { n: null })).toBe(true);
    expect(contains(doc, { missing: null })).toBe(false);
    expect(contains([1, 2, 3], [3, 1])).toBe(true);
    expect(contains('1', 1)).toBe(false);
  });
});

describe('verify', () => {
  it('200 with the count when it holds; at least 1 when no count is given', async () => {
    const sandbox = await memorySandbox();
    const headers = await ownerHeaders(sandbox);
    await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody('ref-v-1') });
    await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody('ref-v-2') });
    const verify = (body: Record<string, unknown>) =>
      call(sandbox, 'POST', '/__sandbox/requests/verify', { body });
    const plain = await verify({ method: 'POST', path: TRANSFER });
    expect(dataOf(plain, verificationResult)).toEqual({ count: 2, expected: { atLeast: 1 } });
    expect((await verify({ path: TRANSFER, exactly: 2 })).status).toBe(200);
    expect((await verify({ path: TRANSFER, atLeast: 2, atMost: 2 })).status).toBe(200);
    expect(
      (await verify({ path: TRANSFER, body: { retrievalReference: 'ref-v-2' }, exactly: 1 })).status,
    ).toBe(200);
    expect((await verify({ path: '/nothing', exactly: 0 })).status).toBe(200);
    // Verifications are not journaled: the same verification gives the same count however often it is asked.
    expect(dataOf(await verify({ path: '/__sandbox/requests', exactly: 0 }), verificationResult).count).toBe(
      0,
    );
    expect(dataOf(await verify({ method: 'POST', path: TRANSFER }), verificationResult).count).toBe(2);
  });

  it('409 when it does not hold: the count in words, and the nearest entries ranked by the criteria they meet', async () => {
    const sandbox = await memorySandbox();
    const headers = await ownerHeaders(sandbox);
    await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody('ref-n-1', { amount: 500 }) });
    await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody('ref-n-2', { amount: 700 }) });
    await call(sandbox, 'GET', '/__sandbox/health');
    const res = await call(sandbox, 'POST', '/__sandbox/requests/verify', {
      body: {
        method: 'POST',
        path: TRANSFER,
        status: '2xx',
        body: { amount: 1000, retrievalReference: 'ref-n-1' },
      },
    });
    expect(res.status).toBe(409);
    const data = res.body.data as {
      count: number;
      expected: unknown;
      nearest: { unmatched: string[]; entry: unknown }[];
    };
    expect(data.count).toBe(0);
    expect(data.expected).toEqual({ atLeast: 1 });
    // ref-n-1 misses the amount only; ref-n-2 the amount and the reference; the sign-in also the path; health
    // everything but the status.
    expect(data.nearest.map((n) => n.unmatched)).toEqual([
      ['body.amount'],
      ['body.amount', 'body.retrievalReference'],
      ['path', 'body.amount', 'body.retrievalReference'],
      ['method', 'path', 'body.amount', 'body.retrievalReference'],
    ]);
    const first = requestEntry().parse(data.nearest[0]?.entry);
    expect(first.request.body).toMatchObject({ retrievalReference: 'ref-n-1' });
    // The message says the same, a line per nearest entry with each miss, as WireMock prints its near misses: a
    // test runner that prints only the message shows what was sent instead.
    const [n1, n2, signIn, health] = data.nearest.map((n) => requestEntry().parse(n.entry).id);
    const wantedPath = `path: wanted …${TRANSFER}…`;
    expect(messageLines(res)).toEqual([
      `Expected at least 1 request matching POST ${TRANSFER}, status 2xx, body {"amount":1000,"retrievalReference":"ref-n-1"}, found 0`,
      'Nearest 4 requests, with the conditions each misses (GET /__sandbox/requests/{id} shows one whole):',
      `  #${n1} POST ${TRANSFER} → 200: body.amount: wanted 1000, was 500`,
      `  #${n2} POST ${TRANSFER} → 200: body.amount: wanted 1000, was 700; body.retrievalReference: wanted "ref-n-1", was "ref-n-2"`,
      `  #${signIn} POST /api/v1/auth/signin → 200: ${wantedPath}, was /api/v1/auth/signin; body.amount: wanted 1000, was absent; body.retrievalReference: wanted "ref-n-1", was absent`,
      `  #${health} GET /__sandbox/health → 200: method: wanted POST, was GET; ${wantedPath}, was /__sandbox/health; body.amount: wanted 1000, was no JSON body; body.retrievalReference: wanted "ref-n-1", was no JSON body`,
    ]);

    const many = await call(sandbox, 'POST', '/__sandbox/requests/verify', {
      body: { path: TRANSFER, exactly: 1 },
    });
    expect(many.status).toBe(409);
    // Too many: the nearest are the ones that match, and say so.
    expect(messageLines(many)).toEqual([
      `Expected exactly 1 request matching ${TRANSFER}, found 2`,
      'Nearest 2 requests, with the conditions each misses (GET /__sandbox/requests/{id} shows one whole):',
      `  #${n2} POST ${TRANSFER} → 200: matches every condition`,
      `  #${n1} POST ${TRANSFER} → 200: matches every condition`,
    ]);
    const most = await call(sandbox, 'POST', '/__sandbox/requests/verify', { body: { atMost: 1 } });
    expect(messageLines(most)[0]).toBe('Expected at most 1 request, found 4');
    const between = await call(sandbox, 'POST', '/__sandbox/requests/verify', {
      body: { method: 'get', atLeast: 2, atMost: 5 },
    });
    expect(messageLines(between)[0]).toBe('Expected between 2 and 5 requests matching GET, found 1');
  });

  it("409 with nothing near says why, and the handle's VerificationError carries the lines, in an isolated sandbox too", async () => {
    const root = await memorySandbox();
    const isolated = await root.isolate();
    for (const sandbox of [root, isolated]) {
      const verify = (body: Record<string, unknown>) =>
        call(sandbox, 'POST', '/__sandbox/requests/verify', { body });
      expect(messageLines(await verify({ path: TRANSFER }))).toEqual([
        `Expected at least 1 request matching ${TRANSFER}, found 0`,
        'The journal holds no request: none was answered since the start, the last reset or DELETE /__sandbox/requests.',
      ]);
      await call(sandbox, 'GET', '/__sandbox/health');
      expect(messageLines(await verify({ path: TRANSFER }))[1]).toBe(
        'The one request in the journal meets none of these conditions (GET /__sandbox/requests shows it).',
      );
      await call(sandbox, 'GET', '/__sandbox/health');
      expect(messageLines(await verify({ method: 'POST', path: TRANSFER }))[1]).toBe(
        'None of the 2 requests in the journal meets any of these conditions (GET /__sandbox/requests lists them).',
      );
      // The handle: a VerificationError whose message holds the near misses, and `nearest` as data.
      const headers = await ownerHeaders(sandbox);
      await call(sandbox, 'POST', TRANSFER, { headers, body: transferBody('ref-h-1', { amount: 500 }) });
      const failed = await sandbox
        .verify({ path: TRANSFER, body: { amount: 1000 } })
        .catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(VerificationError);
      const error = failed as VerificationError;
      expect(error.message.split('\n')).toEqual([
        `Expected at least 1 request matching ${TRANSFER}, body {"amount":1000}, found 0`,
        'Nearest request, with the conditions each misses (GET /__sandbox/requests/{id} shows one whole):',
        expect.stringMatching(
          new RegExp(`^  #\\d+ POST ${TRANSFER} → 200: body\\.amount: wanted 1000, was 500$`),
        ),
      ]);
      expect(error.nearest).toHaveLength(1);
      expect(error).toMatchObject({ count: 0, expected: { atLeast: 1 } });
    }
  });

  it('400 for counts that contradict each other or a bad filter', async () => {
    const sandbox = await memorySandbox();
    const cases: [Record<string, unknown>, string][] = [
      [{ exactly: 1, atLeast: 1 }, 'exactly is invalid: cannot be combined with atLeast or atMost'],
      [{ atLeast: 3, atMost: 2 }, 'atLeast is invalid: must not be more than atMost'],
      [{ atLeast: -1 }, 'atLeast is invalid: must be at least 0'],
      [{ status: 'teapot' }, 'status is invalid: must be a status code (400) or a class of them (4xx)'],
      [{ atleast: 1 }, '(body) is invalid: has unknown field atleast'],
    ];
    for (const [body, message] of cases) {
      const res = await call(sandbox, 'POST', '/__sandbox/requests/verify', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });
});

// Checked against the HAR 1.2 JSON schema as published (`har-schema`, the schema HTTP tooling has validated HAR with
// for years; the format has not changed since 1.2), compiled by ajv with ajv-formats: a transcription of our own
// would only check what we believed the spec says. Test-only dependencies.
describe('HAR', () => {
  const require = createRequire(import.meta.url);
  const harSchemas = require('har-schema') as Record<string, { $id: string }>;
  const draft06 = require('ajv/dist/refs/json-schema-draft-06.json');
  // CommonJS, whose default export the type declarations do not give as callable under NodeNext.
  const addFormats = require('ajv-formats') as (ajv: Ajv) => Ajv;

  /** The HAR 1.2 JSON schema of the `har-schema` package, compiled with ajv. */
  function harValidator() {
    // The package's schemas are draft-06 and carry a keyword of their own (`optional`), hence `strict: false`.
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addMetaSchema(draft06);
    for (const schema of Object.values(harSchemas)) ajv.addSchema(schema);
    const validate = ajv.getSchema('har.json#');
    if (!validate) throw new Error('har-schema: no har.json');
    return validate;
  }

  it('exports the journal as valid HAR 1.2 (the har-schema package), filtered like the list, redacted', async () => {
    const sandbox = await memorySandbox();
    const headers = await ownerHeaders(sandbox);
    const sent = JSON.stringify(transferBody('ref-har-1'));
    await call(sandbox, 'POST', TRANSFER, {
      headers: { ...headers, 'content-type': 'application/json' },
      body: sent,
    });
    await call(sandbox, 'GET', '/__sandbox/ui');
    await call(sandbox, 'GET', '/api/v1/nowhere?x=1&token=abcdefghijkl');
    await call(sandbox, 'POST', '/api/v1/auth/signin', {
      body: { email: A.owner.email, password: A.owner.password },
    });
    const res = await call(sandbox, 'GET', '/__sandbox/requests.har');
    expect(res.status).toBe(200);
    const validate = harValidator();
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
    const har = bodyOf(res, harDocument);
    expect(har.log.creator.name).toBe('banking-sandbox');
    const text = JSON.stringify(har);
    expect(text).not.toContain(A.owner.password);
    expect(text).not.toContain(A.secretKey);
    expect(text).not.toContain('abcdefghijkl');
    const transfer = har.log.entries.find((e) => e.request.url.endsWith(TRANSFER));
    // The text the app sent, as it was (nothing in it is secret).
    expect(transfer?.request.postData).toEqual({ mimeType: 'application/json', text: sent });
    expect(transfer?.request.bodySize).toBe(Buffer.byteLength(sent));
    expect(transfer?.response.status).toBe(200);
    expect(transfer?.response.statusText).toBe('OK');
    expect(JSON.parse(transfer?.response.content.text ?? '')).toMatchObject({
      message: 'Transfer successful',
    });
    const nowhere = har.log.entries.find((e) => e.request.url.includes('nowhere'));
    expect(nowhere?.request.queryString).toEqual([
      { name: 'x', value: '1' },
      { name: 'token', value: '****ijkl' },
    ]);
    const signin = har.log.entries.find((e) => e.request.url.endsWith('/auth/signin'));
    expect(JSON.parse(signin?.request.postData?.text ?? '')).toEqual({
      email: A.owner.email,
      password: '****',
    });
    const page = har.log.entries.find((e) => e.request.url.endsWith('/__sandbox/ui'));
    expect(page?.response.content.text).toBeUndefined();
    expect(page?.response.content.mimeType).toMatch(/^text\/html/);
    // Filtered like the list.
    const posts = bodyOf(
      await call(sandbox, 'GET', '/__sandbox/requests.har?method=post&status=2xx'),
      harDocument,
    );
    // (The first sign-in is the one that made the owner's headers.)
    expect(posts.log.entries.map((e) => new URL(e.request.url).pathname)).toEqual([
      '/api/v1/auth/signin',
      TRANSFER,
      '/api/v1/auth/signin',
    ]);
    expect(validate(posts)).toBe(true);
  });
});

describe('DELETE and the bounds', () => {
  it('DELETE empties the journal and answers how many entries went; ids go on', async () => {
    const sandbox = await memorySandbox();
    for (let i = 0; i < 3; i++) await call(sandbox, 'GET', '/__sandbox/health');
    const [last] = (await journal(sandbox)).data;
    const res = await call(sandbox, 'DELETE', '/__sandbox/requests');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deleted: 3 });
    expect((await journal(sandbox)).data).toEqual([]);
    expect((await call(sandbox, 'GET', `/__sandbox/requests/${last?.id}`)).status).toBe(404);
    await call(sandbox, 'GET', '/__sandbox/health');
    const [next] = (await journal(sandbox)).data;
    expect(Number(next?.id)).toBe(Number(last?.id) + 1);
    expect((await call(sandbox, 'GET', '/__sandbox/requests/abc')).status).toBe(404);
  });

  it('by count: the oldest go', async () => {
    const sandbox = await memorySandbox({ journalSize: 3 });
    for (let i = 0; i < 5; i++) await call(sandbox, 'GET', `/__sandbox/health?i=${i}`);
    const { data } = await journal(sandbox);
    expect(data.map((e) => e.query.i)).toEqual(['4', '3', '2']);
    expect((await call(sandbox, 'GET', `/__sandbox/requests/${Number(data[2]?.id) - 1}`)).status).toBe(404);
  });

  it('by bytes: the oldest go once the bodies held pass --journal-bytes', async () => {
    // Each entry counts 1024 plus its bodies: a 3000-byte body and its small answer, about 4.1 KB an entry.
    const sandbox = await memorySandbox({ journalBytes: 10_000 });
    const headers = await ownerHeaders(sandbox);
    for (let i = 0; i < 4; i++)
      await call(sandbox, 'POST', TRANSFER, {
        headers,
        body: transferBody(`ref-b-${i}`, { narration: 'n'.repeat(3000) }),
      });
    const { data } = await journal(sandbox, '?path=funds');
    expect(data.map((e) => (e.request.body as { retrievalReference: string }).retrievalReference)).toEqual([
      'ref-b-3',
      'ref-b-2',
    ]);
    const metrics = await call(sandbox, 'GET', '/__sandbox/metrics');
    expect(
      (metrics.body.data as { requestJournal: { bytes: number } }).requestJournal.bytes,
    ).toBeLessThanOrEqual(10_000);
  });

  it('bodies past --journal-body-limit: their size only, marked truncated; the message is kept', async () => {
    const sandbox = await memorySandbox({ journalBodyLimit: 200 });
    const headers = await ownerHeaders(sandbox);
    const body = transferBody('ref-big', { narration: 'é'.repeat(80) });
    await call(sandbox, 'POST', TRANSFER, { headers, body });
    const entry = await newest(sandbox);
    expect(entry.request).toMatchObject({
      body: null,
      truncated: true,
      bodySize: Buffer.byteLength(JSON.stringify(body)),
    });
    await call(sandbox, 'GET', '/__sandbox/credentials');
    const big = await newest(sandbox);
    expect(big.response).toMatchObject({ body: null, truncated: true, message: 'Sandbox credentials' });
    expect(big.response.bodySize).toBeGreaterThan(200);
  });
});

// ------------------------------------------------------------------------------------------------ redaction

/** A field name that looks like it may hold a secret. */
const SECRET_LOOKING = /pass|token|secret|otp|pin$|key|auth|cookie|credential|cvv/i;
/** Such names that hold none: the public key, a search word, a date, the list of retired keys (each redacted). */
const NOT_SECRET = new Set(['publicKey', 'keyword', 'previousSecretValidUntil', 'retiredSecrets', 'cookies']);

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/** Every secret-looking field of a schema, as a path: `[]` for a list's elements, `x` for a record's keys. */
function secretPaths(schema: JsonSchema | undefined, at: string[] = [], out: string[][] = []): string[][] {
  if (!schema || typeof schema !== 'object') return out;
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (SECRET_LOOKING.test(name) && !NOT_SECRET.has(name)) out.push([...at, name]);
    else secretPaths(field, [...at, name], out);
  }
  if (schema.items) secretPaths(schema.items, [...at, '[]'], out);
  if (typeof schema.additionalProperties === 'object')
    secretPaths(schema.additionalProperties, [...at, 'x'], out);
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    secretPaths(branch, at, out);
  return out;
}

const jsonSchemaOf = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

const ALL_ROUTES = [
  ...apiContracts.map((r) => ['/api/v1', r] as const),
  ...controlContracts.map((r) => ['/__sandbox', r] as const),
];

/** Sets `value` at `path` in `target`, making the objects and one-element lists on the way. */
function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node: Record<string, unknown> | unknown[] = target;
  path.forEach((segment, i) => {
    const last = i === path.length - 1;
    const nextIsList = path[i + 1] === '[]';
    const key = segment === '[]' ? 0 : segment;
    const holder = node as Record<string | number, unknown>;
    if (last) {
      holder[key] = value;
      return;
    }
    holder[key] ??= nextIsList ? [] : {};
    node = holder[key] as Record<string, unknown> | unknown[];
  });
}

/** Every string under a secret-looking field of an answer. */
function secretValues(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) secretValues(v, out);
  else if (value !== null && typeof value === 'object')
    for (const [key, field] of Object.entries(value)) {
      if (SECRET_LOOKING.test(key) && !NOT_SECRET.has(key) && typeof field === 'string' && field.length > 0)
        out.push(field);
      else secretValues(field, out);
    }
  return out;
}

describe('redaction, derived from the route list', () => {
  const written: string[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    written.length = 0;
  });
  /** What the sandbox writes on standard output from now on (its request log). */
  function captureLog() {
    const write = process.stdout.write.bind(process.stdout);
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return write(chunk, ...(rest as []));
    });
  }
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('every secret-looking field of every route is one the journal redacts', () => {
    const unknown: string[] = [];
    for (const [, route] of ALL_ROUTES) {
      const schemas = [route.body, route.form, route.query].filter((s) => s !== undefined);
      for (const reply of Object.values(route.responses))
        if (isReply(reply) && 'schema' in reply && reply.schema) schemas.push(reply.schema());
      for (const schema of schemas)
        for (const path of secretPaths(jsonSchemaOf(schema))) {
          const name = path[path.length - 1] ?? '';
          if (!isSecretField(name)) unknown.push(`${route.operationId}: ${path.join('.')}`);
        }
    }
    expect(unknown).toEqual([]);
  });

  it('a secret a route takes in its body never reaches the journal, the HAR or the log', async () => {
    const sandbox = await memorySandbox({ quiet: false });
    const token = await tokenFor(sandbox, A.owner);
    const headers = {
      ...schemeA(token, A.secretKey, A.a1.id),
      ...schemeB(A.publicKey, A.secretKey, A.a1.id),
    };
    const tried: string[] = [];
    let n = 0;
    captureLog();
    for (const [prefix, route] of ALL_ROUTES) {
      const schema = route.body ?? route.form;
      if (!schema) continue;
      const paths = secretPaths(jsonSchemaOf(schema));
      if (paths.length === 0) continue;
      const markers: string[] = [];
      const body: Record<string, unknown> =
        route.example && typeof route.example === 'object'
          ? structuredClone(route.example as Record<string, unknown>)
          : {};
      for (const path of paths) {
        const marker = `Marker${++n}Secret${'x'.repeat(12)}${n}`;
        markers.push(marker);
        setAt(body, path, marker);
      }
      const path = `${prefix}${route.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000')}`;
      const requestId = `redaction-${route.operationId}`;
      let init: RequestInit;
      if (route.form) {
        const form = new FormData();
        for (const [key, value] of Object.entries(body)) form.append(key, String(value));
        init = {
          method: route.method.toUpperCase(),
          headers: { ...headers, 'x-request-id': requestId },
          body: form,
        };
      } else {
        init = {
          method: route.method.toUpperCase(),
          headers: { ...headers, 'x-request-id': requestId, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        };
      }
      await sandbox.app.request(path, init);
      const [entry] = (await journal(sandbox)).data;
      expect(entry?.requestId).toBe(requestId);
      // The body was read and recorded (a form: its size only), so its redaction was put to the test.
      if (!route.form) expect(entry?.request.body, route.operationId).not.toBeNull();
      const har = JSON.stringify((await call(sandbox, 'GET', '/__sandbox/requests.har')).body);
      await settled();
      for (const marker of markers) {
        expect(JSON.stringify(entry), `${route.operationId} journal`).not.toContain(marker);
        expect(har, `${route.operationId} HAR`).not.toContain(marker);
        expect(written.join(''), `${route.operationId} log`).not.toContain(marker);
      }
      tried.push(route.operationId);
    }
    expect(tried.sort()).toEqual(
      ['completeBusinessRegistration', 'completeMemberRegistration', 'importState', 'signIn'].sort(),
    );
  });

  it('a secret a route answers never reaches the journal, the HAR or the log', async () => {
    const sandbox = await memorySandbox({ quiet: false });
    const owner = await ownerHeaders(sandbox);
    /** How to get a success of each route whose answer carries a secret. */
    const calls: Record<string, () => Promise<unknown>> = {
      signIn: () =>
        call(sandbox, 'POST', '/api/v1/auth/signin', {
          body: { email: A.owner.email, password: A.owner.password },
        }),
      getApiKeys: () => call(sandbox, 'GET', '/api/v1/clients/settings/get-keys', { headers: owner }),
      credentials: () => call(sandbox, 'GET', '/__sandbox/credentials'),
      createClient: () => call(sandbox, 'POST', '/__sandbox/clients', { body: {} }),
      rotateSecret: () => call(sandbox, 'POST', `/__sandbox/clients/${B.id}/rotate-secret`),
      exportState: () => call(sandbox, 'GET', '/__sandbox/state'),
    };
    const answering = ALL_ROUTES.filter(([, route]) =>
      Object.values(route.responses).some(
        (reply) =>
          isReply(reply) &&
          'schema' in reply &&
          reply.schema &&
          secretPaths(jsonSchemaOf(reply.schema())).length > 0,
      ),
    ).map(([, route]) => route.operationId);
    expect(answering.sort()).toEqual(Object.keys(calls).sort());
    captureLog();
    for (const [operationId, make] of Object.entries(calls)) {
      const res = (await make()) as { status: number; body: unknown };
      expect(res.status, operationId).toBeLessThan(300);
      const secrets = secretValues(res.body);
      expect(secrets.length, operationId).toBeGreaterThan(0);
      const [entry] = (await journal(sandbox)).data;
      const har = JSON.stringify((await call(sandbox, 'GET', '/__sandbox/requests.har?limit=1')).body);
      await settled();
      for (const secret of secrets.filter((s) => s.length > 4)) {
        expect(JSON.stringify(entry), `${operationId} journal`).not.toContain(secret);
        expect(har, `${operationId} HAR`).not.toContain(secret);
        expect(written.join(''), `${operationId} log`).not.toContain(secret);
      }
    }
  });

  it('credential headers and query parameters, whatever the route', async () => {
    const sandbox = await memorySandbox({ quiet: false });
    captureLog();
    const secrets = {
      authorization: 'Bearer header-token-0001-abcd',
      SECRET_KEY: 'sk_header_secret_0002_efgh',
      'x-api-secret': 'api-secret-0003-ijkl',
      'x-sandbox-token': 'sandbox-token-0004-mnop',
      cookie: 'sandbox_token=cookie-token-0005-qrst',
      'x-refresh-token': 'short',
    };
    await call(sandbox, 'GET', '/api/v1/clients/business/account-details?token=query-token-0006-uvwx', {
      headers: secrets,
    });
    const entry = await newest(sandbox);
    expect(entry.request.headers).toMatchObject({
      authorization: 'Bearer ****abcd',
      secret_key: '****efgh',
      'x-api-secret': '****ijkl',
      'x-sandbox-token': '****mnop',
      cookie: '****qrst',
      'x-refresh-token': '****',
    });
    expect(entry.query).toEqual({ token: '****uvwx' });
    const har = JSON.stringify((await call(sandbox, 'GET', '/__sandbox/requests.har')).body);
    await settled();
    for (const value of [
      ...Object.values(secrets).map((v) => v.replace(/^Bearer |^sandbox_token=/, '')),
      'query-token-0006-uvwx',
    ]) {
      if (value === 'short') continue;
      expect(JSON.stringify(entry)).not.toContain(value);
      expect(har).not.toContain(value);
      expect(written.join('')).not.toContain(value);
    }
  });

  it('a secret repeated in another field of the same document is redacted there too (an outbox message)', () => {
    const message = {
      body: 'Complete your registration with this authorization token: 950f4f572dca52b55e2ca0acafa6d35ae',
      data: { authorizationToken: '950f4f572dca52b55e2ca0acafa6d35ae', otp: '893317' },
      note: 'Use 893317 to finish',
    };
    expect(redactJson(message)).toEqual({
      body: 'Complete your registration with this authorization token: ****35ae',
      data: { authorizationToken: '****35ae', otp: '****' },
      note: 'Use **** to finish',
    });
    const plain = { a: [1, { b: 'c' }] };
    expect(redactJson(plain)).toBe(plain);
    expect(masked('12345678')).toBe('****');
    expect(masked('123456789')).toBe('****6789');
  });
});

describe('a body the route never read, on a real server', () => {
  /** A POST with a JSON body as Node's fetch sends it, and the journal's entry for it. */
  async function sent(options: Parameters<typeof startSandbox>[0], path: string, body: string) {
    const sandbox = await startSandbox({
      inMemory: true,
      port: 0,
      quiet: true,
      log: () => undefined,
      ...options,
    });
    try {
      const res = await fetch(`${sandbox.url}${path}`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'x-request-id': 'unread-1' },
      });
      await res.text();
      const page = await fetch(`${sandbox.url}/__sandbox/requests?limit=1`);
      const [entry] = pageOf(await answerOf(page), requestEntry).data;
      expect(entry?.requestId).toBe('unread-1');
      return { status: res.status, entry };
    } finally {
      await sandbox.close();
    }
  }

  it('a small body answered 401 before it was read: recorded as sent, secrets redacted', async () => {
    const body = JSON.stringify({ ...transferBody('ref-401'), password: 'unread-password-123' });
    const { status, entry } = await sent({}, TRANSFER, body);
    expect(status).toBe(401);
    expect(entry?.request.body).toEqual({ ...transferBody('ref-401'), password: '****' });
    expect(entry?.request.bodySize).toBe(Buffer.byteLength(body));
  });

  it('a large body answered 401 while it streams in: drained, and kept up to --journal-body-limit', async () => {
    const body = JSON.stringify({ filler: 'f'.repeat(2 * 1_048_576) });
    const kept = await sent(
      { journalBodyLimit: 4 * 1_048_576 },
      '/api/v1/clients/business/customers/funds/bulk-transfer',
      body,
    );
    expect(kept.status).toBe(401);
    expect(kept.entry?.request.body).toEqual(JSON.parse(body));
    const over = await sent({}, '/api/v1/clients/business/customers/funds/bulk-transfer', body);
    expect(over.entry?.request).toMatchObject({
      body: null,
      truncated: true,
      bodySize: Buffer.byteLength(body),
    });
  });

  it('a body refused by its size (413): its size, and the body itself if it had all arrived', async () => {
    const body = JSON.stringify(transferBody('ref-413', { narration: 'n'.repeat(200) }));
    const { status, entry } = await sent({ bodyLimit: 64 }, TRANSFER, body);
    expect(status).toBe(413);
    // The answer closes the connection without draining the body: what Node had buffered by then is all there is.
    expect(entry?.request.bodySize).toBe(Buffer.byteLength(body));
    if (entry?.request.body !== null) expect(entry?.request.body).toEqual(JSON.parse(body));
  });
});

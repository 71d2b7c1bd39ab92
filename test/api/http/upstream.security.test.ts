import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { driftReport } from '../../../src/contract/control/drift.js';
import { errorEnvelope } from '../../../src/contract/wire.js';
import { KEY_RUN, SHOWN_TEXT_LIMIT } from '../../../src/domain/redact.js';
import { type RunningSandbox, type Sandbox, startSandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { rawExchange } from '../../support/raw-http.js';
import { call, memorySandbox } from '../../support/sandbox.js';
import {
  type Endless,
  sendForever,
  startFakeUpstream,
  startRawUpstream,
  type UpstreamAnswer,
} from '../../support/upstream.js';

// What no upstream answer may do, however long or strange, over real sockets: a local
// upstream sends an endless body, one just over --upstream-max-body, decompression bombs, bytes that are not HTTP,
// a message of 10 MB; the app gets 502 with the envelope (never a 500), the report an `upstream-error`, and the
// sandbox reads no more than the cap. The path goes upstream byte for byte, as the upstream's request line shows.

const CAP = 64 * 1024;
const AUDIT = '/api/v1/clients/business/audits';
const AUDIT_ROUTE = '/clients/business/audits/{auditId}';
/** A run of key-like characters as long as a key. */
const LONG_RUN = new RegExp(`[A-Za-z0-9_-]{${KEY_RUN},}`);
const zeros = (size: number) => Buffer.alloc(size);

const report = async (sandbox: Sandbox) =>
  dataOf(await call(sandbox, 'GET', '/__sandbox/drift'), driftReport);
const findingsOf = async (sandbox: Sandbox) =>
  (await report(sandbox)).routes.find((r) => r.path === AUDIT_ROUTE)?.findings ?? [];

/** The 502 of an answer past the cap: the envelope, and the report's `upstream-error` at `body`. */
async function expectCutOff(sandbox: Sandbox, base: string, res: Response, cap = CAP): Promise<void> {
  expect(res.status).toBe(502);
  expect(errorEnvelope().parse(await res.json())).toEqual({
    status: false,
    message: `The upstream ${base} answered more than ${cap} bytes (--upstream-max-body): the answer was cut off`,
    data: null,
  });
  expect(await findingsOf(sandbox)).toContainEqual(
    expect.objectContaining({
      kind: 'upstream-error',
      at: 'body',
      expected: `at most ${cap} bytes (--upstream-max-body)`,
      seen: `more than ${cap} bytes`,
    }),
  );
}

describe('--upstream-max-body: an answer is read up to the cap, counted after decompression', () => {
  /** What the fake bank answers next, whatever the path. */
  let next: () => UpstreamAnswer = () => ({ status: 404, body: { status: false, message: 'x', data: null } });
  let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
  let sandbox: Sandbox;

  beforeAll(async () => {
    fake = await startFakeUpstream(() => next());
    // A timeout far past any test's: an answer cut off here was cut off by its size.
    sandbox = await memorySandbox({ upstream: fake.base, upstreamMaxBody: CAP, upstreamTimeout: 600_000 });
  });
  afterEach(() => call(sandbox, 'DELETE', '/__sandbox/drift'));
  afterAll(async () => {
    await sandbox.close();
    await fake.close();
  });

  it('an answer of exactly the cap comes back whole; one byte more, with its length or chunked, is 502', async () => {
    next = () => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'a'.repeat(CAP) });
    const whole = await sandbox.app.request(`${AUDIT}/exact`);
    expect(whole.status).toBe(200);
    expect(await whole.text()).toBe('a'.repeat(CAP));

    next = () => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'a'.repeat(CAP + 1) });
    await expectCutOff(sandbox, fake.base, await sandbox.app.request(`${AUDIT}/over`));

    next = () => ({
      send: (res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('a'.repeat(CAP));
        res.end('a');
      },
    });
    await expectCutOff(sandbox, fake.base, await sandbox.app.request(`${AUDIT}/chunked`));
  });

  it('an endless answer: 502 while the upstream is still sending, its connection closed under it', async () => {
    let ended: Promise<Endless> | undefined;
    next = () => ({
      send: (res) => {
        ended = sendForever(res, { 'content-type': 'application/json' }, Buffer.from('[1,'.repeat(4096)));
      },
    });
    await expectCutOff(sandbox, fake.base, await sandbox.app.request(`${AUDIT}/endless`));
    // It never ends by itself: the proxy closed the connection as it passed the cap.
    expect(await ended).toMatchObject({ finished: false });
  });

  it('an endless gzip answer (a bomb that never ends): 502, its connection closed under it', async () => {
    let ended: Promise<Endless> | undefined;
    // Each chunk a whole gzip member of 1 MiB of zeros, about 1 KB on the wire: a gzip body may hold any number.
    const member = gzipSync(zeros(1_048_576));
    next = () => ({
      send: (res) => {
        ended = sendForever(res, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, member);
      },
    });
    await expectCutOff(sandbox, fake.base, await sandbox.app.request(`${AUDIT}/gzip-forever`));
    expect(await ended).toMatchObject({ finished: false });
  });

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['gzip, br', (bytes: Buffer) => brotliCompressSync(gzipSync(bytes))],
  ])('a %s bomb, small on the wire, that inflates past the cap: 502', async (coding, compress) => {
    const bomb = compress(zeros(64 * CAP));
    expect(bomb.length).toBeLessThan(CAP / 4);
    next = () => ({
      status: 200,
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
      body: bomb,
    });
    await expectCutOff(sandbox, fake.base, await sandbox.app.request(`${AUDIT}/bomb`));
  });

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['deflate, gzip', (bytes: Buffer) => gzipSync(deflateSync(bytes))],
  ])(
    'a %s answer within the cap comes back decoded, without its encoding, and is checked',
    async (coding, compress) => {
      const body = JSON.stringify({ status: true, message: 'Audit fetched', data: null });
      next = () => ({
        status: 200,
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
        body: compress(Buffer.from(body)),
      });
      const res = await sandbox.app.request(`${AUDIT}/small`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBeNull();
      expect(await res.text()).toBe(body);
      expect(await findingsOf(sandbox)).toContainEqual(
        expect.objectContaining({ kind: 'message', seen: 'Audit fetched' }),
      );
    },
  );

  it('an encoding the proxy does not know: the bytes and their header go to the app as they came', async () => {
    const bytes = Buffer.from([0x1f, 0x9d, 0x90, 0x7b, 0x22]);
    next = () => ({
      status: 200,
      headers: { 'content-type': 'application/json', 'content-encoding': 'compress' },
      body: bytes,
    });
    const res = await sandbox.app.request(`${AUDIT}/compress`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('compress');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(bytes);
    expect(await findingsOf(sandbox)).toContainEqual(
      expect.objectContaining({ kind: 'upstream-error', at: 'body', expected: 'JSON' }),
    );
  });

  it('a message holding a 10 MB run of key-like characters: the app gets the answer as sent, the report a few masked words', async () => {
    const message = `Audit ${'k'.repeat(10 * 1_048_576)}1234 not found`;
    const body = JSON.stringify({ status: false, message, data: null });
    const big = await memorySandbox({ upstream: fake.base });
    try {
      next = () => ({ status: 404, body: JSON.parse(body) });
      const res = await big.app.request(`${AUDIT}/long-message`);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(body);
      const [finding] = (await findingsOf(big)).filter((f) => f.kind === 'message');
      expect(finding?.seen).toBe('Audit ****1234 not found');
      expect(finding?.seen).not.toMatch(LONG_RUN);
    } finally {
      await big.close();
    }
  });

  it('a path of 10 KB the sandbox does not emulate: the report shows a few masked words of it', async () => {
    const path = `/api/v1/unknown/${'segment/'.repeat(1200)}${'k'.repeat(1000)}`;
    next = () => ({ status: 404, body: { status: false, message: 'x', data: null } });
    expect((await sandbox.app.request(path)).status).toBe(404);
    const [route] = (await report(sandbox)).routes;
    expect(route?.path.length).toBeLessThanOrEqual(SHOWN_TEXT_LIMIT);
    expect(route?.findings[0]?.seen.length).toBeLessThanOrEqual(SHOWN_TEXT_LIMIT);
  });
});

describe('--upstream-max-body by default: 16 MiB', () => {
  it('a gzip answer that inflates to one byte past 16 MiB is cut off', async () => {
    const cap = 16 * 1_048_576;
    const fake = await startFakeUpstream(() => ({
      status: 200,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(zeros(cap + 1)),
    }));
    const sandbox = await memorySandbox({ upstream: fake.base });
    try {
      await expectCutOff(sandbox, fake.base, await sandbox.app.request(`${AUDIT}/bomb`), cap);
    } finally {
      await sandbox.close();
      await fake.close();
    }
  });
});

describe('strange answers: 502 with the envelope, never a 500', () => {
  const json = '{"status":false,"message":"x","data":null}';
  /** An answer that says it is `coding` and is not. */
  const encoded = (coding: string) =>
    `HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-encoding: ${coding}\r\ncontent-length: 5\r\n\r\nhello`;
  // Each on a connection of its own (`connection: close`), as the raw upstream closes every one after its answer.
  const answers: Record<string, string> = {
    '999': `HTTP/1.1 999 Odd\r\nconnection: close\r\ncontent-length: ${json.length}\r\n\r\n${json}`,
    '101': 'HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n',
    garbage: 'GARBAGE\r\n\r\n',
    nothing: '',
    'bad-gzip': encoded('gzip'),
    'bad-deflate': encoded('deflate'),
    short:
      'HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"status"',
  };
  let raw: Awaited<ReturnType<typeof startRawUpstream>>;
  let sandbox: Sandbox;

  beforeAll(async () => {
    raw = await startRawUpstream((head) => answers[head.split(' ')[1]?.split('/').at(-1) ?? ''] ?? '');
    sandbox = await memorySandbox({ upstream: raw.base });
  });
  // The report keeps one finding per kind and place: each case reads its own.
  afterEach(() => call(sandbox, 'DELETE', '/__sandbox/drift'));
  afterAll(async () => {
    await sandbox.close();
    await raw.close();
  });

  it.each([
    ['999', 'answered status 999, which no answer to the app can have', { at: 'status', seen: '999' }],
    ['101', 'answered status 101, which no answer to the app can have', { at: 'status', seen: '101' }],
    ['garbage', 'did not answer: HPE_INVALID_CONSTANT', { at: 'connection', seen: 'HPE_INVALID_CONSTANT' }],
    ['nothing', 'did not answer: ECONNRESET', { at: 'connection', seen: 'ECONNRESET' }],
    ['bad-gzip', 'broke off its answer: Z_DATA_ERROR', { at: 'body', seen: 'Z_DATA_ERROR' }],
    ['bad-deflate', 'broke off its answer: Z_DATA_ERROR', { at: 'body', seen: 'Z_DATA_ERROR' }],
    ['short', 'broke off its answer: ECONNRESET', { at: 'body', seen: 'ECONNRESET' }],
  ])('%s: 502, and the report says what came', async (name, message, finding) => {
    const res = await call(sandbox, 'GET', `${AUDIT}/${name}`);
    expect(res).toMatchObject({
      status: 502,
      body: { status: false, message: `The upstream ${raw.base} ${message}` },
    });
    expect(await findingsOf(sandbox)).toContainEqual(
      expect.objectContaining({ kind: 'upstream-error', ...finding }),
    );
  });
});

describe('an answer that has no body (to HEAD, a 204, 205 or 304): its content-length is no body to cap', () => {
  const cap = 1024;
  /** A head that declares a body of 100 000 bytes, and sends none. */
  const declared = (status: string) =>
    `HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: 100000\r\nx-bank-trace: t1\r\n\r\n`;
  const statuses: Record<string, string> = {
    head: '200 OK',
    '204': '204 No Content',
    '205': '205 Reset Content',
    '304': '304 Not Modified',
    // The same head to a GET with a status that has a body: that body is past the cap.
    get: '200 OK',
  };
  let raw: Awaited<ReturnType<typeof startRawUpstream>>;
  let sandbox: Sandbox;

  beforeAll(async () => {
    raw = await startRawUpstream((head) =>
      declared(statuses[head.split(' ')[1]?.split('/').at(-1) ?? ''] ?? ''),
    );
    sandbox = await memorySandbox({ upstream: raw.base, upstreamMaxBody: cap });
  });
  afterAll(async () => {
    await sandbox.close();
    await raw.close();
  });

  it.each([
    ['HEAD', 'head', 200],
    ['GET', '204', 204],
    ['GET', '205', 205],
    ['GET', '304', 304],
  ])('%s answered %s: the status and headers go to the app, not a 502', async (method, name, status) => {
    const res = await sandbox.app.request(`${AUDIT}/${name}`, { method });
    expect(res.status).toBe(status);
    expect(res.headers.get('x-bank-trace')).toBe('t1');
    expect(await res.text()).toBe('');
  });

  it('a GET answered 200 with the same head is still cut off', async () => {
    await expectCutOff(sandbox, raw.base, await sandbox.app.request(`${AUDIT}/get`), cap);
  });
});

describe('a request body goes upstream only within the sandbox’s own bound on it', () => {
  const LIMIT = 1024;
  const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
  const BULK = '/api/v1/clients/business/customers/funds/bulk-transfer';
  /** A JSON body of exactly `size` bytes. */
  const bodyOf = (size: number) => {
    const body = JSON.stringify({ narration: '' });
    return JSON.stringify({ narration: 'n'.repeat(size - body.length) });
  };
  const tooLarge = { status: false, message: 'Request body too large', data: null };
  let fake: Awaited<ReturnType<typeof startFakeUpstream>>;
  let sandbox: RunningSandbox;

  beforeAll(async () => {
    fake = await startFakeUpstream(() => ({
      status: 200,
      body: { status: true, message: 'ok', data: null },
    }));
    sandbox = await startSandbox({
      inMemory: true,
      port: 0,
      quiet: true,
      log: () => undefined,
      upstream: fake.base,
      bodyLimit: LIMIT,
    });
  });
  afterEach(() => {
    fake.received.length = 0;
  });
  afterAll(async () => {
    await sandbox.close();
    await fake.close();
  });

  const post = (body: string, path = TRANSFER) =>
    sandbox.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('a body of --body-limit bytes is forwarded; one byte more is 413 with the envelope, the upstream never called', async () => {
    expect(bodyOf(LIMIT)).toHaveLength(LIMIT);
    expect((await post(bodyOf(LIMIT))).status).toBe(200);
    expect(fake.received.map((r) => r.body.length)).toEqual([LIMIT]);
    fake.received.length = 0;

    const res = await post(bodyOf(LIMIT + 1));
    expect(res.status).toBe(413);
    expect(errorEnvelope().parse(await res.json())).toEqual(tooLarge);
    expect(fake.received).toEqual([]);
  });

  it('over a socket too: by its Content-Length, or counted as a chunked body streams in', async () => {
    const sized = await fetch(`${sandbox.url}${TRANSFER}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodyOf(LIMIT + 1),
    });
    expect(sized.status).toBe(413);
    expect(await sized.json()).toEqual(tooLarge);
    // Answered before the body was read: the client is told not to reuse the connection.
    expect(sized.headers.get('connection')).toBe('close');
    const chunks = [bodyOf(LIMIT + 1).slice(0, 600), bodyOf(LIMIT + 1).slice(600)];
    const chunked = await fetch(`${sandbox.url}${TRANSFER}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toEqual(tooLarge);
    expect(fake.received).toEqual([]);
  });

  it('a route whose own bound is larger (a batch) takes the body it would take without --upstream', async () => {
    expect((await post(bodyOf(4 * LIMIT), BULK)).status).toBe(200);
    expect(fake.received.map((r) => r.body.length)).toEqual([4 * LIMIT]);
  });
});

describe('the path goes upstream byte for byte, and never outside the upstream’s base path', () => {
  let raw: Awaited<ReturnType<typeof startRawUpstream>>;
  let sandbox: RunningSandbox;
  const body = '{"status":false,"message":"Not found","data":null}';
  /** The request lines the upstream received. */
  const lines = () => raw.heads.map((head) => head.split('\r\n')[0]);
  /** Sends a request line (the rest of a plain GET) to the sandbox over a socket, as no `fetch` would. */
  const send = (target: string) =>
    rawExchange(sandbox.url, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);

  beforeAll(async () => {
    raw = await startRawUpstream(
      () =>
        `HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
    sandbox = await startSandbox({
      inMemory: true,
      port: 0,
      quiet: true,
      log: () => undefined,
      upstream: raw.base,
    });
  });
  afterEach(() => {
    raw.heads.length = 0;
  });
  afterAll(async () => {
    await sandbox.close();
    await raw.close();
  });

  it('%2e%2e%5c sequences go as sent, never decoded into ..\\ (which reached /admin)', async () => {
    const answer = await send('/api/v1/%2e%2e%5c%2e%2e%5cadmin?next=%2e%2e%2fx');
    expect(answer.status).toBe(404);
    expect(answer.body).toBe(body);
    expect(lines()).toEqual(['GET /bank/api/v1/%2e%2e%5c%2e%2e%5cadmin?next=%2e%2e%2fx HTTP/1.1']);
  });

  it('the same in absolute form, and from a request made in process', async () => {
    const { host } = new URL(sandbox.url);
    expect((await send(`http://${host}/api/v1/%2E%2E%5Cadmin`)).status).toBe(404);
    expect((await sandbox.app.request('/api/v1/%2e%2e%5c%2e%2e%5cadmin')).status).toBe(404);
    expect(lines()).toEqual([
      'GET /bank/api/v1/%2E%2E%5Cadmin HTTP/1.1',
      'GET /bank/api/v1/%2e%2e%5c%2e%2e%5cadmin HTTP/1.1',
    ]);
  });

  it('dot segments that stay under /api/v1 go as sent: the upstream resolves them inside its base', async () => {
    expect((await send('/api/v1/customers/../audits')).status).toBe(404);
    expect(lines()).toEqual(['GET /bank/api/v1/customers/../audits HTTP/1.1']);
  });

  it.each([
    '/api/v1/../v1/clients/business/audits',
    '/api/v1/x/../../v1/clients',
    '/x/../api/v1/clients/business/audits',
  ])(
    '%s, under /api/v1 only once resolved: 400 with the envelope, and nothing goes upstream',
    async (target) => {
      const answer = await send(target);
      expect(answer.status).toBe(400);
      expect(errorEnvelope().parse(JSON.parse(answer.body)).message).toBe(
        `The path ${target} is under /api/v1 only once its dot segments are resolved: a path goes upstream only as it was sent, and as sent this one would leave the upstream's base path`,
      );
      expect(lines()).toEqual([]);
    },
  );

  it('a path whose encoded dot segments resolve outside /api/v1 never reaches the upstream', async () => {
    const answer = await send('/api/v1/%2e%2e/%2e%2e/admin');
    expect(answer.status).toBe(404);
    expect(lines()).toEqual([]);
  });
});

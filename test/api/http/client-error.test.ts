import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../../src/contract/wire.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox.js';
import { type RawAnswer, rawExchange } from '../../support/raw-http.js';

// A request Node's HTTP parser refuses never reaches the app; it still gets the envelope and an `x-request-id`.
// A real server and raw sockets: the refusal is Node's, which neither `app.request()` nor `fetch`
// (which would not send such a request) reaches.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let sandbox: RunningSandbox;
const logged: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({
    inMemory: true,
    port: 0,
    quiet: true,
    logFormat: 'json',
    log: (line) => logged.push(line),
  });
});
afterAll(() => sandbox.close());

/** Sends `bytes` to the sandbox on a fresh connection and reads its whole answer. */
const exchange = (bytes: string) => rawExchange(sandbox.url, bytes);

/** The answer of a refused request: complete, closing, JSON, the envelope with `message`, and a fresh request id. */
function expectRefusal(answer: RawAnswer, status: number, message: string): string {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(answer.headers.get('connection')).toBe('close');
  expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(answer.body));
  expect(errorEnvelope().parse(JSON.parse(answer.body))).toEqual({ status: false, message, data: null });
  const requestId = answer.headers.get('x-request-id') ?? '';
  expect(requestId).toMatch(UUID);
  return requestId;
}

async function expectStillServing(): Promise<void> {
  const res = await fetch(`${sandbox.url}/__sandbox/health`);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ status: 'ok' });
}

describe('a request Node refuses before the app sees it', () => {
  it('headers over Node’s limit (a 32 KB header): 431 with the envelope and an x-request-id, and a log line', async () => {
    const big = `GET /api/v1/clients/business/account-details HTTP/1.1\r\nHost: localhost\r\nx-padding: ${'a'.repeat(32 * 1024)}\r\n\r\n`;
    const requestId = expectRefusal(await exchange(big), 431, 'Request headers too large');
    const events = logged.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((e) => e.requestId === requestId)).toEqual([
      expect.objectContaining({
        level: 'warn',
        event: 'http.client_error',
        status: 431,
        code: 'HPE_HEADER_OVERFLOW',
        message: 'Request headers too large',
      }),
    ]);
    await expectStillServing();
  });

  it.each([
    ['a request line that is not HTTP', 'GARBAGE\r\n\r\n'],
    ['a method with a space in its name', 'GE T / HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a header line with no colon', 'GET / HTTP/1.1\r\nHost: localhost\r\nno colon here\r\n\r\n'],
  ])('%s: 400 with the envelope and an x-request-id', async (_what, bytes) => {
    expectRefusal(await exchange(bytes), 400, 'Malformed HTTP request');
    await expectStillServing();
  });

  it('gives each refusal a request id of its own', async () => {
    const first = expectRefusal(await exchange('GARBAGE\r\n\r\n'), 400, 'Malformed HTTP request');
    const second = expectRefusal(await exchange('GARBAGE\r\n\r\n'), 400, 'Malformed HTTP request');
    expect(first).not.toBe(second);
  });

  it('after a good request on a keep-alive connection, a bad one on it still gets its own complete answer', async () => {
    const good = 'GET /__sandbox/health HTTP/1.1\r\nHost: localhost\r\n\r\n';
    const { port } = new URL(sandbox.url);
    const text = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(good));
      socket.on('data', (chunk) => {
        chunks.push(chunk);
        // The first answer is in: now the bad request, on the same connection.
        if (chunks.length === 1) socket.write('GARBAGE\r\n\r\n');
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    const second = text.indexOf('HTTP/1.1 400 ');
    expect(text.startsWith('HTTP/1.1 200 ')).toBe(true);
    expect(second).toBeGreaterThan(0);
    expect(text.slice(second)).toContain('{"status":false,"message":"Malformed HTTP request","data":null}');
    await expectStillServing();
  });
});

describe('a request Node parsed but no URL can be made of', () => {
  it.each([
    [
      'a backslash in the path',
      'GET /api/v1/a\\..\\admin HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      'Backslash in request path',
    ],
    [
      'backslashes that would climb above the API',
      'GET /api/v1\\..\\..\\etc HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
      'Backslash in request path',
    ],
  ])('%s: 400 with the envelope naming why, an x-request-id, and a log line', async (_, bytes, reason) => {
    const answer = await exchange(bytes);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/json');
    const message = `Malformed request target: ${reason}`;
    expect(errorEnvelope().parse(JSON.parse(answer.body))).toEqual({ status: false, message, data: null });
    const requestId = answer.headers.get('x-request-id') ?? '';
    expect(requestId).toMatch(UUID);
    const events = logged.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.filter((e) => e.requestId === requestId)).toEqual([
      expect.objectContaining({ level: 'warn', event: 'http.client_error', status: 400, message }),
    ]);
    await expectStillServing();
  });

  it('a backslash in the query is a query like any other', async () => {
    const answer = await exchange(
      'GET /__sandbox/health?x=a\\b HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    );
    expect(answer.status).toBe(200);
  });
});

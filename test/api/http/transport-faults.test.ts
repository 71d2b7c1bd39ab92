import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { harDocument, requestEntry } from '../../../src/contract/control/requests.js';
import { playFault } from '../../../src/http/transport-fault.js';
import { type RunningSandbox, type Sandbox, startSandbox } from '../../../src/sandbox.js';
import { pageOf } from '../../support/answers.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { call } from '../../support/sandbox.js';

// Transport faults (`effect.fault`): a real server, raw sockets and keep-alive pools, since what breaks is
// the connection, which `app.request()` never has. No test sleeps: each waits for the socket's own events, and each
// has the suite's guard against a hang.

const DETAILS = '/api/v1/clients/business/account-details';
const CUSTOMERS = '/api/v1/clients/business/customers';
const OK = {
  status: true,
  message: 'Account details retrieved successfully',
  data: { accountNumber: '0123456789' },
};
const OK_TEXT = JSON.stringify(OK);

const { open } = closedAfterEachTest();
const running: RunningSandbox[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
});

/** A sandbox on a port, its log kept. */
async function serve(): Promise<{ sandbox: RunningSandbox; lines: string[]; port: number }> {
  const lines: string[] = [];
  const sandbox = await startSandbox({ quiet: false, log: (line) => lines.push(line) });
  running.push(sandbox);
  return { sandbox, lines, port: Number(new URL(sandbox.url).port) };
}

type Rule = Record<string, unknown>;

/** Makes a scenario of `rules` the active one. */
async function useRules(sandbox: Sandbox, rules: Rule[]): Promise<void> {
  const res = await call(sandbox, 'PUT', '/__sandbox/scenario', {
    body: { name: 'faults', description: 'Made by a test', rules },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A rule that breaks `path`'s connection with `fault`; `extra` adds to its effect, and `times` limits it. */
function breaking(path: string, fault: Rule, { times, ...extra }: Rule = {}): Rule {
  return {
    on: 'http',
    match: { path: `${path}$` },
    effect: { fault, ...extra },
    ...(times === undefined ? {} : { times }),
  };
}
/** The custom answer every test's "good" request gets. */
const answering = (path: string): Rule => ({
  on: 'http',
  match: { path: `${path}$` },
  effect: { http: { status: 200, body: OK } },
});

/** An HTTP/1.1 answer read off a socket: status, headers, body as far as it came. */
interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: Buffer;
}

/** One client connection, read as raw bytes: what arrives, how it arrives, and how it ends. */
class Connection {
  readonly socket: net.Socket;
  private received = Buffer.alloc(0);
  /** `data` events so far: a body sent slowly comes in many. */
  reads = 0;
  /** The error the socket ended with (`ECONNRESET`), or null for a plain close; undefined while open. */
  ended: string | null | undefined = undefined;
  private readonly listeners = new Set<() => void>();

  private constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.reads++;
      this.changed();
    });
    this.socket.on('error', (error: NodeJS.ErrnoException) => {
      this.ended = error.code ?? error.message;
    });
    this.socket.on('close', () => {
      this.ended ??= null;
      this.changed();
    });
  }

  static async open(port: number): Promise<Connection> {
    const connection = new Connection(port);
    await new Promise((resolve) => connection.socket.once('connect', resolve));
    return connection;
  }

  private changed() {
    for (const listener of this.listeners) listener();
  }

  /** Resolves once `done` holds of what came so far (checked at each read and at the close). */
  private until<T>(done: () => T | undefined): Promise<T> {
    return new Promise((resolve) => {
      const check = () => {
        const value = done();
        if (value === undefined) return;
        this.listeners.delete(check);
        resolve(value);
      };
      this.listeners.add(check);
      check();
    });
  }

  /** Sends a GET (or another method without a body) of `path`. */
  get(path: string, method = 'GET'): void {
    this.socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  }

  /** Resolves once `reads` reads at least have come. */
  async readsAtLeast(reads: number): Promise<void> {
    await this.until(() => (this.reads >= reads ? true : undefined));
  }

  /** Everything received once the connection closed, and how it closed. */
  async closed(): Promise<{ bytes: Buffer; error: string | null }> {
    await this.until(() => (this.ended === undefined ? undefined : true));
    return { bytes: this.received, error: this.ended ?? null };
  }

  /** The next whole answer (by its Content-Length), taken off what was received. */
  async answer(): Promise<RawAnswer> {
    const answer = await this.until(() => {
      const parsed = parseAnswer(this.received);
      return parsed && parsed.body.length >= Number(parsed.headers.get('content-length') ?? 0)
        ? parsed
        : undefined;
    });
    const length = Number(answer.headers.get('content-length') ?? 0);
    this.received = this.received.subarray(this.received.indexOf('\r\n\r\n') + 4 + length);
    return { ...answer, body: answer.body.subarray(0, length) };
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The head and what came of the body; undefined until the head is whole. */
function parseAnswer(bytes: Buffer): RawAnswer | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: bytes.subarray(end + 4) };
}

/** What the journal shows of the answer to a request that got none: no status, no body. */
const NO_ANSWER = {
  status: 0,
  message: null,
  body: null,
  bodySize: null,
  contentType: null,
  truncated: false,
};

/** The journal's entries of `/api/v1`, newest first. */
async function journal(sandbox: Sandbox) {
  return pageOf(await call(sandbox, 'GET', '/__sandbox/requests?path=/api/v1'), requestEntry).data;
}

describe('each fault over a raw socket', () => {
  it('reset: the connection is reset, nothing answered; journaled and logged as a reset with no status', async () => {
    const { sandbox, lines, port } = await serve();
    await useRules(sandbox, [breaking(DETAILS, { kind: 'reset' })]);
    const connection = await Connection.open(port);
    connection.get(DETAILS);
    const { bytes, error } = await connection.closed();
    expect(error).toBe('ECONNRESET');
    expect(bytes.length).toBe(0);
    const [entry] = await journal(sandbox);
    expect(entry).toMatchObject({
      path: DETAILS,
      status: 0,
      fault: 'reset',
      scenario: { name: 'faults', rule: 0 },
    });
    // Not the 502 that stands in for it in process: nothing went out.
    expect(entry?.response).toEqual(NO_ANSWER);
    expect(lines.find((line) => line.includes(` ${DETAILS} `))).toMatch(/ 0 [\d.]+ms .* fault=reset$/);
  });

  it('empty: the connection is closed with no answer', async () => {
    const { sandbox, port } = await serve();
    await useRules(sandbox, [breaking(DETAILS, { kind: 'empty' })]);
    const connection = await Connection.open(port);
    connection.get(DETAILS);
    expect(await connection.closed()).toEqual({ bytes: Buffer.alloc(0), error: null });
    expect((await journal(sandbox))[0]).toMatchObject({ status: 0, fault: 'empty', response: NO_ANSWER });
  });

  it('garbage: bytes that are not HTTP, then the connection closed', async () => {
    const { sandbox, port } = await serve();
    await useRules(sandbox, [breaking(DETAILS, { kind: 'garbage' })]);
    const connection = await Connection.open(port);
    connection.get(DETAILS);
    const { bytes, error } = await connection.closed();
    expect(error).toBeNull();
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.toString('latin1')).not.toMatch(/^HTTP\//);
    expect((await journal(sandbox))[0]).toMatchObject({ status: 0, fault: 'garbage', response: NO_ANSWER });
  });

  it('truncated: the status, the headers and the whole length, half the body, then closed', async () => {
    const { sandbox, lines, port } = await serve();
    await useRules(sandbox, [breaking(DETAILS, { kind: 'truncated' }, { http: { status: 200, body: OK } })]);
    const connection = await Connection.open(port);
    connection.get(DETAILS);
    const { bytes, error } = await connection.closed();
    expect(error).toBeNull();
    const answer = parseAnswer(bytes);
    expect(answer?.status).toBe(200);
    expect(answer?.headers.get('content-length')).toBe(String(Buffer.byteLength(OK_TEXT)));
    expect(answer?.headers.get('x-sandbox-fault')).toBe('truncated');
    expect(answer?.headers.get('x-request-id')).toBeTruthy();
    expect(answer?.body.toString()).toBe(OK_TEXT.slice(0, Math.floor(OK_TEXT.length / 2)));
    // The journal has the answer the app made, and says it went out cut.
    const [entry] = await journal(sandbox);
    expect(entry).toMatchObject({ status: 200, fault: 'truncated' });
    expect(entry?.response.body).toEqual(OK);
    expect(lines.find((line) => line.includes(` ${DETAILS} `))).toMatch(/ 200 .* fault=truncated$/);
  });

  it('truncated cuts the route’s own answer too: the route ran, the answer broke', async () => {
    const { sandbox, port } = await serve();
    await useRules(sandbox, [breaking(DETAILS, { kind: 'truncated' })]);
    const connection = await Connection.open(port);
    connection.get(DETAILS);
    const answer = parseAnswer((await connection.closed()).bytes);
    expect(answer?.status).toBe(401);
    const length = Number(answer?.headers.get('content-length'));
    expect(answer?.body.length).toBe(Math.floor(length / 2));
  });

  it('truncated on an answer that has no body (a HEAD request): half its head, then closed', async () => {
    const { sandbox, port } = await serve();
    await useRules(sandbox, [breaking(DETAILS, { kind: 'truncated' }, { http: { status: 200, body: OK } })]);
    const connection = await Connection.open(port);
    connection.get(DETAILS, 'HEAD');
    const { bytes, error } = await connection.closed();
    expect(error).toBeNull();
    const text = bytes.toString('latin1');
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text).not.toContain('\r\n\r\n');
  });

  it('slowBody: the whole answer, a little at a time, on a connection that then takes the next request', async () => {
    const { sandbox, port } = await serve();
    await useRules(sandbox, [
      breaking(
        DETAILS,
        { kind: 'slowBody', bytesPerSecond: 200 },
        { http: { status: 200, body: OK }, times: 1 },
      ),
      answering(DETAILS),
    ]);
    const connection = await Connection.open(port);
    connection.get(DETAILS);
    const slow = await connection.answer();
    expect(slow.status).toBe(200);
    expect(slow.headers.get('x-sandbox-fault')).toBe('slowBody');
    expect(slow.body.toString()).toBe(OK_TEXT);
    // 20 bytes a tick: the body came in several reads after the head.
    expect(connection.reads).toBeGreaterThanOrEqual(Math.ceil(OK_TEXT.length / 20));
    connection.get(DETAILS);
    const next = await connection.answer();
    expect([next.status, JSON.parse(next.body.toString())]).toEqual([200, OK]);
    expect(next.headers.has('x-sandbox-fault')).toBe(false);
    connection.close();
    expect((await journal(sandbox)).map((e) => e.fault)).toEqual([null, 'slowBody']);
  });

  it('an error rule breaks an error answer: every 401 reset', async () => {
    const { sandbox, port } = await serve();
    await useRules(sandbox, [
      { on: 'error', match: { status: { min: 401, max: 401 } }, effect: { fault: { kind: 'reset' } } },
    ]);
    const connection = await Connection.open(port);
    connection.get(DETAILS);
    expect((await connection.closed()).error).toBe('ECONNRESET');
    // Neither the route's 401 nor the stand-in: no answer went out.
    expect((await journal(sandbox))[0]).toMatchObject({ status: 0, fault: 'reset', response: NO_ANSWER });
  });

  it('an isolated sandbox breaks its own connections, the root none', async () => {
    const { sandbox, port } = await serve();
    const isolated = await sandbox.isolate({ id: 'breaks' });
    await useRules(isolated, [breaking(DETAILS, { kind: 'reset' })]);
    const inside = await Connection.open(port);
    inside.get(`/sandboxes/breaks${DETAILS}`);
    expect((await inside.closed()).error).toBe('ECONNRESET');
    expect((await journal(isolated))[0]).toMatchObject({ path: DETAILS, status: 0, fault: 'reset' });
    const root = await Connection.open(port);
    root.get(DETAILS);
    expect((await root.answer()).status).toBe(401);
    root.close();
  });

  it('the HAR export says which fault, with the status 0 HAR gives no answer', async () => {
    const { sandbox, port } = await serve();
    await useRules(sandbox, [breaking(DETAILS, { kind: 'empty' })]);
    const connection = await Connection.open(port);
    connection.get(DETAILS);
    await connection.closed();
    const har = harDocument().parse(await (await fetch(`${sandbox.url}/__sandbox/requests.har`)).json());
    const entry = har.log.entries.find((e) => e.request.url.endsWith(DETAILS));
    expect(entry?._fault).toBe('empty');
    expect(entry?.response.status).toBe(0);
    // No body: the stand-in the app made was never sent.
    expect(entry?.response.content).toEqual({ size: 0, mimeType: 'application/octet-stream' });
  });
});

describe('a fault harms no other connection, route or sandbox', () => {
  it('a keep-alive connection opened before a reset answers after it', async () => {
    const { sandbox, port } = await serve();
    await useRules(sandbox, [breaking(CUSTOMERS, { kind: 'reset' }), answering(DETAILS)]);
    const kept = await Connection.open(port);
    kept.get(DETAILS);
    expect((await kept.answer()).status).toBe(200);
    const broken = await Connection.open(port);
    broken.get(CUSTOMERS);
    expect((await broken.closed()).error).toBe('ECONNRESET');
    kept.get(DETAILS);
    expect((await kept.answer()).status).toBe(200);
    kept.close();
  });

  it('a body dribbling out slowly holds up no other connection, and the sandbox goes on once its client goes', async () => {
    const { sandbox, port } = await serve();
    // One byte a second: the body would take a minute.
    await useRules(sandbox, [
      breaking(CUSTOMERS, { kind: 'slowBody', bytesPerSecond: 1 }, { http: { status: 200, body: OK } }),
      answering(DETAILS),
    ]);
    const slow = await Connection.open(port);
    slow.get(CUSTOMERS);
    const other = await Connection.open(port);
    other.get(DETAILS);
    expect((await other.answer()).status).toBe(200);
    slow.close();
    await slow.closed();
    other.get(DETAILS);
    expect((await other.answer()).status).toBe(200);
    other.close();
    // The sandbox goes on: its control API answers, and it closes cleanly (`afterEach`).
    expect((await fetch(`${sandbox.url}/__sandbox/health`)).status).toBe(200);
  });
});

describe('a body dribbling out stops when its client goes', () => {
  it('its timer is cleared as the connection closes', async () => {
    // Played on a plain Node server, so that the test holds the response and hears its close after the fault does.
    // The timer is the one `setInterval` gave the fault; whether it was cleared is read at that close, not by waiting
    // to see if another byte comes (a byte a second would take a while to miss).
    const started = vi.spyOn(globalThis, 'setInterval');
    const cleared = vi.spyOn(globalThis, 'clearInterval');
    let stopped: (timerCleared: boolean) => void = () => {};
    const atClose = new Promise<boolean>((resolve) => {
      stopped = resolve;
    });
    const server = http.createServer((_req, res) => {
      const answer = new Response(OK_TEXT, { headers: { 'content-type': 'application/json' } });
      playFault({ kind: 'slowBody', bytesPerSecond: 1 }, res, answer, Buffer.from(OK_TEXT));
      const timer = started.mock.results.at(-1)?.value;
      // Heard after the fault's own listener, which was added first.
      res.once('close', () =>
        stopped(timer !== undefined && cleared.mock.calls.some(([given]) => given === timer)),
      );
    });
    try {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as net.AddressInfo;
      const connection = await Connection.open(port);
      connection.get('/');
      // The head: the body's first byte is a second away, its last over a minute.
      await connection.readsAtLeast(1);
      connection.close();
      expect(await atClose).toBe(true);
    } finally {
      started.mockRestore();
      cleared.mockRestore();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('a keep-alive pool recovers on its next request', () => {
  const faults = [{ kind: 'reset' }, { kind: 'empty' }, { kind: 'garbage' }, { kind: 'truncated' }];
  /** Breaks the second request alone: the first opens the pool's connection, the third finds it gone. */
  const secondOnly = (fault: Rule): Rule => ({
    ...breaking(DETAILS, fault, {
      times: 1,
      ...(fault.kind === 'truncated' ? { http: { status: 200, body: OK } } : {}),
    }),
    match: { path: `${DETAILS}$`, everyNth: 2 },
  });

  it.each(faults)("Node's fetch (undici), after $kind", async (fault) => {
    const { sandbox } = await serve();
    await useRules(sandbox, [secondOnly(fault), answering(DETAILS)]);
    const get = () => fetch(`${sandbox.url}${DETAILS}`).then(async (res) => [res.status, await res.json()]);
    expect(await get()).toEqual([200, OK]);
    await expect(get()).rejects.toThrow();
    expect(await get()).toEqual([200, OK]);
  });

  it.each(faults)("Node's http.Agent with one keep-alive socket, after $kind", async (fault) => {
    const { sandbox } = await serve();
    await useRules(sandbox, [secondOnly(fault), answering(DETAILS)]);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(`${sandbox.url}${DETAILS}`, { agent }, (res) => {
          res.on('error', reject);
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
      });
    try {
      expect(await get()).toBe(200);
      await expect(get()).rejects.toThrow();
      expect(await get()).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('in process, where there is no connection to break', () => {
  it('reset, empty and garbage answer 502 saying which fault it would have been', async () => {
    const sandbox = await open();
    for (const kind of ['reset', 'empty', 'garbage']) {
      await useRules(sandbox, [breaking(DETAILS, { kind })]);
      const res = await call(sandbox, 'GET', DETAILS);
      expect(res.status).toBe(502);
      expect(res.headers.get('x-sandbox-fault')).toBe(kind);
      expect(res.body).toMatchObject({ status: false, data: null });
      expect(String(res.body.message)).toContain(`Transport fault "${kind}"`);
    }
    expect((await journal(sandbox)).map((e) => [e.status, e.fault])).toEqual([
      [502, 'garbage'],
      [502, 'empty'],
      [502, 'reset'],
    ]);
  });

  it('truncated answers 502 saying what would have been cut; slowBody answers whole, the fault named', async () => {
    const sandbox = await open();
    await useRules(sandbox, [
      breaking(DETAILS, { kind: 'truncated' }, { http: { status: 200, body: OK } }),
      breaking(CUSTOMERS, { kind: 'slowBody', bytesPerSecond: 1 }, { http: { status: 200, body: OK } }),
    ]);
    const cut = await call(sandbox, 'GET', DETAILS);
    expect([cut.status, cut.headers.get('x-sandbox-fault')]).toEqual([502, 'truncated']);
    const bytes = Buffer.byteLength(OK_TEXT);
    expect(cut.body.message).toBe(
      `Transport fault "truncated" of the scenario: over a connection, the answer (200, ${bytes} bytes) would be cut off after ${Math.floor(bytes / 2)} bytes`,
    );
    const slow = await call(sandbox, 'GET', CUSTOMERS);
    expect([slow.status, slow.headers.get('x-sandbox-fault'), slow.body]).toEqual([200, 'slowBody', OK]);
    expect((await journal(sandbox)).map((e) => [e.status, e.fault])).toEqual([
      [200, 'slowBody'],
      [502, 'truncated'],
    ]);
  });
});

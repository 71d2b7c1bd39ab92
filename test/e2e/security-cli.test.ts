import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlContracts } from '../../src/contract/control/index.js';
import { stateExport } from '../../src/contract/control/state.js';
import { deepDeliveryImport } from '../support/deep-import.js';
import { type SandboxProcess, startProcess, stop } from '../support/process.js';
import { A } from '../support/sandbox.js';

// The same checks as test/api/http/security.test.ts where the real process differs from app.request(): headers are
// read from Node's request, paths arrive exactly as sent (no URL normalisation by a client), and a stack
// overflow would take the whole process down.

const TOKEN = 't0ken';
const SENTINEL = 'SENTINEL-must-never-be-served';
const DEPTH = 100_000;

let dir: string;
let p: SandboxProcess;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-security-'));
  // Files a traversal out of uploads/<businessId>/ would reach.
  await mkdir(join(dir, 'uploads', A.a1.id), { recursive: true });
  await writeFile(join(dir, 'sentinel.png'), SENTINEL);
  await writeFile(join(dir, 'uploads', 'sentinel.png'), SENTINEL);
  await writeFile(join(dir, 'uploads', A.a1.id, '.hidden'), SENTINEL);
  p = await startProcess(['--data', join(dir, 'db.json'), '--control-token', TOKEN, '--quiet']);
});
afterAll(async () => {
  if (p && p.child.exitCode === null && p.child.signalCode === null) await stop(p, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** A request whose path is sent byte for byte as given (fetch would resolve `..` first). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; text: string }> {
  const url = new URL(p.url);
  return new Promise((resolve, reject) => {
    const req = request(
      // A connection of its own: a refusal that leaves a body unread may end the connection.
      { host: url.hostname, port: url.port, method, path, headers, agent: false },
      (res) => {
        // An event stream (the dashboard's feed) never ends by itself: its status is the answer.
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, text: '' });
          return;
        }
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function expectAlive(after: string): Promise<void> {
  expect(p.child.exitCode, after).toBeNull();
  const health = await raw('GET', '/__sandbox/health', { 'x-sandbox-token': TOKEN });
  expect(health.status, `health after ${after}`).toBe(200);
}

describe('the real process', () => {
  it.each([
    '/uploads/../db.json',
    '/uploads/../../db.json',
    `/uploads/${A.a1.id}/../../db.json`,
    `/uploads/${A.a1.id}/../../sentinel.png`,
    `/uploads/${A.a1.id}/..%2F..%2Fdb.json`,
    `/uploads/${A.a1.id}/..%2F..%2Fsentinel.png`,
    `/uploads/${A.a1.id}/%2e%2e%2f%2e%2e%2fsentinel.png`,
    `/uploads/${A.a1.id}/..%5C..%5Csentinel.png`,
    '/uploads/..%2F/x',
    '/uploads/..%2F/sentinel.png',
    '/uploads/%2e%2e/sentinel.png',
    '/uploads/../sentinel.png',
    `/uploads/${A.a1.id}/.hidden`,
  ])('GET %s (path sent as is) answers 404 and serves no file', async (path) => {
    const res = await raw('GET', path);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toMatchObject({ status: false, data: null });
    expect(res.text).not.toContain(SENTINEL);
    expect(res.text).not.toContain('jwtSecret');
  });

  it.each([
    ['[[[...]]]', '['.repeat(DEPTH) + ']'.repeat(DEPTH)],
    ['{"a":{"a":...}}', `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`],
  ])('%s, 100 000 levels: a 4xx, and the process still answers', async (_label, body) => {
    const json = { 'content-type': 'application/json' };
    const routes: [string, string, Record<string, string>][] = [
      ['POST', '/api/v1/auth/signin', json],
      ['POST', '/api/v1/clients/business/customers/funds/bulk-transfer', json],
      ['PUT', '/__sandbox/state', { ...json, 'x-sandbox-token': TOKEN }],
      ['PUT', '/__sandbox/scenario', { ...json, 'x-sandbox-token': TOKEN }],
    ];
    for (const [method, path, headers] of routes) {
      const res = await raw(method, path, headers, body);
      expect(res.status, `${method} ${path}: ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${method} ${path}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      await expectAlive(`${method} ${path}`);
    }
  });

  it('a state import with a 100 000-level value in a stored field does not take the process down', async () => {
    const headers = { 'content-type': 'application/json', 'x-sandbox-token': TOKEN };
    const exported = await raw('GET', '/__sandbox/state', headers);
    expect(exported.status).toBe(200);
    const doc = stateExport().parse(JSON.parse(exported.text));
    const body = deepDeliveryImport(doc, DEPTH);
    await raw('PUT', '/__sandbox/state', headers, body);
    // The answer itself is checked in test/api/http/security.test.ts; here: the process is still there.
    await expectAlive('the deep state import');
  });

  it('--control-token: every control route answers 401 without x-sandbox-token or with a wrong one', async () => {
    for (const op of controlContracts) {
      const path = `/__sandbox${op.path.replace(/\{(\w+)\}/g, (_m, name: string) => op.params?.[name]?.example ?? 'unknown-id')}`;
      const label = `${op.method.toUpperCase()} ${path}`;
      for (const headers of [{}, { 'x-sandbox-token': 'wrong' }, { 'x-sandbox-token': 't0ke' }] as Record<
        string,
        string
      >[]) {
        const res = await raw(op.method.toUpperCase(), path, headers);
        expect(res.status, `${label} with ${JSON.stringify(headers)}`).toBe(401);
      }
      // Read-only routes with the token: let through (the others were shown in process; they change the state).
      if (op.method === 'get') {
        const res = await raw('GET', path, { 'x-sandbox-token': TOKEN });
        expect(res.status, label).not.toBe(401);
      }
    }
    const signin = await raw(
      'POST',
      '/api/v1/auth/signin',
      { 'content-type': 'application/json' },
      JSON.stringify({ email: A.owner.email, password: A.owner.password }),
    );
    expect(signin.status).toBe(200);
  });
});

describe('--control-token: a call the dashboard’s cookie authenticates meets the cross-site rules (CSRF)', () => {
  /** The dashboard's cookie, as the page takes the token: `?token=` answered 303 with it. */
  async function cookie(): Promise<string> {
    const res = await new Promise<{ status: number; setCookie: string }>((resolve, reject) => {
      const url = new URL(p.url);
      const req = request(
        { host: url.hostname, port: url.port, path: `/__sandbox/ui?token=${TOKEN}`, agent: false },
        (r) => {
          r.resume();
          resolve({ status: r.statusCode ?? 0, setCookie: String(r.headers['set-cookie'] ?? '') });
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(303);
    return res.setCookie.split(';')[0] ?? '';
  }

  it('a form of another port of the same host is refused, and changes nothing; the page’s own calls go on', async () => {
    const jar = await cookie();
    const { host } = new URL(p.url);
    const otherPort = `http://${host.split(':')[0]}:3000`;
    const before = (await raw('GET', '/__sandbox/credentials', { 'x-sandbox-token': TOKEN })).text;
    const form = {
      cookie: jar,
      host,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': '0',
    };
    const attempts: [string, string, Record<string, string>, number][] = [
      // A <form> with no fields, posted from another port: same site, not same origin.
      ['POST', '/__sandbox/reset', { ...form, origin: otherPort, 'sec-fetch-site': 'same-site' }, 403],
      ['POST', '/__sandbox/reset', { ...form, origin: otherPort }, 403],
      // The same form with no Origin (an old browser, a privacy extension): its type gives it away.
      ['POST', '/__sandbox/reset', form, 415],
      ['POST', `/__sandbox/clients/${A.id}/rotate-secret`, { ...form, 'content-type': 'text/plain' }, 415],
      // A read from another port is refused too: it would be a cross-origin read of every secret.
      ['GET', '/__sandbox/credentials', { cookie: jar, host, origin: otherPort }, 403],
    ];
    for (const [method, path, headers, status] of attempts) {
      const res = await raw(method, path, headers);
      expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(status);
    }
    expect((await raw('GET', '/__sandbox/credentials', { 'x-sandbox-token': TOKEN })).text).toBe(before);
    // The dashboard's own calls: same origin, JSON or no body.
    const own = { cookie: jar, host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' };
    expect((await raw('GET', '/__sandbox/credentials', own)).status).toBe(200);
    expect(
      (
        await raw(
          'POST',
          '/__sandbox/clock/freeze',
          { ...own, 'content-type': 'application/json' },
          '{"frozen":false}',
        )
      ).status,
    ).toBe(200);
    // Code's calls carry the token in a header, which no page can send: no origin rule for them.
    expect(
      (await raw('POST', '/__sandbox/clock/freeze', { 'x-sandbox-token': TOKEN, origin: otherPort })).status,
    ).toBe(200);
    // The token page's own form still takes the token, with a cookie already there or not.
    const tokenForm = `token=${TOKEN}`;
    const extras: Record<string, string>[] = [{}, { cookie: jar }];
    for (const extra of extras) {
      const res = await raw(
        'POST',
        '/__sandbox/ui',
        {
          ...extra,
          host,
          origin: `http://${host}`,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(tokenForm.length),
        },
        tokenForm,
      );
      expect(res.status, JSON.stringify(extra)).toBe(303);
    }
  });
});

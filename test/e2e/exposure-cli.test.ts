// On the real process: the Host and cross-site rules as Node hands the headers over, and
// what start-up says of where it listens and what it exposes.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxProcess, startProcess, stop } from '../support/process.js';
import { A } from '../support/sandbox.js';

let local: SandboxProcess;
let exposed: SandboxProcess;

beforeAll(async () => {
  [local, exposed] = await Promise.all([
    startProcess(['--in-memory', '--quiet']),
    startProcess(['--in-memory', '--host', '0.0.0.0']),
  ]);
});
afterAll(async () => {
  await Promise.all([local && stop(local), exposed && stop(exposed)]);
});

/** A request with exactly these headers (Host included: fetch would not send another one). */
function raw(
  p: SandboxProcess,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const url = new URL(p.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method, path, headers, agent: false },
      (res) => {
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

describe('listening on 127.0.0.1 without a token', () => {
  it('answers a Host that is not its own 403 without a secret (DNS rebinding), and its own names 200', async () => {
    const { port } = new URL(local.url);
    const rebound = await raw(local, 'GET', '/__sandbox/credentials', { host: `attacker.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.text).not.toContain(A.secretKey);
    expect(JSON.parse(rebound.text)).toMatchObject({ status: false, data: null });
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      const own = await raw(local, 'GET', '/__sandbox/credentials', { host });
      expect(own.status, host).toBe(200);
      expect(own.text).toContain(A.secretKey);
    }
  });

  it('refuses a cross-site form posted to reset 403, and a same-site form or text/plain body 415', async () => {
    const { host } = new URL(local.url);
    const form = { host, 'content-type': 'application/x-www-form-urlencoded', 'content-length': '3' };
    const crossSite = await raw(
      local,
      'POST',
      '/__sandbox/reset',
      { ...form, origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site' },
      'a=1',
    );
    expect(crossSite.status).toBe(403);
    expect((await raw(local, 'POST', '/__sandbox/reset', form, 'a=1')).status).toBe(415);
    const plain = { host, 'content-type': 'text/plain', 'content-length': '1' };
    expect((await raw(local, 'POST', `/__sandbox/clients/${A.id}/rotate-secret`, plain, 'x')).status).toBe(
      415,
    );
    // Nothing was rotated: the fixture key still signs in to get-keys.
    const own = await raw(local, 'GET', '/__sandbox/credentials', { host });
    expect(own.text).toContain(A.secretKey);
    // JSON, or no body: the way tests and the dashboard call it.
    expect((await raw(local, 'POST', '/__sandbox/reset', { host })).status).toBe(200);
  });

  it('says it listens on this machine only, and warns of nothing', () => {
    expect(local.stdout()).not.toMatch(/open to the network/);
  });
});

describe('listening on 0.0.0.0 without a token', () => {
  it('warns at start-up what is exposed and how to close it, and the banner says where it listens', () => {
    const out = exposed.stdout();
    const { port } = new URL(exposed.url);
    expect(out).toMatch(
      new RegExp(
        `the control API is open to the network: listening on 0\\.0\\.0\\.0:${port} without --control-token, .*set --control-token \\(SANDBOX_CONTROL_TOKEN\\) to close it`,
      ),
    );
    expect(out).toContain(`  address:  0.0.0.0:${port} (open to the network)`);
  });

  it('answers the names a network uses (a compose service, an IP address, loopback), on every path', async () => {
    for (const host of ['sandbox:4010', '172.17.0.2:4010', `127.0.0.1:${new URL(exposed.url).port}`]) {
      expect((await raw(exposed, 'GET', '/__sandbox/health', { host })).status, host).toBe(200);
      expect(
        (
          await raw(
            exposed,
            'POST',
            '/api/v1/auth/signin',
            { host, 'content-type': 'application/json' },
            JSON.stringify(A.owner),
          )
        ).status,
        host,
      ).toBe(200);
    }
  });

  it('answers a rebound name 403 on every path, the bank API and the dashboard included (DNS rebinding)', async () => {
    const host = `attacker.example:${new URL(exposed.url).port}`;
    for (const [method, path] of [
      ['GET', '/__sandbox/credentials'],
      ['POST', '/__sandbox/reset'],
      ['GET', '/__sandbox/ui'],
      ['GET', '/__sandbox/state'],
      ['GET', '/api/v1/clients/business/account-details'],
      ['GET', '/openapi.json'],
      ['GET', '/sandboxes/any/__sandbox/credentials'],
    ] as const) {
      const res = await raw(exposed, method, path, { host });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.text).not.toContain(A.secretKey);
      expect(JSON.parse(res.text).message).toContain(
        'a single-label name (a compose service such as sandbox)',
      );
    }
  });

  it('with --allowed-hosts, also that name', async () => {
    const named = await startProcess([
      '--in-memory',
      '--quiet',
      '--host',
      '0.0.0.0',
      '--allowed-hosts',
      'bank.example.test',
    ]);
    try {
      const { port } = new URL(named.url);
      expect(
        (await raw(named, 'GET', '/__sandbox/health', { host: `bank.example.test:${port}` })).status,
      ).toBe(200);
      expect(
        (await raw(named, 'GET', '/__sandbox/health', { host: `other.example.test:${port}` })).status,
      ).toBe(403);
    } finally {
      await stop(named);
    }
  });
});

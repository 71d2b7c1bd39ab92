// Without --control-token, no page of another site can drive the control API (a
// cross-site form or script), and no page can reach the sandbox by a name that is not its own (DNS rebinding).

import { describe, expect, it } from 'vitest';
import { credentials } from '../../../src/contract/control/clients.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { A, call, memorySandbox, useSandbox } from '../../support/sandbox.js';

const ATTACKER = 'attacker.example';
const OWN = 'localhost:4010';

/** The whole state, as text: a refusal leaves it exactly as it was. */
const stateOf = (sandbox: Sandbox) => JSON.stringify(sandbox.store.exportState());

describe('a sandbox on a loopback address without a token', () => {
  const sandbox = useSandbox({ host: '127.0.0.1', allowedHosts: ['sandbox.test'] });

  it('answers a Host that is not its own 403, on every path, and gives nothing away', async () => {
    for (const path of [
      '/__sandbox/credentials',
      '/api/v1/auth/signin',
      '/docs',
      '/__sandbox/ui',
      '/nowhere',
    ]) {
      const res = await call(sandbox, 'GET', path, { headers: { host: `${ATTACKER}:4010` } });
      expect(res.status, path).toBe(403);
      expect(res.body).toEqual({
        status: false,
        message: expect.stringMatching(/^Host "attacker\.example:4010" is not allowed: .*--allowed-hosts/),
        data: null,
      });
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
    const rebound = await call(sandbox, 'GET', '/__sandbox/credentials', { headers: { host: ATTACKER } });
    expect(JSON.stringify(rebound.body)).not.toContain(A.secretKey);
  });

  it('answers its own names and those of --allowed-hosts', async () => {
    for (const host of [OWN, '127.0.0.1:4010', '[::1]:4010', 'localhost', 'Sandbox.Test:4010']) {
      const res = await call(sandbox, 'GET', '/__sandbox/credentials', { headers: { host } });
      expect(res.status, host).toBe(200);
      expect(dataOf(res, credentials).clients.length).toBeGreaterThan(0);
    }
  });

  it('refuses a control call from another origin 403, and changes nothing', async () => {
    const before = stateOf(sandbox);
    for (const [method, path] of [
      ['POST', '/__sandbox/reset'],
      ['POST', `/__sandbox/clients/${A.id}/rotate-secret`],
      ['POST', `/__sandbox/businesses/${A.a2.id}/approve`],
      ['GET', '/__sandbox/credentials'],
    ] as const) {
      for (const headers of <Record<string, string>[]>[
        { host: OWN, origin: `http://${ATTACKER}` },
        { host: OWN, origin: 'http://localhost:3000', 'sec-fetch-site': 'same-site' },
        { host: OWN, origin: 'null' },
        { host: OWN, 'sec-fetch-site': 'cross-site' },
      ]) {
        const res = await call(sandbox, method, path, { headers });
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.body.message).toMatch(/^Control calls from another origin are refused/);
      }
    }
    expect(stateOf(sandbox)).toBe(before);
  });

  it('refuses a form or text/plain body on a call that changes state 415 (what a cross-site form sends), and changes nothing', async () => {
    const before = stateOf(sandbox);
    for (const [method, path, contentType, body] of [
      ['POST', '/__sandbox/reset', 'application/x-www-form-urlencoded', 'a=1'],
      ['POST', '/__sandbox/reset', 'text/plain', 'x'],
      ['POST', `/__sandbox/clients/${A.id}/rotate-secret`, 'application/x-www-form-urlencoded', 'a=1'],
      ['POST', `/__sandbox/businesses/${A.a2.id}/approve`, 'text/plain', 'x'],
      ['PUT', `/__sandbox/businesses/${A.a1.id}/balance`, 'text/plain', '{"balance":1}'],
      ['PUT', '/__sandbox/state', 'text/plain', before],
    ] as const) {
      const res = await call(sandbox, method, path, {
        headers: { host: OWN, 'content-type': contentType },
        body,
      });
      expect(res.status, `${method} ${path} ${contentType}`).toBe(415);
      expect(res.body.message).toMatch(
        /^Content-Type must be application\/json: a control call that changes state/,
      );
    }
    expect(stateOf(sandbox)).toBe(before);
  });

  it('keeps working for its own pages and for clients that send no Origin: JSON or no body', async () => {
    const page = await call(sandbox, 'GET', '/__sandbox/ui', {
      headers: { host: OWN, 'sec-fetch-site': 'none', accept: 'text/html' },
    });
    expect(page.status).toBe(200);
    // What the dashboard's buttons send: a same-origin fetch with a JSON body, or none.
    const sameOrigin = { host: OWN, origin: `http://${OWN}`, 'sec-fetch-site': 'same-origin' };
    const balance = await call(sandbox, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, {
      headers: sameOrigin,
      body: { balance: 123 },
    });
    expect(balance.status).toBe(200);
    expect((await call(sandbox, 'POST', '/__sandbox/reset', { headers: sameOrigin })).status).toBe(200);
    // A test's client: no Origin, no Host in the process.
    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect((await call(sandbox, 'POST', '/__sandbox/clients', { body: {} })).status).toBe(201);
  });
});

describe('with --control-token, or listening on an address other machines reach', () => {
  it('the token guards the control API: another Host and another origin meet its 401, not these rules', async () => {
    const sandbox = await memorySandbox({ host: '127.0.0.1', controlToken: 'T' });
    const foreign = await call(sandbox, 'GET', '/__sandbox/credentials', { headers: { host: ATTACKER } });
    expect(foreign.status).toBe(401);
    const withToken = await call(sandbox, 'POST', '/__sandbox/reset', {
      headers: { host: ATTACKER, origin: `http://${ATTACKER}`, 'x-sandbox-token': 'T' },
    });
    expect(withToken.status).toBe(200);
    expect(
      (await call(sandbox, 'GET', '/api/v1/clients/business', { headers: { host: ATTACKER } })).status,
    ).toBe(401);
    await sandbox.close();
  });

  it('listening on 0.0.0.0 the user chose to expose it: any Host is answered', async () => {
    const sandbox = await memorySandbox({ host: '0.0.0.0' });
    const res = await call(sandbox, 'GET', '/__sandbox/credentials', { headers: { host: 'sandbox:4010' } });
    expect(res.status).toBe(200);
    await sandbox.close();
  });
});

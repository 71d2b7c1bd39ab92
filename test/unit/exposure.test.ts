import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.js';
import {
  type ControlRequest,
  controlRefusal,
  hostCheck,
  listensOnLoopback,
} from '../../src/http/exposure.js';

describe('listensOnLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.0.0.2', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['my-laptop', false],
  ])('%s: %s', (host, loopback) => {
    expect(listensOnLoopback(host)).toBe(loopback);
  });
});

describe('hostCheck', () => {
  const check = (settings: Parameters<typeof resolveConfig>[0]) => hostCheck(resolveConfig(settings));

  it('passes loopback names and addresses, with a port or not, and no Host at all; refuses any other name', () => {
    const allowed = check({ host: '127.0.0.1' });
    if (!allowed) throw new Error('a loopback sandbox without a token checks the Host');
    for (const host of [
      'localhost',
      'localhost:4010',
      'LocalHost:4010',
      'app.localhost:4010',
      '127.0.0.1:4010',
      '127.1',
      '[::1]:4010',
      undefined,
    ])
      expect(allowed(host), String(host)).toBe(true);
    for (const host of [
      'attacker.example',
      'attacker.example:4010',
      '127.0.0.1.nip.io',
      '192.168.1.20:4010',
      '0.0.0.0:4010',
      'localhost.attacker.example',
      '',
      'not a host',
    ])
      expect(allowed(host), host).toBe(false);
  });

  it('passes the names of --allowed-hosts, in any case', () => {
    const allowed = check({ host: '127.0.0.1', allowedHosts: ['Sandbox.Test', 'ci-runner'] });
    expect(allowed?.('sandbox.test:4010')).toBe(true);
    expect(allowed?.('CI-RUNNER')).toBe(true);
    expect(allowed?.('other.test')).toBe(false);
    expect(resolveConfig({ allowedHosts: [' a.test ', '', 'B.test'] }).allowedHosts).toEqual([
      'a.test',
      'b.test',
    ]);
  });

  it('checks nothing with a control token, on any address', () => {
    expect(check({ host: '127.0.0.1', controlToken: 't' })).toBeNull();
    expect(check({ host: '0.0.0.0', controlToken: 't' })).toBeNull();
  });

  it.each(['0.0.0.0', '::', '192.168.1.20'])(
    'listening on %s: also IP addresses and single-label names (compose services); no other name',
    (host) => {
      const allowed = check({ host, allowedHosts: ['bank.internal'] });
      if (!allowed) throw new Error('a sandbox off loopback without a token checks the Host too');
      for (const name of [
        'localhost:4010',
        '127.0.0.1',
        'sandbox:4010',
        'bank-sandbox',
        'Sandbox',
        '172.17.0.2:4010',
        '192.168.1.20',
        '[fd00::2]:4010',
        'bank.internal:4010',
        undefined,
      ])
        expect(allowed(name), String(name)).toBe(true);
      for (const name of [
        'attacker.example',
        'attacker.example:4010',
        '172.17.0.2.nip.io',
        'sandbox.attacker.example',
        '-sandbox',
        '',
        'not a host',
      ])
        expect(allowed(name), name).toBe(false);
    },
  );
});

describe('controlRefusal', () => {
  const request = (over: Partial<ControlRequest>): ControlRequest => ({
    method: 'POST',
    host: 'localhost:4010',
    origin: undefined,
    fetchSite: undefined,
    contentType: undefined,
    hasBody: false,
    ...over,
  });

  it('lets the sandbox’s own pages and clients without an Origin through, with JSON or no body', () => {
    for (const r of [
      request({}),
      request({ contentType: 'application/json', hasBody: true }),
      request({ contentType: 'application/json; charset=utf-8', hasBody: true }),
      request({ contentType: 'application/merge-patch+json', hasBody: true }),
      request({ origin: 'http://localhost:4010', fetchSite: 'same-origin', contentType: 'application/json' }),
      request({ method: 'GET', fetchSite: 'none' }),
      request({ method: 'GET', contentType: 'text/plain', hasBody: true }),
    ])
      expect(controlRefusal(r), JSON.stringify(r)).toBeNull();
  });

  it('refuses another origin (403), whatever the method or body', () => {
    for (const r of [
      request({ origin: 'http://attacker.example' }),
      request({ origin: 'http://localhost:3000', fetchSite: 'same-site' }),
      request({ origin: 'null', contentType: 'application/json', hasBody: true }),
      request({ method: 'GET', origin: 'https://attacker.example' }),
      request({ fetchSite: 'cross-site' }),
      request({ method: 'GET', fetchSite: 'cross-site' }),
      request({ fetchSite: 'same-site' }),
      request({ origin: 'http://localhost:4010', host: undefined }),
    ])
      expect(controlRefusal(r)?.status, JSON.stringify(r)).toBe(403);
  });

  it('refuses a body other than JSON on a call that changes state (415): what a cross-site form sends', () => {
    for (const [method, contentType] of [
      ['POST', 'application/x-www-form-urlencoded'],
      ['POST', 'multipart/form-data; boundary=x'],
      ['PUT', 'text/plain'],
      ['DELETE', 'text/plain;charset=UTF-8'],
      ['PATCH', undefined],
    ] as const) {
      const refusal = controlRefusal(request({ method, contentType, hasBody: true }));
      expect(refusal?.status, `${method} ${contentType}`).toBe(415);
      expect(refusal?.message).toMatch(
        /^Content-Type must be application\/json: a control call that changes state/,
      );
    }
  });

  it('refuses a form or text/plain type with no body at all (a <form> with no fields): 415', () => {
    for (const contentType of [
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
    ])
      expect(controlRefusal(request({ contentType, hasBody: false }))?.status, contentType).toBe(415);
    // No type and no body, or JSON with none: the way tests and the dashboard call.
    expect(controlRefusal(request({ hasBody: false }))).toBeNull();
    expect(controlRefusal(request({ contentType: 'application/json', hasBody: false }))).toBeNull();
  });

  it('holds the dashboard’s own token form to the origin rules only', () => {
    const form = { contentType: 'application/x-www-form-urlencoded', hasBody: true, tokenForm: true };
    expect(controlRefusal(request(form))).toBeNull();
    expect(controlRefusal(request({ ...form, origin: 'http://localhost:3000' }))?.status).toBe(403);
  });
});

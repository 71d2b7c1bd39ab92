import { describe, expect, it, vi } from 'vitest';
import { errorEnvelope } from '../../../src/contract/wire.js';
import { bodyOf } from '../../support/answers.js';
import { A, call, memorySandbox, schemeA, tokenFor } from '../../support/sandbox.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SIGNIN = '/api/v1/auth/signin';

/** Text that would betray a stack trace or an internal error object. */
function expectNoStack(body: unknown): void {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/\bat .+:\d+:\d+/);
  expect(text).not.toMatch(/\.(ts|js):\d+/);
  expect(text).not.toContain('"stack"');
  expect(text).not.toContain('node_modules');
}

function expectErrorEnvelope(body: Record<string, unknown>, message?: string): void {
  expect(body.status).toBe(false);
  expect(typeof body.message).toBe('string');
  expect(body.message).not.toBe('');
  expect(body.data).toBeNull();
  if (message !== undefined) expect(body.message).toBe(message);
  expectNoStack(body);
}

async function sandboxWithLog(options: { bodyLimit?: number } = {}) {
  const lines: string[] = [];
  const sandbox = await memorySandbox({ ...options, log: (line) => lines.push(line) });
  return { sandbox, lines };
}

describe('envelope', () => {
  it('wraps a success in {status: true, message, data}', async () => {
    const sandbox = await memorySandbox();
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: A.owner.password },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.status).toBe(true);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.message).not.toBe('');
    expect(res.body.data).toEqual(expect.objectContaining({ accessToken: expect.any(String) }));
  });

  it('wraps a list in the envelope with pagination beside data', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    const res = await call(sandbox, 'GET', '/api/v1/clients/business', {
      headers: schemeA(token, A.secretKey, A.a1.id),
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'pagination', 'status']);
    expect(res.body.status).toBe(true);
    expect(Array.isArray(res.body.data)).toBe(true);
  });

  it('wraps an error in {status: false, message, data: null} and nothing else', async () => {
    const sandbox = await memorySandbox();
    const res = await call(sandbox, 'POST', SIGNIN, { body: { email: A.owner.email, password: 'wrong' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'status']);
    expectErrorEnvelope(res.body, 'Invalid email or password');
  });
});

describe('x-request-id', () => {
  it('is generated on a success, and differs between requests', async () => {
    const sandbox = await memorySandbox();
    const first = await call(sandbox, 'GET', '/__sandbox/health');
    const second = await call(sandbox, 'GET', '/__sandbox/health');
    expect(first.status).toBe(200);
    const a = first.headers.get('x-request-id');
    const b = second.headers.get('x-request-id');
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it('is generated on errors (401, 404, 400, 415, 413)', async () => {
    const { sandbox } = await sandboxWithLog({ bodyLimit: 1024 });
    const responses = [
      await call(sandbox, 'POST', SIGNIN, { body: { email: A.owner.email, password: 'wrong' } }),
      await call(sandbox, 'GET', '/api/v1/does-not-exist'),
      await call(sandbox, 'POST', SIGNIN, {
        headers: { 'content-type': 'application/json' },
        body: '{"email":',
      }),
      await call(sandbox, 'POST', SIGNIN, { headers: { 'content-type': 'text/plain' }, body: 'hello' }),
      await call(sandbox, 'POST', SIGNIN, { body: { email: A.owner.email, password: 'x'.repeat(4096) } }),
    ];
    expect(responses.map((r) => r.status)).toEqual([401, 404, 400, 415, 413]);
    for (const res of responses) expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it('is on a 405, an OPTIONS and a HEAD answer too, and a HEAD answer is journaled without a body', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    const details = '/api/v1/clients/business/account-details';
    const responses = [
      await call(sandbox, 'POST', details, { headers: schemeA(token, A.secretKey, A.a1.id), body: {} }),
      await call(sandbox, 'OPTIONS', details),
      await call(sandbox, 'HEAD', details, {
        headers: { ...schemeA(token, A.secretKey, A.a1.id), 'x-request-id': 'head-1' },
      }),
    ];
    expect(responses.map((r) => r.status)).toEqual([405, 405, 200]);
    for (const res of responses) expect(res.headers.get('x-request-id')).toMatch(/^[\w-]+$/);
    expect(responses[2]?.headers.get('x-request-id')).toBe('head-1');
    const journal = await call(sandbox, 'GET', '/__sandbox/requests?requestId=head-1');
    const entry = (journal.body.data as { method: string; response: { status: number; body: unknown } }[])[0];
    expect(entry).toMatchObject({ method: 'HEAD', response: { status: 200, body: null } });
  });

  it('echoes a valid incoming id, on success and on error', async () => {
    const sandbox = await memorySandbox();
    const ok = await call(sandbox, 'GET', '/__sandbox/health', {
      headers: { 'x-request-id': 'trace-42.a:b_c' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('trace-42.a:b_c');
    const err = await call(sandbox, 'GET', '/api/v1/nowhere', {
      headers: { 'x-request-id': 'my-request-1' },
    });
    expect(err.status).toBe(404);
    expect(err.headers.get('x-request-id')).toBe('my-request-1');
  });

  it('replaces an invalid incoming id with a generated one', async () => {
    const sandbox = await memorySandbox();
    for (const given of ['has spaces in it', 'x'.repeat(129), '<script>']) {
      const res = await call(sandbox, 'GET', '/__sandbox/health', { headers: { 'x-request-id': given } });
      const id = res.headers.get('x-request-id');
      expect(id).not.toBe(given);
      expect(id).toMatch(UUID);
    }
  });
});

describe('unknown route', () => {
  it('answers 404 with the error envelope', async () => {
    const sandbox = await memorySandbox();
    for (const path of ['/api/v1/nope', '/api/v2/auth/signin', '/nothing-here', '/__sandbox/nope']) {
      const res = await call(sandbox, 'GET', path);
      expect(res.status).toBe(404);
      expectErrorEnvelope(res.body);
    }
  });
});

describe('request bodies', () => {
  it('answers 400 "Malformed JSON body" to JSON that does not parse', async () => {
    const sandbox = await memorySandbox();
    for (const body of ['{"email":', '{email: 1}', "{'a':1}", '[1,2']) {
      const res = await call(sandbox, 'POST', SIGNIN, {
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(400);
      expectErrorEnvelope(res.body, 'Malformed JSON body');
    }
  });

  it('answers 415 to a body of another content type', async () => {
    const sandbox = await memorySandbox();
    const body = JSON.stringify({ email: A.owner.email, password: A.owner.password });
    const plain = await call(sandbox, 'POST', SIGNIN, { headers: { 'content-type': 'text/plain' }, body });
    expect(plain.status).toBe(415);
    expectErrorEnvelope(plain.body);
    const form = await call(sandbox, 'POST', SIGNIN, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a&password=b',
    });
    expect(form.status).toBe(415);
    expectErrorEnvelope(form.body);
  });

  it('accepts application/json with a charset', async () => {
    const sandbox = await memorySandbox();
    const res = await call(sandbox, 'POST', SIGNIN, {
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ email: A.owner.email, password: A.owner.password }),
    });
    expect(res.status).toBe(200);
  });

  it('answers 413 to a JSON body over the limit', async () => {
    const { sandbox } = await sandboxWithLog({ bodyLimit: 1024 });
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: A.owner.password, padding: 'x'.repeat(2048) },
    });
    expect(res.status).toBe(413);
    expectErrorEnvelope(res.body);
  });

  it('answers 413 when the declared content-length is over the limit', async () => {
    const { sandbox } = await sandboxWithLog({ bodyLimit: 1024 });
    const body = JSON.stringify({
      email: A.owner.email,
      password: A.owner.password,
      padding: 'y'.repeat(3000),
    });
    const res = await call(sandbox, 'POST', SIGNIN, {
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      body,
    });
    expect(res.status).toBe(413);
    expectErrorEnvelope(res.body);
  });

  it('still serves a body under the limit', async () => {
    const sandbox = await memorySandbox({ bodyLimit: 1024 });
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: A.owner.password },
    });
    expect(res.status).toBe(200);
  });
});

describe('validation errors', () => {
  it('answers 400 with errors[] of {field, message}', async () => {
    const sandbox = await memorySandbox();
    const res = await call(sandbox, 'POST', SIGNIN, { body: { email: A.owner.email } });
    expect(res.status).toBe(400);
    expectErrorEnvelope(res.body);
    const errors = res.body.errors;
    expect(Array.isArray(errors)).toBe(true);
    expect(errors).toEqual([{ field: 'password', message: expect.any(String) }]);
    expect(res.body.message).toContain('password');
  });

  it('names every bad field', async () => {
    const sandbox = await memorySandbox();
    const res = await call(sandbox, 'POST', SIGNIN, { body: { email: 42, password: '' } });
    expect(res.status).toBe(400);
    expectErrorEnvelope(res.body);
    const { errors = [] } = bodyOf(res, errorEnvelope);
    expect(errors.map((e) => e.field).sort()).toEqual(['email', 'password']);
    for (const e of errors) {
      expect(Object.keys(e).sort()).toEqual(['field', 'message']);
      expect(typeof e.message).toBe('string');
      expect(e.message).not.toBe('');
    }
  });

  it('rejects a JSON body that is not an object with 400', async () => {
    const sandbox = await memorySandbox();
    for (const body of ['null', '[]', '"text"', '42']) {
      const res = await call(sandbox, 'POST', SIGNIN, {
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(400);
      expectErrorEnvelope(res.body);
      expect(Array.isArray(res.body.errors)).toBe(true);
    }
  });
});

describe('unexpected errors', () => {
  it('answer 500 with the envelope, no stack trace, and a log line', async () => {
    const { sandbox, lines } = await sandboxWithLog();
    vi.spyOn(sandbox.store, 'meta').mockImplementation(() => {
      throw new Error('kaboom in the store');
    });
    const res = await call(sandbox, 'POST', SIGNIN, {
      body: { email: A.owner.email, password: A.owner.password },
      headers: { 'x-request-id': 'boom-1' },
    });
    expect(res.status).toBe(500);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'status']);
    expectErrorEnvelope(res.body);
    expect(JSON.stringify(res.body)).not.toContain('kaboom');
    expect(res.headers.get('x-request-id')).toBe('boom-1');
    expect(lines.some((line) => line.includes('kaboom') && line.includes('boom-1'))).toBe(true);
  });

  it('no error response of any kind carries a stack', async () => {
    const { sandbox } = await sandboxWithLog({ bodyLimit: 1024 });
    const token = await tokenFor(sandbox, A.owner);
    const responses = [
      await call(sandbox, 'GET', '/api/v1/clients/business/account-details', {
        headers: schemeA(`${token}x`, A.secretKey, A.a1.id),
      }),
      await call(sandbox, 'GET', '/api/v1/clients/business/account-details', {
        headers: schemeA(token, A.secretKey),
      }),
      await call(sandbox, 'GET', '/api/v1/clients/business/customers?page=abc', {
        headers: schemeA(token, A.secretKey, A.a1.id),
      }),
      await call(sandbox, 'PUT', '/__sandbox/state', { body: { version: 1 } }),
    ];
    for (const res of responses) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expectErrorEnvelope(res.body);
    }
  });
});

describe('routing', () => {
  it('keeps Hono’s RegExpRouter for the whole app (a static route beside a parameter made it fall back to TrieRouter)', async () => {
    const sandbox = await memorySandbox();
    await call(sandbox, 'GET', '/__sandbox/health');
    expect(sandbox.app.router.name).toBe('SmartRouter + RegExpRouter');
    await sandbox.close();
  });

  it('answers a static path beside a parameter of the same method by its own route, and the rest by the parameter’s', async () => {
    const sandbox = await memorySandbox();
    const headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
    // PATCH /clients/members/complete-registration: its own route (SECRET_KEY alone; a body it validates).
    const complete = await call(sandbox, 'PATCH', '/api/v1/clients/members/complete-registration', {
      headers: { SECRET_KEY: A.secretKey },
      body: {},
    });
    expect(complete.status).toBe(400);
    expect(JSON.stringify(complete.body)).toContain('authorizationToken');
    // PATCH /clients/members/{memberId}: the update of a member, and not found for an id no member has.
    const update = await call(sandbox, 'PATCH', `/api/v1/clients/members/${A.manager.id}`, {
      headers,
      body: {},
    });
    expect(update.status).toBe(200);
    expect(update.body.message).toBe('Member updated successfully');
    const unknown = await call(
      sandbox,
      'PATCH',
      '/api/v1/clients/members/00000000-0000-4000-8000-000000000000',
      {
        headers,
        body: {},
      },
    );
    expect(unknown.status).toBe(404);
    await sandbox.close();
  });
});

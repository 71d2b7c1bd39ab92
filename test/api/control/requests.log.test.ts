import { describe, expect, it } from 'vitest';
import { requestEntry } from '../../../src/contract/control/requests.js';
import { formatRequest, JournalPool, RequestJournal } from '../../../src/http/request-log.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { pageOf } from '../../support/answers.js';
import { journalEntry } from '../../support/journal.js';
import { call, memorySandbox } from '../../support/sandbox.js';

/** The request journal's entries matching `query` (`?status=401`), newest first. */
async function journal(sandbox: Sandbox, query = '') {
  return pageOf(await call(sandbox, 'GET', `/__sandbox/requests${query}`), requestEntry).data;
}

describe('request journal', () => {
  it('keeps the last requests, newest first, with method, path, status, duration and request id', async () => {
    const sandbox = await memorySandbox();
    await call(sandbox, 'GET', '/__sandbox/health');
    const missing = await call(sandbox, 'GET', '/api/v1/nowhere', {
      headers: { 'x-request-id': 'trace-42' },
    });
    expect(missing.status).toBe(404);
    const [latest, previous] = await journal(sandbox);
    expect(latest).toMatchObject({
      method: 'GET',
      path: '/api/v1/nowhere',
      status: 404,
      requestId: 'trace-42',
    });
    expect(latest?.durationMs).toBeGreaterThanOrEqual(0);
    expect(previous).toMatchObject({ path: '/__sandbox/health', status: 200 });
  });

  it('filters by method, status and path, and limits', async () => {
    const sandbox = await memorySandbox();
    for (let i = 0; i < 3; i++) await call(sandbox, 'GET', '/__sandbox/health');
    await call(sandbox, 'POST', '/api/v1/auth/signin', { body: { email: 'x@y.z', password: 'nope' } });
    const only401 = await journal(sandbox, '?status=401');
    expect(only401.map((r) => r.path)).toEqual(['/api/v1/auth/signin']);
    const posts = await journal(sandbox, '?method=post');
    expect(posts).toHaveLength(1);
    const health = await journal(sandbox, '?path=health&limit=2');
    expect(health).toHaveLength(2);
    const bad = await call(sandbox, 'GET', '/__sandbox/requests?status=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('status is invalid: must be a status code (400) or a class of them (4xx)');
  });

  it('records a body refused by its size (413) like any other answer', async () => {
    const sandbox = await memorySandbox({ bodyLimit: 64 });
    const res = await call(sandbox, 'POST', '/api/v1/auth/signin', {
      headers: { 'x-request-id': 'too-big' },
      body: { email: 'x@y.z', password: 'p'.repeat(100) },
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    const [latest] = await journal(sandbox, '?status=413');
    expect(latest).toMatchObject({
      method: 'POST',
      path: '/api/v1/auth/signin',
      status: 413,
      requestId: 'too-big',
    });
  });

  it('is bounded: the oldest entries make room', async () => {
    const sandbox = await memorySandbox({ journalSize: 5 });
    for (let i = 0; i < 12; i++) await call(sandbox, 'GET', `/__sandbox/health?i=${i}`);
    const entries = await journal(sandbox);
    expect(entries).toHaveLength(5);
  });

  it('the ring keeps order across wrap-around', () => {
    const journal = new RequestJournal(3);
    for (let i = 0; i < 7; i++) {
      journal.add(journalEntry({ path: `/${i}`, requestId: String(i) }));
    }
    expect(journal.entries().map((e) => e.path)).toEqual(['/6', '/5', '/4']);
    journal.clear();
    expect(journal.entries()).toEqual([]);
  });

  it('counts by a test that sees each entry’s own fields through its one reader, newest first', () => {
    const journal = new RequestJournal(3);
    for (let i = 0; i < 5; i++) {
      journal.add(
        journalEntry({
          method: i % 2 === 0 ? 'GET' : 'POST',
          path: `/${i}`,
          requestId: `r${i}`,
          clientId: `c${i}`,
          requestBody: `{"n":${i}}`,
        }),
      );
    }
    const seen: string[] = [];
    const count = journal.countWhere((e) => {
      seen.push(`${e.seq} ${e.method} ${e.path} ${e.requestId} ${e.clientId} ${String(e.requestBody)}`);
      return e.path !== '/3';
    });
    expect(count).toBe(2);
    expect(seen).toEqual(['5 GET /4 r4 c4 {"n":4}', '4 POST /3 r3 c3 {"n":3}', '3 GET /2 r2 c2 {"n":2}']);
  });

  it('formats a line as pretty text or JSON', () => {
    const lean = {
      time: '2026-11-21T10:00:00.123Z',
      method: 'POST',
      path: '/api/v1/x',
      status: 201,
      durationMs: 3.4,
      requestId: 'r1',
      warnings: [],
    };
    const entry = journalEntry({ ...lean, requestBody: '{"password":"hunter2"}', answer: '{"status":true}' });
    expect(formatRequest(entry, 'pretty')).toBe('10:00:00.123 POST   /api/v1/x 201 3.4ms r1');
    // The lean fields only: never a body or a header.
    expect(JSON.parse(formatRequest(entry, 'json'))).toEqual(lean);
    const warned = { ...entry, warnings: ['one', 'two'] };
    expect(formatRequest(warned, 'pretty')).toBe(
      '10:00:00.123 POST   /api/v1/x 201 3.4ms r1 warning: one | two',
    );
    const known = { ...entry, clientId: 'client-a' };
    expect(formatRequest(known, 'pretty')).toBe('10:00:00.123 POST   /api/v1/x 201 3.4ms r1 client=client-a');
    expect(JSON.parse(formatRequest(known, 'json'))).toEqual({ ...lean, clientId: 'client-a' });
  });
});

describe('the journals of all isolated sandboxes together (--sandboxes-journal-bytes)', () => {
  it('the largest journal by bytes drops its oldest entries first; a journal’s newest entry stays', () => {
    const pool = new JournalPool(10_000);
    const big = new RequestJournal(100, Number.POSITIVE_INFINITY, pool);
    const small = new RequestJournal(100, Number.POSITIVE_INFINITY, pool);
    for (let i = 0; i < 3; i++) small.add(journalEntry({ path: `/s${i}`, cost: 1024 }));
    for (let i = 0; i < 6; i++) big.add(journalEntry({ path: `/b${i}`, cost: 2048 }));
    // 3 KiB and 12 KiB is past 10 000 bytes: the big one gave up its oldest three, the small one nothing.
    expect(pool.bytes).toBeLessThanOrEqual(10_000);
    expect(big.entries().map((e) => e.path)).toEqual(['/b5', '/b4', '/b3']);
    expect(small.size).toBe(3);
    // An entry larger than the pool alone: kept, as the newest of its journal.
    small.add(journalEntry({ path: '/huge', cost: 50_000 }));
    expect(small.entries().map((e) => e.path)).toEqual(['/huge']);
    expect(big.size).toBe(1);
    // A journal that leaves (its sandbox dropped) takes its bytes with it.
    small.detach();
    expect(pool.bytes).toBe(big.bytes);
  });

  it('bounds the isolated sandboxes’ journals, not the root’s', async () => {
    // Each GET of a path no route takes costs its entry's 1024 bytes and the answer's text.
    const root = await memorySandbox({ sandboxesJournalBytes: 20_000 });
    try {
      const busy = await root.isolate({ id: 'busy' });
      const quiet = await root.isolate({ id: 'quiet' });
      for (let i = 0; i < 3; i++) await call(quiet, 'GET', `/api/v1/quiet-${i}`);
      for (let i = 0; i < 40; i++) await call(busy, 'GET', `/api/v1/busy-${i}`);
      for (let i = 0; i < 40; i++) await call(root, 'GET', `/api/v1/root-${i}`);
      const inBusy = await journal(busy);
      expect(inBusy.length).toBeLessThan(40);
      expect(inBusy[0]?.path).toBe('/api/v1/busy-39');
      expect((await journal(quiet)).map((e) => e.path)).toEqual([
        '/api/v1/quiet-2',
        '/api/v1/quiet-1',
        '/api/v1/quiet-0',
      ]);
      expect(
        (await journal(root, '?limit=100')).filter((e) => e.path.startsWith('/api/v1/root-')),
      ).toHaveLength(40);
    } finally {
      await root.close();
    }
  });
});

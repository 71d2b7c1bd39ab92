import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { front } from '../../../src/http/front.js';
import type { RequestEntry } from '../../../src/http/request-log.js';
import { A, call, memorySandbox, tokenFor, useSandbox } from '../../support/sandbox.js';

// The front of the app (src/http/front.ts) sits around Hono's fetch: the request id and the journal, with no
// middleware chain in front of a route. A read whose route answers at once is answered within the call: no
// promise for each layer, which is most of what a cheap read costs (see the reads benchmark).

const sandbox = useSandbox();
let headers: Record<string, string>;
beforeAll(async () => {
  headers = {
    authorization: `Bearer ${await tokenFor(sandbox, A.owner)}`,
    SECRET_KEY: A.secretKey,
    businessId: A.a1.id,
  };
});

const url = (path: string) => `http://localhost${path}`;

describe('a read is answered within the call', () => {
  it('an authenticated read: a Response, not a promise, with its request id, and journaled', async () => {
    const answer = sandbox.app.fetch(
      new Request(url('/api/v1/clients/business/account-details'), {
        headers: { ...headers, 'x-request-id': 'front-read-1' },
      }),
    );
    expect(answer).toBeInstanceOf(Response);
    const res = answer as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('front-read-1');
    const journal = await sandbox.app.request('/__sandbox/requests?requestId=front-read-1');
    expect(((await journal.json()) as { data: unknown[] }).data).toMatchObject([
      { status: 200, clientId: A.id, businessId: A.a1.id },
    ]);
  });

  it('a refused read (401) too, with the envelope', async () => {
    const answer = sandbox.app.fetch(new Request(url('/api/v1/clients/business/account-details')));
    expect(answer).toBeInstanceOf(Response);
    const res = answer as Response;
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ status: false, message: expect.any(String) });
  });

  it('a read that waits on a scenario delay answers through a promise, after it', async () => {
    // The one way a read waits: a scenario rule's delay (1 ms of the sandbox's real clock here).
    const delayed = await memorySandbox();
    try {
      const put = await call(delayed, 'PUT', '/__sandbox/scenario', {
        body: {
          name: 'slow-reads',
          description: 'Reads wait',
          rules: [
            {
              on: 'http',
              match: { method: 'GET', path: '^/api/v1/clients/business/account-details$' },
              effect: { delayMs: 1 },
            },
          ],
        },
      });
      expect(put.status).toBe(200);
      const token = await tokenFor(delayed, A.owner);
      const answer = delayed.app.fetch(
        new Request(url('/api/v1/clients/business/account-details'), {
          headers: { ...headers, authorization: `Bearer ${token}` },
        }),
      );
      expect(answer).toBeInstanceOf(Promise);
      expect((await answer).status).toBe(200);
    } finally {
      await delayed.close();
    }
  });
});

describe('front, around a dispatch of its own', () => {
  const entries: RequestEntry[] = [];
  const failures: unknown[] = [];
  const answerAtOnce = () => new Response('{}', { status: 200 });
  // The front only hands the world on to the dispatch and the journal: these never look at it here.
  const root = { id: null, prefix: '' } as never;
  const app = front(answerAtOnce, {
    root,
    answered: (entry) => entries.push(entry),
    bodyLimit: 1024,
    failed: (error) => failures.push(error),
  });
  /** Node's request as the server has it while it runs the headers' callback: not `complete` yet. */
  const incoming = (extra: Record<string, string>) =>
    ({ complete: false, destroyed: false, headers: { ...extra } }) as never;
  const outgoing = () => ({ setHeader: () => undefined, headersSent: false }) as never;

  it('a request without a body, not complete yet, is answered and journaled at once', () => {
    const answer = app(new Request(url('/x')), { incoming: incoming({}), outgoing: outgoing() });
    expect(answer).toBeInstanceOf(Response);
    expect(entries.at(-1)).toMatchObject({ path: '/x', status: 200, requestBody: null });
  });

  it('one with a body still coming waits for it: the rest is read, then the journal entry is made', async () => {
    const body = Object.assign(new PassThrough(), { complete: false, headers: { 'content-length': '20' } });
    const answer = app(new Request(url('/y')), { incoming: body as never, outgoing: outgoing() });
    expect(answer).toBeInstanceOf(Promise);
    body.end('{"a":"012345678901"}');
    expect((await answer).status).toBe(200);
    expect(entries.at(-1)).toMatchObject({ path: '/y', requestBody: Buffer.from('{"a":"012345678901"}') });
  });

  it('a journal that fails (a listener that throws) is reported, and the answer still goes out', () => {
    const broken = front(answerAtOnce, {
      root,
      answered: () => {
        throw new Error('listener broke');
      },
      bodyLimit: 1024,
      failed: (error) => failures.push(error),
    });
    const answer = broken(new Request(url('/z')));
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(200);
    expect(failures).toEqual([new Error('listener broke')]);
  });
});

import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metrics } from '../../src/control/sandbox/schemas.js';
import { stateExport } from '../../src/control/state/schemas.js';
import { bodyOf, dataOf } from '../support/answers.js';
import { http, type SandboxProcess, startProcess, stop } from '../support/process.js';

// `PUT /__sandbox/state` against the real process: a body over --import-limit is refused before it is read, and
// the process goes on serving; a document at the limit is read while health probes keep being answered.

const LIMIT = 8 * 1_048_576;
const MiB = Buffer.alloc(1_048_576, 0x20);

let p: SandboxProcess;
beforeAll(async () => {
  p = await startProcess(['--in-memory', '--quiet', '--import-limit', String(LIMIT)]);
});
afterAll(async () => {
  if (p && p.child.exitCode === null && p.child.signalCode === null) await stop(p, 'SIGKILL');
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Bytes of the body written when the answer came. */
  sentBefore: number;
}

/**
 * A PUT of `total` bytes of spaces, with a Content-Length or chunked, written a MiB at a time until the answer
 * comes (then writing stops, as a client that reads answers does).
 */
function upload(agent: Agent, total: number, chunked: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(
      `${p.url}/__sandbox/state`,
      {
        method: 'PUT',
        agent,
        headers: {
          'content-type': 'application/json',
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(total) }),
        },
      },
      (res) => {
        answered = true;
        const sentBefore = sent;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, sentBefore }));
      },
    );
    // The server closes the socket after its answer; writes still under way then fail, which is expected.
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const write = () => {
      while (!answered && sent < total) {
        sent += MiB.length;
        if (!req.write(MiB)) return void req.once('drain', write);
      }
      if (!answered) req.end();
    };
    write();
  });
}

/** A GET of health on `agent`: its status. */
function health(agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    request(`${p.url}/__sandbox/health`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

describe('an import over --import-limit', () => {
  it.each([
    ['with a Content-Length', false],
    ['chunked', true],
  ])(
    '%s: 413 with the envelope before the body is sent, Connection: close, and the server serves on',
    async (_name, chunked) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const total = 40 * LIMIT;
      const res = await upload(agent, total, chunked);
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body)).toEqual({
        status: false,
        message: `Request body too large: a state import holds at most ${LIMIT} bytes (--import-limit)`,
        data: null,
      });
      // Answered once the limit was passed (or at once by the Content-Length), not after the whole body.
      expect(res.sentBefore).toBeLessThan(total / 2);
      // The socket is not kept for a next request: the rest of the body was never read.
      expect(res.headers.connection).toBe('close');
      // The same keep-alive client goes on, on a new socket, and the state was not touched.
      expect(await health(agent)).toBe(200);
      const state = await http(p, 'GET', '/__sandbox/state');
      expect(state.status).toBe(200);
      // The journal records the refusal like any other answer.
      const journal = await http(p, 'GET', '/__sandbox/requests?status=413&limit=1');
      expect(journal.body.data).toEqual([
        expect.objectContaining({ method: 'PUT', path: '/__sandbox/state' }),
      ]);
      agent.destroy();
    },
  );
});

describe('an import at --import-limit', () => {
  it('is read while health probes are answered, then applied', async () => {
    const exported = bodyOf(await http(p, 'GET', '/__sandbox/state'), stateExport);
    const customers = exported.collections.customers;
    const template = customers[0];
    if (!template) throw new Error('the fixtures have no customer');
    // Customers shaped like the first one, until the document is within a record of the limit.
    const base = JSON.stringify(exported).length;
    const perRecord = JSON.stringify({ ...template, id: 'import-at-limit-0000000' }).length + 1;
    const count = Math.floor((LIMIT - base) / perRecord);
    for (let i = 0; i < count; i++)
      customers.push({ ...template, id: `import-at-limit-${String(i).padStart(7, '0')}` });
    const body = JSON.stringify(exported);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(LIMIT);
    expect(Buffer.byteLength(body)).toBeGreaterThan(LIMIT - perRecord * 2);

    const probes = new Agent({ keepAlive: true, maxSockets: 1 });
    let imported = false;
    let answeredDuring = 0;
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        `${p.url}/__sandbox/state`,
        { method: 'PUT', headers: { 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            text += d;
          });
          res.on('end', () => {
            imported = true;
            resolve({ status: res.statusCode ?? 0, text });
          });
        },
      );
      req.on('error', reject);
      // Once the whole body is on its way, probe health until the import answers.
      req.end(body, () => {
        const probe = async () => {
          while (!imported) {
            expect(await health(probes)).toBe(200);
            if (!imported) answeredDuring++;
          }
        };
        probe().catch(reject);
      });
    });
    const res = await answer;
    expect(res.status, res.text).toBe(200);
    expect(answeredDuring).toBeGreaterThan(0);
    const after = await http(p, 'GET', '/__sandbox/metrics');
    expect(dataOf(after, metrics).records.customers).toBe(customers.length);
    probes.destroy();
  });
});

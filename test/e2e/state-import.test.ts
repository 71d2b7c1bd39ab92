import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntry } from '../../src/contract/api/audits.js';
import { dispute } from '../../src/contract/api/disputes.js';
import { payoutAccount } from '../../src/contract/api/payouts.js';
import { subscription } from '../../src/contract/api/subscriptions.js';
import { ledger } from '../../src/contract/control/money.js';
import { metrics } from '../../src/contract/control/sandbox.js';
import { virtualAccount } from '../../src/contract/control/virtual-accounts.js';
import { dataOf, pageOf } from '../support/answers.js';
import { http, ownerHeadersOf, type SandboxProcess, startProcess, stop } from '../support/process.js';
import { A } from '../support/sandbox.js';
import {
  type CurrentStateView,
  expectUpgraded,
  inOldShapes,
  type OldShapes,
  oldShapes,
  stateOf,
} from '../support/store.js';

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
    const exported = stateOf(await http(p, 'GET', '/__sandbox/state'));
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

describe('a state in the shapes an earlier version wrote', () => {
  // A process of its own: the import at the limit above leaves a state of 8 MiB behind it.
  let q: SandboxProcess;
  let dir: string;
  let exported: CurrentStateView;
  let transactionId: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-old-state-'));
    q = await startProcess(['--in-memory', '--quiet']);
    const headers = await ownerHeadersOf(q);
    const sent = await http(q, 'POST', '/api/v1/clients/business/customers/funds/transfer', {
      headers,
      body: {
        amount: 150_000,
        receiverAccountNumber: '0123456789',
        receiverBankCode: '058',
        retrievalReference: 'before-the-upgrade',
        narration: 'Old state',
      },
    });
    expect(sent.status).toBe(200);
    const entry = await http(
      q,
      'GET',
      `/__sandbox/businesses/${A.a1.id}/ledger?retrievalReference=before-the-upgrade`,
    );
    const [transaction] = dataOf(entry, ledger).transactions;
    if (!transaction) throw new Error('the transfer made no ledger entry');
    transactionId = transaction.id;
    exported = stateOf(await http(q, 'GET', '/__sandbox/state'));
  });
  afterAll(async () => {
    if (q && q.child.exitCode === null && q.child.signalCode === null) await stop(q, 'SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  /** What the API and the control API show of the old records of `shapes`, read from `s` as a user would. */
  async function expectReadable(s: SandboxProcess, shapes: OldShapes): Promise<void> {
    const [old] = shapes.upgraded.disputes;
    // The business the old records named.
    const headers = { ...(await ownerHeadersOf(s)), businessId: old?.businessId ?? '' };
    const [payout] = shapes.upgraded.payouts;
    // The client's payout account, from each of its businesses.
    for (const businessId of [A.a1.id, A.a2.id]) {
      const payouts = await http(s, 'GET', '/api/v1/clients/business/payouts?limit=100', {
        headers: { ...headers, businessId },
      });
      expect(payouts.status).toBe(200);
      expect(pageOf(payouts, payoutAccount).data).toContainEqual(payout);
    }
    const disputes = await http(s, 'GET', '/api/v1/clients/business/disputes?limit=100', { headers });
    expect(pageOf(disputes, dispute).data).toContainEqual({
      id: old?.id,
      transactionId: old?.transactionId,
      description: old?.description,
      status: 'open',
      dateCreated: '2025-05-02T10:00:00.000Z',
    });
    // An old transfer entry answers the filters of the current verbs and categories.
    const transfers = await http(
      s,
      'GET',
      '/api/v1/clients/business/audits?type=TRANSACTION&action=transfer&limit=100',
      {
        headers,
      },
    );
    const ids = pageOf(transfers, auditEntry).data.map((a) => a.id);
    const oldTransfers = shapes.upgraded.audits.filter((a) => a.action === 'transfer').map((a) => a.id);
    expect(oldTransfers).toHaveLength(2);
    for (const id of oldTransfers) expect(ids).toContain(id);
    const [account] = shapes.upgraded.virtualAccounts;
    const accounts = await http(s, 'GET', '/__sandbox/virtual-accounts?limit=100');
    expect(pageOf(accounts, virtualAccount).data.find((v) => v.id === account?.id)).toMatchObject({
      type: 'temporal',
      reservedAmount: null,
      usedBy: null,
      // It expired in May 2025.
      state: 'expired',
    });
  }

  /** A state without a subscriptions collection has none: A1 lists none (not its fixture plans), and takes one. */
  async function expectNoSubscriptions(s: SandboxProcess): Promise<void> {
    const headers = await ownerHeadersOf(s);
    const plans = await http(s, 'GET', '/api/v1/clients/business/subscriptions', { headers });
    expect(plans.status).toBe(200);
    expect(pageOf(plans, subscription).data).toEqual([]);
    const added = await http(s, 'POST', `/__sandbox/businesses/${A.a1.id}/subscriptions`, {
      body: { packageName: 'After Upgrade', amount: 1000, interval: 'monthly' },
    });
    expect(added.status).toBe(201);
    const after = await http(s, 'GET', '/api/v1/clients/business/subscriptions', { headers });
    expect(pageOf(after, subscription).data.map((p) => p.packageName)).toEqual(['After Upgrade']);
  }

  it('imports through PUT /__sandbox/state (200) and reads in the current shapes', async () => {
    const shapes = oldShapes({ clientId: A.id, businessId: A.a1.id, transactionId });
    const doc = inOldShapes(exported, shapes);
    expect(doc.collections).not.toHaveProperty('subscriptions');
    const res = await http(q, 'PUT', '/__sandbox/state', { body: doc });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectUpgraded(stateOf(await http(q, 'GET', '/__sandbox/state')), shapes);
    await expectReadable(q, shapes);
    await expectNoSubscriptions(q);
  });

  it('opens a state file and its journal in the old shapes, upgraded the same way', async () => {
    const file = join(dir, 'db.json');
    const inSnapshot = oldShapes({ clientId: A.id, businessId: A.a1.id, transactionId }, 'snap', 1);
    const inJournal = oldShapes({ clientId: A.id, businessId: A.a2.id, transactionId }, 'wal', 2);
    await writeFile(file, JSON.stringify({ ...inOldShapes(exported, inSnapshot), seq: 0 }));
    const line = (seq: number, ops: unknown[]) => `${JSON.stringify({ q: seq, o: ops })}\n`;
    const { payouts, disputes, audits, virtualAccounts } = inJournal.records;
    const put = (collection: string, records: Record<string, unknown>[]) =>
      records.map((r) => [collection, r.id, r]);
    await writeFile(
      `${file}.wal`,
      line(1, [...put('payouts', payouts), ...put('disputes', disputes)]) +
        line(2, put('audits', audits)) +
        line(3, put('virtualAccounts', virtualAccounts)),
    );

    const s = await startProcess(['--data', file, '--quiet']);
    try {
      const state = stateOf(await http(s, 'GET', '/__sandbox/state'));
      expectUpgraded(state, inSnapshot);
      expect(state.collections.payouts).toEqual(expect.arrayContaining(inJournal.upgraded.payouts));
      expect(state.collections.disputes).toEqual(expect.arrayContaining(inJournal.upgraded.disputes));
      expect(state.collections.audits).toEqual(expect.arrayContaining(inJournal.upgraded.audits));
      expect(state.collections.virtualAccounts).toEqual(
        expect.arrayContaining(inJournal.upgraded.virtualAccounts),
      );
      // The journal's payout account named A2: it is client A's like the snapshot's (and the fixtures' own).
      expect(state.collections.payouts.map((p) => p.clientId)).toEqual([A.id, A.id, A.id]);
      await expectReadable(s, inSnapshot);
      await expectReadable(s, inJournal);
      await expectNoSubscriptions(s);
    } finally {
      await stop(s, 'SIGKILL');
    }
  });
});

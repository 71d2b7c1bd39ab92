// Parts `writes` and `transfers`: the same write against a large and a small state, whose cost must not grow with
// the state.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { against, alternated, type Pair } from '../load.js';
import { cli, ours, type Server, startServer, stopServer } from '../processes.js';
import { A, isRecord, requestJson, schemeA, signIn, transferWrite } from '../sandbox-client.js';
import { beforeJs, log } from '../settings.js';
import { int, mb, ms, type Row, ratio, verdict } from '../table.js';
import type { LoadTarget } from '../wrk.js';

const SMALL_STATE = 1_000;
const LARGE_STATE = 100_000;

interface StateDoc {
  version: number;
  collections: Record<string, Record<string, unknown>[]>;
}

function isStateDoc(value: unknown): value is StateDoc {
  return isRecord(value) && isRecord(value.collections);
}

function recordCount(doc: StateDoc): number {
  return Object.values(doc.collections).reduce((sum, records) => sum + records.length, 0);
}

/** Adds customers of business A1 (shaped like the first one) until the state holds `target` records. */
function growCustomers(doc: StateDoc, target: number): StateDoc {
  const customers = doc.collections.customers ?? [];
  const template = customers[0];
  if (!template) throw new Error('the state has no customer to copy');
  const extra = target - recordCount(doc);
  const added = Array.from({ length: Math.max(0, extra) }, (_, i) => ({
    ...template,
    id: `bench-customer-${i}`,
    businessId: A.businessId,
    email: `bench.customer.${i}@example.com`,
    nuban: String(9_000_000_000 + i),
  }));
  return { ...doc, collections: { ...doc.collections, customers: [...customers, ...added] } };
}

/**
 * Gives business A1 `target` ledger entries: balance adjustments in credit and debit pairs of the same amount,
 * so the balance, and the invariant that it equals the opening balance plus the ledger, stay as they were.
 */
function growLedger(doc: StateDoc, target: number): StateDoc {
  const business = (doc.collections.businesses ?? []).find((b) => b.id === A.businessId);
  const balance = typeof business?.balance === 'number' ? business.balance : 0;
  const added = Array.from({ length: target }, (_, i) => ({
    id: `BENCH${String(i).padStart(12, '0')}`,
    businessId: A.businessId,
    kind: 'balance_adjustment',
    direction: i % 2 === 0 ? 'credit' : 'debit',
    status: 'successful',
    amount: 1000,
    charge: 0,
    balanceAfter: i % 2 === 0 ? balance + 1000 : balance,
    retrievalReference: null,
    narration: 'bench ledger entry',
    counterparty: null,
    errorCode: '',
    errorMessage: '',
    providerReference: null,
    fingerprint: null,
    createdAt: '2025-06-01T00:00:00.000Z',
  }));
  return {
    ...doc,
    collections: { ...doc.collections, transactions: [...(doc.collections.transactions ?? []), ...added] },
  };
}

async function importState(server: Server, grow: (doc: StateDoc) => StateDoc): Promise<void> {
  const doc = await requestJson(`${server.url}/__sandbox/state`);
  if (!isStateDoc(doc)) throw new Error('GET /__sandbox/state did not answer a state document');
  const grown = grow(doc);
  await requestJson(`${server.url}/__sandbox/state`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(grown),
  });
}

async function fileBytes(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
}

export interface Writes {
  pair: Pair;
  /** Snapshot plus journal after the runs and a clean stop: large, small. */
  bytes: [number, number];
  /** The same write on the small state, ours against the BENCH_BEFORE build in the same rounds; absent without one. */
  before?: Pair;
}

/**
 * The same write against a large and a small state, in alternation: its cost must not grow with the state. With
 * BENCH_BEFORE, that build joins the same rounds on a small state of its own, so that what a change costs a write
 * (the state lock's checks) is measured against the same neighbours.
 */
async function benchWrites(
  dir: string,
  name: string,
  grow: [large: (doc: StateDoc) => StateDoc, small: (doc: StateDoc) => StateDoc],
  target: (server: Server, headers: Record<string, string>) => LoadTarget,
): Promise<Writes> {
  log(`${name}: large vs small state${beforeJs ? `, and the small one on ${beforeJs}` : ''}`);
  const files = [join(dir, `${name}-large.json`), join(dir, `${name}-small.json`)] as const;
  const large = await startServer('sandbox (large)', ours(files[0]));
  const small = await startServer('sandbox (small)', ours(files[1]));
  let before: Server | null = null;
  let pairs: Pair[];
  try {
    await importState(large, grow[0]);
    await importState(small, grow[1]);
    const headers = async (server: Server) => ({
      ...schemeA(await signIn(server)),
      'content-type': 'application/json',
    });
    const targets = [target(large, await headers(large)), target(small, await headers(small))];
    const pids = [large.child.pid, small.child.pid];
    if (beforeJs) {
      before = await startServer('sandbox (before, small)', cli(beforeJs, join(dir, `${name}-before.json`)));
      await importState(before, grow[1]);
      targets.push(target(before, await headers(before)));
      pids.push(before.child.pid);
    }
    pairs = await alternated(targets, pids);
  } finally {
    await stopServer(large);
    await stopServer(small);
    if (before) await stopServer(before);
  }
  const [pair, onSmall, onBefore] = pairs;
  if (!pair || !onSmall || (beforeJs && !onBefore)) throw new Error(`${name}: not measured`);
  const bytes = async (file: string) => (await fileBytes(file)) + (await fileBytes(`${file}.wal`));
  return {
    pair,
    bytes: [await bytes(files[0]), await bytes(files[1])],
    ...(onBefore ? { before: against(onSmall, onBefore) } : {}),
  };
}

const webhookWrite = (server: Server, headers: Record<string, string>): LoadTarget => ({
  url: `${server.url}/api/v1/clients/settings/update-webhook-url`,
  method: 'PATCH',
  headers,
  body: JSON.stringify({ webhookUrl: 'https://example.com/hook' }),
});

/** Part `writes`: update-webhook-url with 100 000 records (customers) against 1 000. */
export const benchWebhookWrites = (dir: string): Promise<Writes> =>
  benchWrites(
    dir,
    'writes',
    [(doc) => growCustomers(doc, LARGE_STATE), (doc) => growCustomers(doc, SMALL_STATE)],
    webhookWrite,
  );

/** Part `transfers`: new transfers with 100 000 ledger entries against 1 000. */
export const benchTransfers = (dir: string): Promise<Writes> =>
  benchWrites(
    dir,
    'transfers',
    [(doc) => growLedger(doc, LARGE_STATE), (doc) => growLedger(doc, SMALL_STATE)],
    transferWrite,
  );

/** Ours against the BENCH_BEFORE build, on the small state: requests/s, p99 and the CPU of a request. */
function beforeRows(name: string, before: Pair): Row[] {
  const us = (cpuUs: number | undefined) => `${(cpuUs ?? Number.NaN).toFixed(0)} µs`;
  return [
    [
      `${name} vs before: req/s (${int.format(SMALL_STATE)} records; baseline: the BENCH_BEFORE build, same rounds)`,
      int.format(before.a.rps),
      int.format(before.b.rps),
      before.ratio.toFixed(3),
      '≥ 0.95',
      verdict(before.ratio >= 0.95),
    ],
    [
      `${name} vs before: p99 latency`,
      ms(before.a.p99),
      ms(before.b.p99),
      ratio(before.a.p99, before.b.p99),
      '',
      '',
    ],
    [
      `${name} vs before: CPU per request (ratio: before / ours)`,
      us(before.a.cpuUs),
      us(before.b.cpuUs),
      ((before.b.cpuUs ?? Number.NaN) / (before.a.cpuUs ?? Number.NaN)).toFixed(2),
      '',
      '',
    ],
  ];
}

export function writesRows(writes: Writes): Row[] {
  return [
    [
      `writes req/s (update-webhook-url; ${int.format(LARGE_STATE)} records vs ${int.format(SMALL_STATE)})`,
      int.format(writes.pair.a.rps),
      int.format(writes.pair.b.rps),
      writes.pair.ratio.toFixed(2),
      '≥ 0.50',
      verdict(writes.pair.ratio >= 0.5),
    ],
    [
      'writes p99 latency (large vs small)',
      ms(writes.pair.a.p99),
      ms(writes.pair.b.p99),
      ratio(writes.pair.a.p99, writes.pair.b.p99),
      '',
      '',
    ],
    [
      'data file + journal after the writes',
      mb(writes.bytes[0]),
      mb(writes.bytes[1]),
      ratio(...writes.bytes),
      '',
      '',
    ],
    ...(writes.before ? beforeRows('writes', writes.before) : []),
  ];
}

export function transfersRows(transfers: Writes): Row[] {
  return [
    [
      `transfers req/s (funds/transfer; ${int.format(LARGE_STATE)} ledger entries vs ${int.format(SMALL_STATE)})`,
      int.format(transfers.pair.a.rps),
      int.format(transfers.pair.b.rps),
      transfers.pair.ratio.toFixed(2),
      '≥ 0.50',
      verdict(transfers.pair.ratio >= 0.5),
    ],
    [
      'transfers p99 latency (large vs small)',
      ms(transfers.pair.a.p99),
      ms(transfers.pair.b.p99),
      ratio(transfers.pair.a.p99, transfers.pair.b.p99),
      '',
      '',
    ],
    ...(transfers.before ? beforeRows('transfers', transfers.before) : []),
  ];
}

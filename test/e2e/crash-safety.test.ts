import { access, mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { bulkTransfer, bulkTransferWithItems } from '../../src/contract/api/bulk.js';
import { type TransferResultView, transferResult } from '../../src/contract/api/transfers.js';
import type { LedgerView } from '../../src/contract/control/money.js';
import { stateExport } from '../../src/contract/control/state.js';
import { fixture } from '../../src/contract/examples.js';
import { Random, seedState } from '../../src/domain/random.js';
import { bulkItemRecord, bulkTransferRecord, businessRecord } from '../../src/domain/records.js';
import { bodyOf, dataOf, pageOf } from '../support/answers.js';
import { wholeLedger } from '../support/money.js';
import { http, ownerHeadersOf, type SandboxProcess, startProcess, stop } from '../support/process.js';
import { A } from '../support/sandbox.js';

/**
 * Crash safety of the file store under a write-heavy load: concurrent single transfers and a bulk batch being
 * processed, with background compactions going on, are cut by `kill -9` after a seeded number of acknowledged
 * requests. After every restart: the files load, every acknowledged transfer is there exactly once, an
 * unanswered one is there entirely or not at all, and balances, ledgers and batch counters agree.
 *
 * `CRASH_SEED=<n>` reproduces the kill points of a run (each round's mode and its number of acknowledged
 * requests before the kill) and the amounts; the seed is printed with the figures.
 *
 * `CRASH_ROUNDS=<n>` sets the number of rounds (default 4). The kill points are drawn from the seed round after
 * round, so the default runs the first 4 rounds of any longer run: with the default seed, one kill while the
 * batch is on its way in (after 4 answers) and three in the middle of the batch (29, 7 and 11 transfers after
 * its claim); in each of the runs measured the snapshot was rewritten under the load and a kill cut a rewrite.
 * `CRASH_ROUNDS=10` is the longer run (about 13 s on two cores; the test gives itself a minute).
 */
const SEED = Number(process.env.CRASH_SEED ?? 20_260_611);
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 4);
const WORKERS = 8;
const BULK_ITEMS = 300;
const BULK_AMOUNT = 1000;
/** The NIP fee of every amount used here (all ≤ ₦5,000). */
const FEE = 1075;
/** A round stops sending after this many transfers even if the kill point was not reached. */
const MAX_TRANSFERS_PER_ROUND = 400;

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const BULK = '/api/v1/clients/business/customers/funds/bulk-transfer';
const keyPair = { 'x-api-key': A.publicKey, 'x-api-secret': A.secretKey, businessId: A.a1.id };
const args = (data: string) => [
  '--data',
  data,
  '--compact-after',
  '65536',
  '--quiet',
  '--bulk-concurrency',
  '4',
  '--bulk-item-delay',
  '1',
];

interface TransferBody {
  amount: number;
  receiverAccountNumber: string;
  receiverBankCode: string;
  retrievalReference: string;
  narration: string;
}
/**
 * One transfer sent: its answer (status null: none before the kill), once known its response data (the docs' three
 * amounts), and its transaction reference: the id of its ledger entry (the answer does not carry it), learned at
 * the first ledger read after the answer and held to through every later restart.
 */
interface Sent {
  body: TransferBody;
  status: number | null;
  data: TransferResultView | null;
  transactionReference: string | null;
}

/** What a transfer of `body` answers: exactly its amount, the fee and their sum, as strings. */
const amountsOf = (body: TransferBody): TransferResultView => ({
  amount: String(body.amount),
  transactionCharge: String(FEE),
  totalAmount: String(body.amount + FEE),
});
type LedgerEntry = LedgerView['transactions'][number];
interface BatchRecord {
  id: string;
  batchName: string;
  businessId: string;
  totalItems: number;
  completedItems: number;
  failedItems: number;
  status: string;
}
interface ItemRecord {
  id: string;
  bulkTransferId: string;
  status: string;
  amount: number;
  transactionReference: string;
}
/** The data file as the store writes it: read from disk, not an answer. */
interface StateDoc {
  collections: { businesses: { id: string }[]; bulkTransfers: BatchRecord[]; bulkItems: ItemRecord[] };
}
/** What the data file and its journal held right after a kill, read the way the store loads them. */
interface Disk {
  snapshotSeq: number;
  journalLines: number;
  journalFirstSeq: number | null;
  journalLastSeq: number | null;
  /** Bytes after the journal's last newline: a write the kill cut in half. */
  tornBytes: number;
  /** A snapshot or journal rewrite was under way: its temporary file, written to during the round, is there. */
  compactionCut: boolean;
  /** Items of the round's batch completed in what the files held; null without the batch. */
  bulkDone: number | null;
  /** Why the test could not read the files itself, if it could not. */
  unreadable: string | null;
}
interface RoundLoad {
  round: number;
  mode: 'early' | 'during-bulk';
  killAfter: number;
  sent: Sent[];
  batchName: string;
  batchId: string | null;
  processAcked: boolean;
  snapshotSeqBefore: number;
  disk: Disk;
}

let dir: string;
const running: SandboxProcess[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'crash-safety-'));
});
afterAll(async () => {
  for (const p of running)
    if (p.child.exitCode === null && p.child.signalCode === null) await stop(p, 'SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

async function snapshotSeq(data: string): Promise<number> {
  const fh = await open(data, 'r');
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await fh.read(head, 0, 64, 0);
    const m = /"seq":(\d+)/.exec(head.toString('utf8', 0, bytesRead));
    return m?.[1] ? Number(m[1]) : Number.NaN;
  } finally {
    await fh.close();
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

type Op = [collection: string, id: string, record: unknown];

/**
 * Reads the files left by a kill: the snapshot, then the journal entries after it, as the store replays them.
 * Files that do not parse are noted, not thrown: the restart that follows is the judge of whether they load.
 */
async function readDisk(data: string, batchName: string, since: number): Promise<Disk> {
  const writtenSince = (path: string) =>
    stat(path).then(
      (s) => s.mtimeMs >= since,
      () => false,
    );
  const disk: Disk = {
    snapshotSeq: Number.NaN,
    journalLines: 0,
    journalFirstSeq: null,
    journalLastSeq: null,
    tornBytes: 0,
    compactionCut: (await writtenSince(`${data}.tmp`)) || (await writtenSince(`${data}.wal.tmp`)),
    bulkDone: null,
    unreadable: null,
  };
  try {
    const snapshot = JSON.parse(await readFile(data, 'utf8')) as StateDoc & { seq: number };
    disk.snapshotSeq = snapshot.seq;
    const text = (await exists(`${data}.wal`)) ? await readFile(`${data}.wal`, 'utf8') : '';
    const end = text.lastIndexOf('\n') + 1;
    disk.tornBytes = Buffer.byteLength(text.slice(end));
    const entries = text
      .slice(0, end)
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { q: number; o: Op[] });
    disk.journalLines = entries.length;
    disk.journalFirstSeq = entries[0]?.q ?? null;
    disk.journalLastSeq = entries.at(-1)?.q ?? null;
    const batches = new Map(snapshot.collections.bulkTransfers.map((b) => [b.id, b]));
    const items = new Map(snapshot.collections.bulkItems.map((i) => [i.id, i]));
    for (const entry of entries) {
      if (entry.q <= snapshot.seq) continue;
      for (const [collection, id, record] of entry.o) {
        const map: Map<string, unknown> | null =
          collection === 'bulkTransfers' ? batches : collection === 'bulkItems' ? items : null;
        if (!map) continue;
        if (record === null) map.delete(id);
        else map.set(id, record);
      }
    }
    const batch = [...batches.values()].find((b) => b.batchName === batchName);
    if (batch)
      disk.bulkDone = [...items.values()].filter(
        (i) => i.bulkTransferId === batch.id && i.status === 'completed',
      ).length;
  } catch (error) {
    disk.unreadable = String(error);
  }
  return disk;
}

const describeDisk = (d: Disk) =>
  `snapshot seq ${d.snapshotSeq}, journal ${d.journalLines} lines (seq ${d.journalFirstSeq}..${d.journalLastSeq}), ` +
  `${d.tornBytes} torn bytes${d.compactionCut ? ', a rewrite under way' : ''}, ` +
  `${d.bulkDone ?? 'no'} bulk items done${d.unreadable ? `, unreadable: ${d.unreadable}` : ''}`;

/** A business's whole ledger on the process, every page of it. */
const ledgerOf = (p: SandboxProcess, businessId: string) =>
  wholeLedger((path) => http(p, 'GET', path), businessId);

/**
 * Runs the load of one round and kills the process with SIGKILL after `killAfter` acknowledged requests: in an
 * `early` round counting every acknowledgement from the start (the bulk batch may still be on its way in), in a
 * `during-bulk` round counting the transfers answered after the batch was claimed for processing.
 */
async function loadAndKill(
  p: SandboxProcess,
  data: string,
  transferHeaders: Record<string, string>,
  round: number,
  rng: Random,
): Promise<RoundLoad> {
  const mode = rng.next() < 0.25 ? 'early' : 'during-bulk';
  const killAfter = mode === 'early' ? rng.int(1, 12) : rng.int(1, 60);
  const amounts = new Random(seedState(SEED, 1000 + round));
  const startedAt = Date.now();
  const load: RoundLoad = {
    round,
    mode,
    killAfter,
    sent: [],
    batchName: `Crash round ${round}`,
    batchId: null,
    processAcked: false,
    snapshotSeqBefore: await snapshotSeq(data),
    disk: {
      snapshotSeq: 0,
      journalLines: 0,
      journalFirstSeq: null,
      journalLastSeq: null,
      tornBytes: 0,
      compactionCut: false,
      bulkDone: null,
      unreadable: null,
    },
  };
  let killed = false;
  let counted = 0;
  const kill = () => {
    if (killed) return;
    killed = true;
    p.child.kill('SIGKILL');
  };
  const acknowledged = (kind: 'transfer' | 'bulk') => {
    if (mode === 'early' || (kind === 'transfer' && load.processAcked)) counted++;
    if (counted >= killAfter) kill();
  };

  const transfers = Array.from({ length: BULK_ITEMS }, (_, i) => ({
    amount: BULK_AMOUNT,
    receiverAccountNumber: '0123456789',
    receiverBankCode: '058',
    retrievalReference: `crash-bulk-${round}-${i}`,
    narration: `crash round ${round}`,
  }));
  const bulk = (async () => {
    const created = await http(p, 'POST', BULK, {
      headers: keyPair,
      body: { batchName: load.batchName, transfers },
    });
    if (created.status !== 201)
      throw new Error(`bulk create: ${created.status} ${JSON.stringify(created.body)}`);
    load.batchId = dataOf(created, bulkTransferWithItems).id;
    acknowledged('bulk');
    if (killed) return;
    const processed = await http(p, 'POST', `${BULK}/process`, {
      headers: keyPair,
      body: { bulkTransferId: load.batchId },
    });
    if (processed.status !== 202) throw new Error(`bulk process: ${processed.status}`);
    load.processAcked = true;
    acknowledged('bulk');
  })().catch((error: unknown) => {
    // No answer because of the kill is expected; any other answer is a failure of the test's own setup.
    if (!killed) throw error;
  });

  const worker = async () => {
    while (!killed && load.sent.length < MAX_TRANSFERS_PER_ROUND) {
      const sent: Sent = {
        body: {
          amount: amounts.int(100, 200_000),
          receiverAccountNumber: '0123456789',
          receiverBankCode: '058',
          retrievalReference: `crash-${round}-${load.sent.length}`,
          narration: `crash round ${round}`,
        },
        status: null,
        data: null,
        transactionReference: null,
      };
      load.sent.push(sent);
      try {
        const res = await http(p, 'POST', TRANSFER, { headers: transferHeaders, body: sent.body });
        sent.status = res.status;
        if (res.status === 200) {
          sent.data = dataOf(res, transferResult);
          acknowledged('transfer');
        }
      } catch (error) {
        if (!killed) throw error;
      }
    }
  };
  await Promise.all([bulk, ...Array.from({ length: WORKERS }, worker)]);
  kill();
  expect(await p.exited).toEqual({ code: null, signal: 'SIGKILL' });
  load.disk = await readDisk(data, load.batchName, startedAt);
  return load;
}

interface Figures {
  /** Restarts after a kill that passed every check. */
  rounds: number;
  /** Transfers looked up in the ledger, summed over the rounds. */
  ledgerChecks: number;
  acknowledged: number;
  unansweredPresent: number;
  unansweredAbsent: number;
  bulkCompletedAtKill: number[];
  compactedRounds: number;
  compactionsCut: number;
  tornJournals: number;
}

/**
 * After a restart: checks what the killed round left (acknowledged transfers replay identically, unanswered
 * ones are whole or absent, the batch is whole or absent), resolves the unanswered ones the way a client would
 * (sending them again), drains, and checks the invariants over everything sent so far. Every discrepancy is
 * collected, so a failure lists all that was lost in the round at once.
 */
async function verify(
  p: SandboxProcess,
  transferHeaders: Record<string, string>,
  load: RoundLoad,
  settled: Sent[],
  figures: Figures,
): Promise<void> {
  const where = `round ${load.round} (${load.mode}, kill after ${load.killAfter}; ${describeDisk(load.disk)})`;
  const problems: string[] = [];
  for (const s of load.sent)
    if (s.status !== null && s.status !== 200)
      problems.push(`${s.body.retrievalReference} was answered ${s.status} before the kill`);

  const before = await ledgerOf(p, A.a1.id);
  const transfersByRef = new Map<string, LedgerEntry[]>();
  for (const t of before.transactions) {
    if (t.kind !== 'transfer' || t.retrievalReference === null) continue;
    transfersByRef.set(t.retrievalReference, [...(transfersByRef.get(t.retrievalReference) ?? []), t]);
  }
  const resend = async (s: Sent) => {
    const res = await http(p, 'POST', TRANSFER, { headers: transferHeaders, body: s.body });
    return { status: res.status, data: res.status === 200 ? dataOf(res, transferResult) : null };
  };

  // (2) Every acknowledged transfer is there exactly once, whole, and the same request answers the same data.
  const acked = load.sent.filter((s) => s.status === 200);
  await Promise.all(
    acked.map(async (s) => {
      const ref = s.body.retrievalReference;
      if (!isDeepStrictEqual(s.data, amountsOf(s.body)))
        problems.push(`acknowledged ${ref}: answered ${JSON.stringify(s.data)} for ${s.body.amount} kobo`);
      const found = transfersByRef.get(ref) ?? [];
      const entry = found[0];
      if (
        found.length !== 1 ||
        entry?.status !== 'successful' ||
        entry.amount !== s.body.amount ||
        entry.charge !== FEE
      )
        problems.push(`acknowledged ${ref}: ledger holds ${JSON.stringify(found)} after restart`);
      s.transactionReference = entry?.id ?? null;
      const again = await resend(s);
      if (again.status !== 200 || !isDeepStrictEqual(again.data, s.data))
        problems.push(
          `acknowledged ${ref}: replay answered ${again.status} ${JSON.stringify(again.data)}, ` +
            `first answer ${JSON.stringify(s.data)}`,
        );
    }),
  );
  figures.acknowledged += acked.length;

  // (3) An unanswered transfer is all there (one successful entry of its amount) or not at all. Sending it
  // again, as a client would, answers the entry that is there, or makes it now.
  await Promise.all(
    load.sent
      .filter((s) => s.status === null)
      .map(async (s) => {
        const ref = s.body.retrievalReference;
        const found = transfersByRef.get(ref) ?? [];
        const entry = found[0];
        if (found.length > 1) problems.push(`unanswered ${ref}: ${found.length} ledger entries`);
        if (
          entry &&
          (entry.status !== 'successful' || entry.amount !== s.body.amount || entry.charge !== FEE)
        )
          problems.push(`unanswered ${ref}: partial entry ${JSON.stringify(entry)}`);
        if (entry) figures.unansweredPresent++;
        else figures.unansweredAbsent++;
        const again = await resend(s);
        if (again.status !== 200 || !isDeepStrictEqual(again.data, amountsOf(s.body)))
          problems.push(`unanswered ${ref} resent: ${again.status} ${JSON.stringify(again.data)}`);
        s.status = again.status;
        s.data = again.data;
        // The entry that was there is the transfer's; one made by the resend is learned after the drain.
        s.transactionReference = entry?.id ?? null;
      }),
  );
  settled.push(...load.sent);

  // The round's batch: there with all its items if its creation was answered (or not there at all), and
  // claimed if its claim was answered. A batch whose claim was lost with the kill is claimed again now.
  const list = pageOf(await http(p, 'GET', `${BULK}?limit=100`, { headers: keyPair }), bulkTransfer).data;
  const summary = list.find((b) => b.batchName === load.batchName);
  if (load.batchId !== null && summary?.id !== load.batchId)
    problems.push(`acknowledged batch ${load.batchId} is missing after restart`);
  if (summary) {
    const batch = dataOf(
      await http(p, 'GET', `${BULK}/${summary.id}`, { headers: keyPair }),
      bulkTransferWithItems,
    );
    if (batch.items.length !== BULK_ITEMS)
      problems.push(`batch ${batch.id} has ${batch.items.length} of its ${BULK_ITEMS} items`);
    if (load.processAcked && batch.status === 'pending')
      problems.push(`batch ${batch.id}: its acknowledged claim was lost`);
    if (batch.status === 'pending') {
      const claimed = await http(p, 'POST', `${BULK}/process`, {
        headers: keyPair,
        body: { bulkTransferId: batch.id },
      });
      if (claimed.status !== 202) problems.push(`claiming batch ${batch.id} again: ${claimed.status}`);
    }
  }
  figures.bulkCompletedAtKill.push(load.disk.bulkDone ?? 0);
  if (load.snapshotSeqBefore !== load.disk.snapshotSeq) figures.compactedRounds++;
  if (load.disk.compactionCut) figures.compactionsCut++;
  if (load.disk.tornBytes > 0) figures.tornJournals++;

  const drained = await http(p, 'POST', '/__sandbox/drain');
  if (drained.status !== 200) problems.push(`drain answered ${drained.status}`);
  else problems.push(...(await invariantProblems(p, settled)));
  expect(problems, where).toEqual([]);
}

/** (4) Over the whole state, after a drain: balances, ledgers, batches and every transfer sent so far agree. */
async function invariantProblems(p: SandboxProcess, settled: Sent[]): Promise<string[]> {
  const problems: string[] = [];
  const state = bodyOf(await http(p, 'GET', '/__sandbox/state'), stateExport);
  const businesses = z.array(businessRecord).parse(state.collections.businesses);
  const bulkTransfers = z.array(bulkTransferRecord).parse(state.collections.bulkTransfers);
  const bulkItems = z.array(bulkItemRecord).parse(state.collections.bulkItems);
  const ledgers = await Promise.all(businesses.map((b) => ledgerOf(p, b.id)));
  businesses.forEach((business, i) => {
    const l = ledgers[i];
    if (l && l.balance !== l.ledgerBalance)
      problems.push(`business ${business.id}: balance ${l.balance}, ledger explains ${l.ledgerBalance}`);
  });

  const ledger = ledgers[businesses.findIndex((b) => b.id === A.a1.id)];
  if (!ledger) return [...problems, `no ledger for ${A.a1.id}`];
  const byId = new Map<string, LedgerEntry[]>();
  const transferRefs = new Map<string, number>();
  const firstByRef = new Map<string, string>();
  for (const t of ledger.transactions) {
    byId.set(t.id, [...(byId.get(t.id) ?? []), t]);
    if (t.kind === 'transfer' && t.retrievalReference !== null) {
      transferRefs.set(t.retrievalReference, (transferRefs.get(t.retrievalReference) ?? 0) + 1);
      if (!firstByRef.has(t.retrievalReference)) firstByRef.set(t.retrievalReference, t.id);
    }
  }
  let expectedDebits = 0;
  for (const s of settled) {
    const ref = s.body.retrievalReference;
    // A transfer resent after a kill is learned here; every other keeps the entry it was first found with.
    s.transactionReference ??= firstByRef.get(ref) ?? null;
    const entries = byId.get(s.transactionReference ?? '') ?? [];
    const entry = entries[0];
    if (
      entries.length !== 1 ||
      entry?.kind !== 'transfer' ||
      entry.status !== 'successful' ||
      entry.retrievalReference !== ref ||
      entry.amount !== s.body.amount
    )
      problems.push(`transfer ${ref} (${s.transactionReference}): entries ${JSON.stringify(entries)}`);
    if (transferRefs.get(ref) !== 1)
      problems.push(`transfer ${ref}: ${transferRefs.get(ref) ?? 0} transfers with that retrievalReference`);
    expectedDebits += s.body.amount + FEE;
  }

  let completedItems = 0;
  // The batches the rounds made: the fixtures' own (failed before the state began) is no part of them.
  for (const batch of bulkTransfers.filter((b) => b.id !== fixture.batch)) {
    const items = bulkItems.filter((i) => i.bulkTransferId === batch.id);
    const count = (status: string) => items.filter((i) => i.status === status).length;
    const counters = {
      totalItems: batch.totalItems,
      completedItems: batch.completedItems,
      failedItems: batch.failedItems,
      status: batch.status,
    };
    const truth = {
      totalItems: items.length,
      completedItems: count('completed'),
      failedItems: count('failed'),
      status: 'completed',
    };
    if (!isDeepStrictEqual(counters, truth))
      problems.push(
        `batch ${batch.batchName}: ${JSON.stringify(counters)}, items say ${JSON.stringify(truth)}`,
      );
    for (const item of items) {
      const entries = byId.get(item.transactionReference) ?? [];
      if (item.status !== 'completed') {
        if (entries.length > 0) problems.push(`${item.status} item ${item.id} has ${entries.length} entries`);
        continue;
      }
      completedItems++;
      expectedDebits += item.amount + FEE;
      const entry = entries[0];
      if (
        entries.length !== 1 ||
        entry?.kind !== 'bulk_transfer' ||
        entry.status !== 'successful' ||
        entry.businessId !== batch.businessId ||
        entry.amount !== item.amount
      )
        problems.push(`item ${item.transactionReference}: entries ${JSON.stringify(entries)}`);
    }
  }
  const bulkEntries = ledger.transactions.filter((t) => t.kind === 'bulk_transfer').length;
  if (bulkEntries !== completedItems)
    problems.push(`${bulkEntries} bulk_transfer entries for ${completedItems} completed items`);
  // Nothing else moves this business's money since the fixtures' balance, so its balance is what was sent, to the
  // kobo (the opening balance is the one before the fixtures' own payments).
  if (ledger.balance !== A.a1.balance - expectedDebits)
    problems.push(
      `balance of ${A.a1.id}: ${ledger.balance}, expected ${A.a1.balance - expectedDebits} from what was sent`,
    );
  return problems;
}

describe('crash safety', () => {
  it(`holds every acknowledged transfer and every invariant across ${ROUNDS} kill -9 rounds under load`, async () => {
    const data = join(dir, 'db.json');
    const rng = new Random(seedState(SEED));
    const settled: Sent[] = [];
    const figures: Figures = {
      rounds: 0,
      ledgerChecks: 0,
      acknowledged: 0,
      unansweredPresent: 0,
      unansweredAbsent: 0,
      bulkCompletedAtKill: [],
      compactedRounds: 0,
      compactionsCut: 0,
      tornJournals: 0,
    };
    const startedAt = Date.now();
    let transferHeaders: Record<string, string> | null = null;
    let previous: RoundLoad | null = null;
    try {
      for (let round = 0; round <= ROUNDS; round++) {
        const p = await startProcess(args(data));
        running.push(p);
        // (1) The snapshot and the journal loaded: the process listens and answers health.
        expect((await http(p, 'GET', '/__sandbox/health')).body, `start ${round}`).toMatchObject({
          status: 'ok',
        });
        // The token key is part of the state, so one sign-in serves every round.
        transferHeaders ??= await ownerHeadersOf(p);
        if (previous) {
          await verify(p, transferHeaders, previous, settled, figures);
          figures.rounds++;
          figures.ledgerChecks += settled.length;
        }
        if (round === ROUNDS) {
          expect(await stop(p)).toEqual({ code: 0, signal: null });
          break;
        }
        previous = await loadAndKill(p, data, transferHeaders, round, rng);
      }
    } finally {
      const midBulk = figures.bulkCompletedAtKill.filter((n) => n > 0 && n < BULK_ITEMS).length;
      console.log(
        [
          `crash-safety (seed ${SEED}): ${figures.rounds} of ${ROUNDS} kill -9 rounds survived`,
          `in ${Date.now() - startedAt} ms;`,
          `${figures.acknowledged} acknowledged transfers present once and replayed identically;`,
          `${figures.unansweredPresent + figures.unansweredAbsent} unanswered at the kill`,
          `(${figures.unansweredPresent} wholly present, ${figures.unansweredAbsent} wholly absent);`,
          `${figures.ledgerChecks} ledger checks of ${settled.length} transfers over the rounds;`,
          `bulk items done at each kill: ${figures.bulkCompletedAtKill.join(', ')} of ${BULK_ITEMS}`,
          `(${midBulk} kills in the middle of the batch);`,
          `snapshot rewritten during ${figures.compactedRounds} rounds,`,
          `killed in the middle of a rewrite ${figures.compactionsCut} times;`,
          `torn journal tail after ${figures.tornJournals} kills`,
        ].join(' '),
      );
    }
    expect(figures.rounds).toBe(ROUNDS);
    expect(figures.acknowledged).toBeGreaterThan(0);
    // Background compaction took place under the load (finished, or cut short by the kill).
    expect(figures.compactedRounds + figures.compactionsCut).toBeGreaterThan(0);
  }, 60_000);
});

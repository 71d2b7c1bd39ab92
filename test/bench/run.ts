// `npm run bench`: the built CLI (dist/main.js, file store) under load, each figure next to a baseline, printed as
// one markdown table: reads (against a bare Hono app and the reads' floor), writes and transfers (large state against
// small), cold start, a bulk batch, a soak with its memory, dashboard fan-out and webhook head-of-line. Everything
// runs on 127.0.0.1 in child processes of this one, on free ports and temporary files, and is cleaned up even when a
// step fails.
//
// This file is the runner: it picks the parts (BENCH_ONLY), runs them in order and prints the table. Each part is a
// module of parts/ that exports its bench function and its rows; what they share is beside this file: settings.ts
// (the settings below that every part reads), processes.ts (children on free ports, health, stopping),
// sandbox-client.ts (requests, signing in), load.ts (load runs and their alternation), proc.ts (CPU and memory from
// /proc), wrk.ts and table.ts.
//
// The load generator is wrk (one thread, so server and client each have a core), installed from Debian's
// packages if missing; autocannon is the fallback. This machine is a VM with noisy neighbours: a figure and its
// baseline are measured in alternation, BENCH_ROUNDS times, and the medians are reported.
//
// Environment: BENCH_SECONDS (length of each measured run, default 5), BENCH_ROUNDS (default 3),
// BENCH_WARMUP_SECONDS (default 2), BENCH_CONNECTIONS (default 50), BENCH_COLD_RUNS (default 9), BENCH_MAIN (the
// CLI to measure, default dist/main.js: point it at another build to compare), BENCH_NO_INSTALL=1 (never apt-get),
// BENCH_BULK_ITEMS (default 10 000), BENCH_SOAK_SECONDS (default 60), BENCH_SOAK_CONNECTIONS (200),
// BENCH_SOAK_IDLE_SECONDS (20: how long the soaked process idles before its end is read),
// BENCH_SOAK_MEMORY_LIMIT_MB (run the soak under a hard memory bound, as in a container of that size; see benchSoak),
// BENCH_FANOUT_CLIENTS (300), BENCH_ONLY (comma-separated parts to run: cold, reads, writes, transfers, bulk, soak,
// fanout, webhooks, worlds, typical, reversals, rules, store; default all), BENCH_REVERSALS (10 000 pending
// reversals for the part reversals), BENCH_TYPICAL_TESTS (200), BENCH_STORE_ITEMS (60 000 bulk items for the part
// store), BENCH_STORE_BEFORE (another checkout, whose src/ the part store measures as its baseline), BENCH_BEFORE (a
// build of an earlier commit, its dist/main.js: the parts reads, writes, transfers, typical and cold measure it in
// alternation with BENCH_MAIN in the same rounds, and add the rows "reads vs before", "writes vs before", "transfers
// vs before" (on the small state), "typical test vs before" and "cold start vs before", ours / before, whose target
// is to stay within 5 %). Every number must be positive.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setUpLoadGenerator } from './load.js';
import { benchBulk, bulkRows } from './parts/bulk.js';
import { benchColdStart, coldStartRows } from './parts/cold-start.js';
import { benchFanout, fanoutRows } from './parts/fanout.js';
import { benchHooks, hooksRows } from './parts/hooks.js';
import { benchReads, readsRows } from './parts/reads.js';
import { benchReversals, reversalsRows } from './parts/reversals.js';
import { benchRules, rulesRows } from './parts/rules.js';
import { benchSoak, soakRows } from './parts/soak.js';
import { benchStore, storeRows } from './parts/store.js';
import { benchTypical, typicalRows } from './parts/typical.js';
import { benchWorlds, worldsRows } from './parts/worlds.js';
import { benchTransfers, benchWebhookWrites, transfersRows, writesRows } from './parts/writes.js';
import { bundleApp, stopAll } from './processes.js';
import { beforeJs, CONNECTIONS, log, mainJs, ROUNDS, root, SECONDS, WARMUP_SECONDS } from './settings.js';
import { type Row, table } from './table.js';

const PARTS = [
  'cold',
  'reads',
  'writes',
  'transfers',
  'bulk',
  'soak',
  'fanout',
  'webhooks',
  'worlds',
  'typical',
  'reversals',
  'rules',
  'store',
] as const;
type Part = (typeof PARTS)[number];
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
for (const part of ONLY) {
  if (!(PARTS as readonly string[]).includes(part))
    throw new Error(`BENCH_ONLY takes a comma-separated list of ${PARTS.join(', ')}; not "${part}"`);
}
/** Whether a part of the benchmark runs: all of them unless BENCH_ONLY names some. */
const runs = (part: Part) => ONLY.length === 0 || ONLY.includes(part);
/** The order of the table, which is not the order the parts run in (see `main`). */
const TABLE_ORDER: readonly Part[] = [
  'reads',
  'writes',
  'transfers',
  'bulk',
  'soak',
  'fanout',
  'webhooks',
  'worlds',
  'typical',
  'reversals',
  'rules',
  'store',
  'cold',
];

const bareSource = join(root, 'test', 'bench', 'bare-hono.ts');

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-bench-'));
  try {
    const wrk = setUpLoadGenerator(dir);
    log(wrk ? `load generator: ${wrk} (one thread)` : 'load generator: autocannon (wrk not available)');
    const bareBundle = await bundleApp(dir, bareSource);
    const rows: Partial<Record<Part, Row[]>> = {};
    // Cold start first: it is the most sensitive to what ran before (dirty pages of the write runs, a big heap).
    if (runs('cold')) rows.cold = coldStartRows(await benchColdStart(dir, bareBundle));
    if (runs('reads')) rows.reads = readsRows(await benchReads(dir, bareBundle));
    if (runs('writes')) rows.writes = writesRows(await benchWebhookWrites(dir));
    if (runs('transfers')) rows.transfers = transfersRows(await benchTransfers(dir));
    if (runs('bulk')) rows.bulk = bulkRows(await benchBulk(dir));
    if (runs('soak') && wrk) rows.soak = soakRows(await benchSoak(dir));
    if (runs('fanout')) rows.fanout = fanoutRows(await benchFanout(dir));
    if (runs('webhooks')) rows.webhooks = hooksRows(await benchHooks(dir));
    if (runs('worlds')) rows.worlds = worldsRows(await benchWorlds(dir));
    if (runs('typical')) rows.typical = typicalRows(await benchTypical(dir));
    if (runs('reversals')) rows.reversals = reversalsRows(await benchReversals(dir));
    if (runs('rules')) rows.rules = rulesRows(await benchRules(dir));
    if (runs('store')) rows.store = storeRows(benchStore());
    process.stdout.write(
      `\n${relative(root, mainJs)}${beforeJs ? ` (before: ${beforeJs})` : ''}: ${wrk ? 'wrk -t1' : 'autocannon'}, ${CONNECTIONS} connections, ` +
        `${ROUNDS} alternating rounds of ${SECONDS} s (medians) after ${WARMUP_SECONDS} s warm-up, node ${process.version}\n\n` +
        `${table(TABLE_ORDER.flatMap((part) => rows[part] ?? []))}\n`,
    );
  } finally {
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
  process.exitCode = 1;
});

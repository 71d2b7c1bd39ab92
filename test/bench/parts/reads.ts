// Part `reads`: the sandbox's cheapest authenticated read against a bare Hono app, and the same read at its floor.
import { join } from 'node:path';
import { against, alternated, type Pair } from '../load.js';
import { bare, bundleApp, cli, ours, type Server, startServer, stopServer } from '../processes.js';
import { A, schemeA, signIn } from '../sandbox-client.js';
import { beforeJs, log, root } from '../settings.js';
import { int, ms, type Row, ratio, verdict } from '../table.js';
import type { Load } from '../wrk.js';

const floorSource = join(root, 'test', 'bench', 'floor-hono.ts');

export interface Reads extends Pair {
  /** The reads' floor (`floor-hono.ts`) against the same bare app, in the same rounds. */
  floor: Pair;
  /** The same read on the BENCH_BEFORE build, as the baseline of ours, in the same rounds; absent without one. */
  before?: Pair;
}

/**
 * The sandbox's reads against a bare Hono app, and, in the same rounds, the reads' floor: a Hono app doing only what
 * the sandbox requires of a read (the same answer after the checks of scheme A, a request id, a journal entry), to show
 * how much of the distance to the bare app any implementation would have. With BENCH_BEFORE, the same read on that
 * build joins the same rounds, so that ours and the earlier build share whatever the neighbours do to the machine.
 */
export async function benchReads(dir: string, bareBundle: string): Promise<Reads> {
  const floorBundle = await bundleApp(dir, floorSource);
  log(
    'reads: sandbox GET /api/v1/clients/business/account-details vs bare Hono GET / vs the same read at its floor' +
      (beforeJs ? ` vs the same read on ${beforeJs}` : ''),
  );
  const sandbox = await startServer('sandbox', ours(join(dir, 'reads.json')));
  const baseline = await startServer('bare hono', bare(bareBundle));
  let floor: Server | null = null;
  let before: Server | null = null;
  try {
    const token = await signIn(sandbox);
    const headers = schemeA(token);
    floor = await startServer(
      'floor',
      bare(floorBundle, { TOKEN: token, SECRET_KEY: A.secretKey, BUSINESS_ID: A.businessId }),
    );
    const path = '/api/v1/clients/business/account-details';
    const targets = [
      { url: `${sandbox.url}${path}`, headers },
      { url: `${baseline.url}/` },
      { url: `${floor.url}${path}`, headers },
    ];
    const pids = [sandbox.child.pid, baseline.child.pid, floor.child.pid];
    if (beforeJs) {
      before = await startServer('sandbox (before)', cli(beforeJs, join(dir, 'reads-before.json')));
      targets.push({ url: `${before.url}${path}`, headers: schemeA(await signIn(before)) });
      pids.push(before.child.pid);
    }
    const [measured, , atFloor, onBefore] = await alternated(targets, pids);
    if (!measured || !atFloor || (before && !onBefore)) throw new Error('reads: not measured');
    return { ...measured, floor: atFloor, ...(onBefore ? { before: against(measured, onBefore) } : {}) };
  } finally {
    await stopServer(sandbox);
    await stopServer(baseline);
    if (floor) await stopServer(floor);
    if (before) await stopServer(before);
  }
}

/**
 * The GC pause each request cost the server, measured and baseline (the ratio: baseline / measured): as measured,
 * or with `free` as it would be on free cores (`gcPerRequest`).
 */
function gcRow(measure: string, { a, b }: Pair, free: boolean, target = '', ok = ''): Row {
  const us = (load: Load) => (free ? load.gcFreeUs : load.gcUs) ?? Number.NaN;
  return [
    measure,
    `${us(a).toFixed(2)} µs`,
    `${us(b).toFixed(2)} µs`,
    (us(b) / us(a)).toFixed(2),
    target,
    ok,
  ];
}

/** The CPU each request cost the server, measured and baseline, and the baseline's share of the measured. */
function cpuRow(measure: string, { a, b }: Pair): Row {
  const us = (load: Load) => load.cpuUs ?? Number.NaN;
  return [measure, `${us(a).toFixed(0)} µs`, `${us(b).toFixed(0)} µs`, (us(b) / us(a)).toFixed(2), '', ''];
}

export function readsRows(reads: Reads): Row[] {
  return [
    [
      'reads req/s (account-details; baseline bare Hono GET /)',
      int.format(reads.a.rps),
      int.format(reads.b.rps),
      reads.ratio.toFixed(2),
      '≥ 0.60',
      verdict(reads.ratio >= 0.6),
    ],
    [
      'reads req/s at the floor: only the checks, request id and journal entry required (baseline bare Hono)',
      int.format(reads.floor.a.rps),
      int.format(reads.floor.b.rps),
      reads.floor.ratio.toFixed(2),
      '',
      '',
    ],
    ['reads p99 latency', ms(reads.a.p99), ms(reads.b.p99), ratio(reads.a.p99, reads.b.p99), '', ''],
    // Less at the mercy of the neighbours than req/s: what each request cost the server, all its threads.
    cpuRow('reads CPU per request (ratio: baseline / ours)', reads),
    cpuRow('reads CPU per request at the floor (ratio: baseline / floor)', reads.floor),
    // What the collector cost each read (the pauses of the main thread, default journal and V8 flags): as the
    // pauses measured, most of which is waiting for a core on this machine, and as they would be on free cores.
    gcRow('reads GC pause per request, as measured (ratio: baseline / ours)', reads, false),
    gcRow(
      'reads GC pause per request on free cores (ratio: baseline / ours)',
      reads,
      true,
      '≤ 1.2 µs',
      verdict((reads.a.gcFreeUs ?? Number.POSITIVE_INFINITY) <= 1.2),
    ),
    ...(reads.before ? beforeRows(reads.before) : []),
  ];
}

/**
 * Ours against the BENCH_BEFORE build: within 5 % of its requests/s. The ratio has three decimals, as a
 * target of 5 % needs, and is the median of the per-round ratios, as every other pair's.
 */
function beforeRows(before: Pair): Row[] {
  return [
    [
      'reads vs before: req/s (account-details; baseline: the BENCH_BEFORE build, same rounds)',
      int.format(before.a.rps),
      int.format(before.b.rps),
      before.ratio.toFixed(3),
      '≥ 0.95',
      verdict(before.ratio >= 0.95),
    ],
    cpuRow('reads vs before: CPU per request (ratio: before / ours)', before),
    gcRow('reads vs before: GC pause per request, as measured (ratio: before / ours)', before, false),
    gcRow('reads vs before: GC pause per request on free cores (ratio: before / ours)', before, true),
  ];
}

// Part `cold`: from spawning the CLI to the first 200 of its health route, next to the bare Hono app's.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, rotated } from '../load.js';
import {
  bare,
  cli,
  freePort,
  type Launch,
  ours,
  spawnServer,
  startServer,
  stopServer,
  waitHealthy,
} from '../processes.js';
import { beforeJs, envNumber, log } from '../settings.js';
import { ms, type Row, ratio, verdict } from '../table.js';

const COLD_RUNS = envNumber('BENCH_COLD_RUNS', 9);

interface ColdStart {
  median: number;
  min: number;
}

export interface ColdStarts {
  ours: ColdStart;
  bare: ColdStart;
  /** The BENCH_BEFORE build's, started in alternation with ours; absent without one. */
  before?: ColdStart & {
    /** Median over the rounds of ours / before. */
    ratio: number;
  };
}

/** Spawn to the first 200 from the health route, in ms. */
export async function timeStart(name: string, launch: Launch): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const server = spawnServer(name, launch, port, false);
  try {
    await waitHealthy(server);
    return performance.now() - started;
  } finally {
    await stopServer(server);
  }
}

/**
 * COLD_RUNS starts of each of `launches`, in alternation (`rotated`), so that a slow spell of the host falls on
 * all of them alike. Answers each one's times in the order of the rounds.
 */
function coldStarts(launches: readonly [name: string, launch: Launch][]): Promise<number[][]> {
  return rotated(launches, COLD_RUNS, ([name, launch]) => timeStart(name, launch));
}

const summary = (times: number[]): ColdStart => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: median(times), min: sorted[0] ?? Number.NaN };
};

export async function benchColdStart(dir: string, bareBundle: string): Promise<ColdStarts> {
  log(`cold start: ${COLD_RUNS} runs each${beforeJs ? `, ours in alternation with ${beforeJs}` : ''}`);
  const builds: [string, Launch][] = [['sandbox', ours(join(dir, 'cold.json'))]];
  if (beforeJs) builds.push(['sandbox (before)', cli(beforeJs, join(dir, 'cold-before.json'))]);
  // A first start creates the state file; the measured ones load it, as a restart does.
  for (const [name, launch] of builds) await stopServer(await startServer(name, launch));
  const [now = [], before] = await coldStarts(builds);
  const [bareTimes = []] = await coldStarts([['bare hono', bare(bareBundle)]]);
  return {
    ours: summary(now),
    bare: summary(bareTimes),
    ...(before
      ? { before: { ...summary(before), ratio: median(now.map((t, i) => t / (before[i] ?? Number.NaN))) } }
      : {}),
  };
}

export function coldStartRows(cold: ColdStarts): Row[] {
  const { before } = cold;
  return [
    [
      `cold start, median of ${COLD_RUNS} (baseline bare Hono)`,
      ms(cold.ours.median),
      ms(cold.bare.median),
      ratio(cold.ours.median, cold.bare.median),
      '< 300 ms',
      verdict(cold.ours.median < 300),
    ],
    ['cold start, min', ms(cold.ours.min), ms(cold.bare.min), ratio(cold.ours.min, cold.bare.min), '', ''],
    // Within 5 % of the earlier build; three decimals, as a target of 5 % needs.
    ...(before
      ? ([
          [
            `cold start vs before: median of ${COLD_RUNS}, in alternation (baseline: the BENCH_BEFORE build)`,
            ms(cold.ours.median),
            ms(before.median),
            before.ratio.toFixed(3),
            '≤ 1.05',
            verdict(before.ratio <= 1.05),
          ],
        ] as Row[])
      : []),
  ];
}

// Part `cold`: from spawning the CLI to the first 200 of its health route, next to the bare Hono app's.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  bare,
  freePort,
  type Launch,
  ours,
  spawnServer,
  startServer,
  stopServer,
  waitHealthy,
} from '../processes.js';
import { envNumber, log } from '../settings.js';
import { ms, type Row, ratio, verdict } from '../table.js';

const COLD_RUNS = envNumber('BENCH_COLD_RUNS', 9);

interface ColdStart {
  median: number;
  min: number;
}

export interface ColdStarts {
  ours: ColdStart;
  bare: ColdStart;
}

/** Spawn to the first 200 from the health route, in ms. */
async function timeStart(name: string, launch: Launch): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const server = spawnServer(name, launch, port);
  try {
    await waitHealthy(server);
    return performance.now() - started;
  } finally {
    await stopServer(server);
  }
}

async function coldStarts(name: string, launch: Launch): Promise<ColdStart> {
  const times: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) times.push(await timeStart(name, launch));
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? Number.NaN, min: times[0] ?? Number.NaN };
}

export async function benchColdStart(dir: string, bareBundle: string): Promise<ColdStarts> {
  log(`cold start: ${COLD_RUNS} runs each`);
  const dataFile = join(dir, 'cold.json');
  // A first start creates the state file; the measured ones load it, as a restart does.
  await stopServer(await startServer('sandbox', ours(dataFile)));
  return {
    ours: await coldStarts('sandbox', ours(dataFile)),
    bare: await coldStarts('bare hono', bare(bareBundle)),
  };
}

export function coldStartRows(cold: ColdStarts): Row[] {
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
  ];
}

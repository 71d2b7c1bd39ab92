// Part `worlds`: isolated sandboxes. A test file's whole life in one (create, sign in, one read, delete)
// against a process's cold start, measured in the same rounds; the resident memory an idle one holds (the growth
// over 90 of them, after a full collection on either side); and the authenticated read inside one against the same
// read on the root, in alternation on one process.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { alternated, median, type Pair, rotated } from '../load.js';
import { residentMb } from '../proc.js';
import { cli, type Launch, ours, type Server, startServer, stopServer } from '../processes.js';
import { isRecord, requestJson, schemeA, signIn } from '../sandbox-client.js';
import { envNumber, log, mainJs, ROUNDS } from '../settings.js';
import { int, ms, type Row, verdict } from '../table.js';
import { timeStart } from './cold-start.js';

/** Lives measured in each round, after one round's worth of warm-up. */
const LIVES = envNumber('BENCH_WORLD_LIVES', 30);
/** Isolated sandboxes made for the memory figure. */
const IDLE_WORLDS = 90;
const READ = '/api/v1/clients/business/account-details';

export interface Worlds {
  /** Median ms of a life, and of a cold start, and the median over the rounds of their ratio. */
  life: number;
  cold: number;
  lifeRatio: number;
  /** Resident MB per idle isolated sandbox: the growth over IDLE_WORLDS of them. */
  rssPerWorldMb: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  /** Reads inside an isolated sandbox (a) against the same read on the root (b). */
  reads: Pair;
}

const json = { 'content-type': 'application/json' };

/** Makes an isolated sandbox on `server`; answers its id. */
async function create(server: Server, body: Record<string, unknown> = {}): Promise<string> {
  const answer = await requestJson(`${server.url}/__sandbox/sandboxes`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  });
  const data = isRecord(answer) ? answer.data : undefined;
  const id = isRecord(data) ? data.id : undefined;
  if (typeof id !== 'string') throw new Error(`no sandbox made: ${JSON.stringify(answer)}`);
  return id;
}

/** One test file's life in an isolated sandbox, in ms: create, sign in, one authenticated read, delete. */
async function life(server: Server): Promise<number> {
  const started = performance.now();
  const id = await create(server);
  const world = { ...server, url: `${server.url}/sandboxes/${id}` };
  const token = await signIn(world);
  await requestJson(`${world.url}${READ}`, { headers: schemeA(token) });
  await requestJson(`${server.url}/__sandbox/sandboxes/${id}`, { method: 'DELETE' });
  return performance.now() - started;
}

/** The full collection the metrics route makes (node runs with --expose-gc here), then the resident memory. */
async function collectedRss(server: Server): Promise<number> {
  await requestJson(`${server.url}/__sandbox/metrics?gc=true`);
  await requestJson(`${server.url}/__sandbox/metrics?gc=true`);
  return residentMb(server.child.pid ?? 0);
}

export async function benchWorlds(dir: string): Promise<Worlds> {
  log(
    `worlds: ${LIVES} lives a round against a cold start, ${IDLE_WORLDS} idle sandboxes, reads inside one vs the root`,
  );
  const withGc: Launch = (port) => {
    const { args, env } = ours(join(dir, 'worlds.json'))(port);
    return { args: ['--expose-gc', ...args, '--max-sandboxes', String(IDLE_WORLDS + 10)], env };
  };
  const server = await startServer('sandbox (worlds)', withGc);
  try {
    // A life against a cold start, round by round: the cold start of a fresh process on its own state file.
    for (let i = 0; i < LIVES; i++) await life(server);
    const coldLaunch = cli(mainJs, join(dir, 'worlds-cold.json'));
    await stopServer(await startServer('sandbox (cold)', coldLaunch));
    const [lives = [], colds = []] = await rotated(['lives', 'cold'] as const, ROUNDS * 3, async (what) => {
      if (what === 'cold') return timeStart('sandbox (cold)', coldLaunch);
      const times: number[] = [];
      for (let i = 0; i < LIVES; i++) times.push(await life(server));
      return median(times);
    });
    const lifeRatio = median(lives.map((l, i) => l / (colds[i] ?? Number.NaN)));

    // Memory: idle isolated sandboxes, each signed in once (its token cache and routes used, as a test file's).
    const rssBeforeMb = await collectedRss(server);
    for (let i = 0; i < IDLE_WORLDS; i++) {
      const id = await create(server, { id: `idle-${i}` });
      await signIn({ ...server, url: `${server.url}/sandboxes/${id}` });
    }
    const rssAfterMb = await collectedRss(server);

    // Reads: one isolated sandbox against the root, on this one process.
    const id = await create(server, { id: 'reads' });
    const inWorld = { ...server, url: `${server.url}/sandboxes/${id}` };
    const reads = await alternated(
      [
        { url: `${inWorld.url}${READ}`, headers: schemeA(await signIn(inWorld)) },
        { url: `${server.url}${READ}`, headers: schemeA(await signIn(server)) },
      ],
      [server.child.pid, server.child.pid],
    );
    const [inside] = reads;
    if (!inside) throw new Error('worlds: reads not measured');
    return {
      life: median(lives),
      cold: median(colds),
      lifeRatio,
      rssPerWorldMb: (rssAfterMb - rssBeforeMb) / IDLE_WORLDS,
      rssBeforeMb,
      rssAfterMb,
      reads: inside,
    };
  } finally {
    await stopServer(server);
  }
}

export function worldsRows(w: Worlds): Row[] {
  return [
    [
      'isolated sandbox: a test file’s life (create, sign in, one read, delete) (baseline: a cold start, same rounds)',
      ms(w.life),
      ms(w.cold),
      w.lifeRatio.toFixed(3),
      '≤ 0.05',
      verdict(w.lifeRatio <= 0.05),
    ],
    [
      `isolated sandbox: resident memory per idle one (growth over ${IDLE_WORLDS}, after a full GC)`,
      `${w.rssPerWorldMb.toFixed(2)} MB`,
      `${w.rssBeforeMb.toFixed(0)} → ${w.rssAfterMb.toFixed(0)} MB`,
      '',
      '≤ 2 MB',
      verdict(w.rssPerWorldMb <= 2),
    ],
    [
      'isolated sandbox: reads req/s inside one (baseline: the same read on the root, same process)',
      int.format(w.reads.a.rps),
      int.format(w.reads.b.rps),
      w.reads.ratio.toFixed(2),
      '≥ 0.90',
      verdict(w.reads.ratio >= 0.9),
    ],
  ];
}

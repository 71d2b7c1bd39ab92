// Load runs: one run against one target (wrk, or autocannon without it), and the alternation of several targets
// over rounds that every comparison of the benchmark rests on.
import { tmpdir } from 'node:os';
import { constants } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { cpuMicros } from './proc.js';
import { type GcPause, gcPauses } from './processes.js';
import { CONNECTIONS, log, ROUNDS, SECONDS, WARMUP_SECONDS } from './settings.js';
import { findWrk, type Load, type LoadTarget, wrkLoad } from './wrk.js';

let wrk: string | null = null;
let scratch = tmpdir();

/**
 * Finds wrk (installing it when it can, see `findWrk`) and has its scripts written to `dir` from now on. Answers
 * its path, or null when the runs fall back to autocannon.
 */
export function setUpLoadGenerator(dir: string): string | null {
  scratch = dir;
  wrk = findWrk();
  return wrk;
}

/** wrk's path once `setUpLoadGenerator` found it, else null. */
export const loadGenerator = (): string | null => wrk;

/**
 * One load run, with wrk when there is one. `{n}` in a body becomes a number unique to the request. With `pid`
 * (the server's), the server's CPU time per request as well, and what its collections paused it per request (its
 * GC meter writes every 50 ms: read once more after the run, when the last of it is written).
 */
export async function load(target: LoadTarget, seconds: number, pid?: number): Promise<Load> {
  const before = cpuMicros(pid);
  const gcBefore = gcPauses(pid)?.length ?? 0;
  const done = await loadRun(target, seconds);
  const cpuUs = (cpuMicros(pid) - before) / done.requests;
  if (pid === undefined) return { ...done, cpuUs };
  await sleep(120);
  return { ...done, cpuUs, ...gcPerRequest(gcPauses(pid)?.slice(gcBefore) ?? [], done.requests) };
}

/** The share of a run's scavenges taken as those whose helper threads found a core (see `gcPerRequest`). */
const FREE_QUANTILE = 0.1;
const MINOR = constants.NODE_PERFORMANCE_GC_MINOR;

/**
 * A run's pauses per request: summed as measured (`gcUs`), and as they would be on free cores (`gcFreeUs`). A
 * scavenge's main thread copies in parallel with V8's helper threads and then waits for them; with the server and
 * the load generator on the two cores, a helper may get one only milliseconds later, and the wait, not the copying,
 * makes most of the measured pause. The scavenges of a run copy much the same, so each is counted at the run's
 * tenth-fastest scavenge; the rarer pauses of the old generation are summed as measured.
 */
export function gcPerRequest(pauses: GcPause[], requests: number): { gcUs: number; gcFreeUs: number } {
  const scavenges = pauses
    .filter((p) => p.kind === MINOR)
    .map((p) => p.us)
    .sort((x, y) => x - y);
  const others = pauses.filter((p) => p.kind !== MINOR).reduce((sum, p) => sum + p.us, 0);
  const fast = scavenges[Math.floor(scavenges.length * FREE_QUANTILE)] ?? 0;
  const total = scavenges.reduce((sum, us) => sum + us, 0) + others;
  return { gcUs: total / requests, gcFreeUs: (fast * scavenges.length + others) / requests };
}

async function loadRun(target: LoadTarget, seconds: number): Promise<Load> {
  if (wrk) return wrkLoad(wrk, scratch, target, seconds, CONNECTIONS);
  let n = 0;
  const [before, after] = (target.body ?? '').split('{n}');
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    body: target.body,
    connections: CONNECTIONS,
    duration: seconds,
    requests:
      after === undefined
        ? undefined
        : [{ setupRequest: (req) => ({ ...req, body: `${before}${process.pid}-${++n}${after}` }) }],
  });
  if (result.non2xx > 0 || result['2xx'] === 0) {
    throw new Error(
      `${target.method ?? 'GET'} ${target.url}: ${result['2xx']} answers 2xx, ${result.non2xx} not`,
    );
  }
  if (result.errors > 0) log(`${target.url}: ${result.errors} errors (${result.timeouts} timeouts)`);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
  };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

export interface Pair {
  a: Load;
  b: Load;
  /** Median over the rounds of a.rps / b.rps. */
  ratio: number;
  /** a's figures of each round, in the order of the rounds. */
  rounds: Load[];
}

/** The median of each figure over the rounds. */
export const summary = (runs: Load[]): Load => ({
  rps: median(runs.map((r) => r.rps)),
  p99: median(runs.map((r) => r.p99)),
  requests: runs.reduce((sum, r) => sum + r.requests, 0),
  errors: runs.reduce((sum, r) => sum + r.errors, 0),
  cpuUs: median(runs.map((r) => r.cpuUs ?? Number.NaN)),
  gcUs: median(runs.map((r) => r.gcUs ?? Number.NaN)),
  gcFreeUs: median(runs.map((r) => r.gcFreeUs ?? Number.NaN)),
});

/**
 * `x` against the baseline `y`, two targets measured in the same rounds of one `alternated`: each one's medians,
 * and the median of the ratios of their requests/s round by round.
 */
export function against(x: Pick<Pair, 'a' | 'rounds'>, y: Pick<Pair, 'a' | 'rounds'>): Pair {
  return {
    a: x.a,
    b: y.a,
    ratio: median(x.rounds.map((r, i) => r.rps / (y.rounds[i]?.rps ?? Number.NaN))),
    rounds: x.rounds,
  };
}

/**
 * Measures each of `subjects` `rounds` times, each round starting with the next subject (a, b, c; then b, c, a; …)
 * so that none always runs right after the same one. Answers each subject's results in the order of the rounds;
 * `afterRound` sees them as they are after each round.
 */
export async function rotated<S, T>(
  subjects: readonly S[],
  rounds: number,
  measure: (subject: S, i: number) => Promise<T>,
  afterRound: (round: number, results: T[][]) => void = () => undefined,
): Promise<T[][]> {
  const results: T[][] = subjects.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < subjects.length; k++) {
      const i = (round + k) % subjects.length;
      const subject = subjects[i];
      if (subject !== undefined) results[i]?.push(await measure(subject, i));
    }
    afterRound(round, results);
  }
  return results;
}

/**
 * Measures `targets` in alternation (`rotated`), ROUNDS times each, after one warm-up run of each. Reports the
 * median of each target's figures, and of its per-round ratio to the baseline (the second target), so a burst of
 * noise from the host hits both sides alike.
 */
export async function alternated(targets: LoadTarget[], pids: (number | undefined)[] = []): Promise<Pair[]> {
  for (const target of targets) await load(target, WARMUP_SECONDS);
  const rounds = await rotated(
    targets,
    ROUNDS,
    (target, i) => load(target, SECONDS, pids[i]),
    (round, results) => {
      const figures = results.map((runs) => runs[round]);
      log(
        `  round ${round + 1}: ${figures.map((r) => Math.round(r?.rps ?? 0)).join(' vs ')} req/s` +
          (pids.length > 0
            ? `, ${figures.map((r) => Math.round(r?.cpuUs ?? Number.NaN)).join(' vs ')} µs CPU a request` +
              `, ${figures.map((r) => (r?.gcUs ?? Number.NaN).toFixed(2)).join(' vs ')} µs GC a request` +
              ` (${figures.map((r) => (r?.gcFreeUs ?? Number.NaN).toFixed(2)).join(' vs ')} on free cores)`
            : ''),
      );
    },
  );
  const measured = rounds.map((runs) => ({ a: summary(runs), rounds: runs }));
  const baseline = measured[1] ?? { a: summary([]), rounds: [] };
  return measured.map((target) => against(target, baseline));
}

/** `a` against the baseline `b` (see `alternated`). */
export async function paired(a: LoadTarget, b: LoadTarget, pids: (number | undefined)[] = []): Promise<Pair> {
  const [pair] = await alternated([a, b], pids);
  if (!pair) throw new Error('no measurement');
  return pair;
}

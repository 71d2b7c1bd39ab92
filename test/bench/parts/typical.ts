// Part `typical`: a typical integration test, the same steps against the sandbox and against a bare Hono
// app that answers each with a fixed body (bare-typical.ts), in the same rounds: a fresh client, sign in, a
// transfer, a 10-item batch, process it, drain, read it back, verify the journal. Sequentially and with 4 workers
// at once, and once more with each worker in an isolated sandbox of its own that it makes first. The servers run
// on one core (taskset, where there is one), the workers in this process, with the global fetch as an app's tests
// would.
//
// With BENCH_BEFORE the same tests run on that build too, in the same rounds; each run also reads the server's CPU
// time per test, less at the mercy of the neighbours than the time the tests take.
//
// Reproduce: BENCH_ONLY=typical npm run bench (BENCH_TYPICAL_TESTS: tests a measured run, default 200).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, rotated } from '../load.js';
import { cpuMicros } from '../proc.js';
import {
  bare,
  bundleApp,
  cli,
  type Launch,
  ours,
  type Server,
  startServer,
  stopServer,
} from '../processes.js';
import { beforeJs, envNumber, log, ROUNDS, root } from '../settings.js';
import { type Row, verdict } from '../table.js';

const TESTS = envNumber('BENCH_TYPICAL_TESTS', 200);
const WORKERS = 4;
const bareSource = join(root, 'test', 'bench', 'bare-typical.ts');

/** `taskset -c 1`, where taskset is: the server keeps one core, the workers the other. */
const ONE_CORE = spawnSync('taskset', ['--version']).status === 0 ? ['taskset', '-c', '1'] : [];

/** A figure of ours against a baseline's: each a median over the rounds, and the median of the rounds' ratios. */
export interface Versus {
  ours: number;
  bare: number;
  ratio: number;
}

export interface Typical {
  /** ms per test, sandbox and bare, and tests/s of the workers; each a median over the rounds. */
  sequential: Versus;
  workers: Versus;
  isolated: Versus;
  /**
   * With BENCH_BEFORE: ours against that build, in the same rounds (`bare` is the build's): tests/s with 4
   * workers, and the server's CPU ms per test sequentially and with 4 workers.
   */
  before?: { workers: Versus; sequentialCpu: Versus; workersCpu: Versus };
}

/**
 * One JSON request with the global `fetch` (undici, keep-alive), as an app's test suite sends it; answers the parsed
 * body (a failure throws).
 */
async function send(url: string, method: string, headers: Record<string, string> = {}, body?: unknown) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const res = await fetch(url, {
    method,
    headers: text === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: text,
  });
  const parsed = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300)
    throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(parsed).slice(0, 200)}`);
  return parsed;
}

const dataOf = (body: Record<string, unknown>) => body.data as Record<string, unknown>;
let counter = 0;

/** One typical test against `base` (a sandbox's root, or an isolated sandbox's `/sandboxes/{id}`). */
async function typicalTest(base: string): Promise<void> {
  const n = counter++;
  const client = dataOf(await send(`${base}/__sandbox/clients`, 'POST', {}, {}));
  if (!Array.isArray(client?.businesses))
    throw new Error(`no client made at ${base}: ${JSON.stringify(client)}`);
  const [business] = client.businesses as { id: string }[];
  const businessId = business?.id ?? '';
  const signedIn = dataOf(
    await send(`${base}/api/v1/auth/signin`, 'POST', {}, { email: client.email, password: client.password }),
  );
  const schemeA = {
    authorization: `Bearer ${String(signedIn.accessToken)}`,
    SECRET_KEY: String(client.secretKey),
    businessId,
  };
  const schemeB = {
    'x-api-key': String(client.publicKey),
    'x-api-secret': String(client.secretKey),
    businessId,
  };
  const transfer = (reference: string) => ({
    amount: 100000,
    receiverAccountNumber: '0123456789',
    receiverBankCode: '058',
    retrievalReference: reference,
    narration: 'Typical test',
  });
  const funds = `${base}/api/v1/clients/business/customers/funds`;
  await send(`${funds}/transfer`, 'POST', schemeA, transfer(`t-${n}`));
  const batch = dataOf(
    await send(`${funds}/bulk-transfer`, 'POST', schemeB, {
      batchName: `Typical ${n}`,
      transfers: Array.from({ length: 10 }, (_, i) => transfer(`b-${n}-${i}`)),
    }),
  );
  await send(`${funds}/bulk-transfer/process`, 'POST', schemeB, { bulkTransferId: batch.id });
  await send(`${base}/__sandbox/drain`, 'POST');
  await send(`${funds}/bulk-transfer/${String(batch.id)}`, 'GET', schemeB);
  await send(
    `${base}/__sandbox/requests/verify`,
    'POST',
    {},
    {
      method: 'POST',
      path: '/funds/transfer',
      clientId: client.clientId,
      exactly: 1,
    },
  );
}

/** ms per test of `TESTS` tests one after another. */
async function sequential(base: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < TESTS; i++) await typicalTest(base);
  return (performance.now() - started) / TESTS;
}

/**
 * Tests per second of WORKERS workers at once, each running its share one after another; with `isolated`, each
 * first makes an isolated sandbox of its own (that it deletes at the end), counted in its time.
 */
async function workers(server: Server, isolated: boolean): Promise<number> {
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      let base = server.url;
      let id = '';
      if (isolated) {
        id = String(dataOf(await send(`${server.url}/__sandbox/sandboxes`, 'POST', {}, {})).id);
        base = `${server.url}/sandboxes/${id}`;
      }
      for (let i = 0; i < TESTS / WORKERS; i++) await typicalTest(base);
      if (isolated) await send(`${server.url}/__sandbox/sandboxes/${id}`, 'DELETE');
    }),
  );
  return (TESTS / (performance.now() - started)) * 1000;
}

/** What one measured run gave: its figure (ms per test, or tests/s), and the server's CPU ms per test. */
interface Run {
  value: number;
  cpuMs: number;
}

export async function benchTypical(dir: string): Promise<Typical> {
  log(
    `typical test: ${TESTS} tests a run, sequential and ${WORKERS} workers, sandbox vs bare Hono${beforeJs ? ` vs ${beforeJs}` : ''}, ${ONE_CORE.length > 0 ? 'servers on one core' : 'servers unpinned (no taskset)'}`,
  );
  const bareBundle = await bundleApp(dir, bareSource);
  const pinned =
    (launch: Launch): Launch =>
    (port) => ({ ...launch(port), runner: ONE_CORE });
  const sandboxLaunch =
    (launch: Launch): Launch =>
    (port) => {
      const { args, env } = launch(port);
      return { args: [...args, '--in-memory', '--quiet', '--bulk-item-delay', '0'], env, runner: ONE_CORE };
    };
  const sandbox = await startServer('sandbox (typical)', sandboxLaunch(ours(join(dir, 'typical.json'))));
  const baseline = await startServer('bare hono (typical)', pinned(bare(bareBundle)));
  const before = beforeJs
    ? await startServer(
        'sandbox (typical, before)',
        sandboxLaunch(cli(beforeJs, join(dir, 'typical-before.json'))),
      )
    : null;
  const servers = before ? [sandbox, baseline, before] : [sandbox, baseline];
  try {
    // Warm-up: the JIT, the routers, the connections.
    for (const server of servers) await sequential(server.url);
    type Kind = 'sequential' | 'workers' | 'isolated';
    const kinds: Kind[] = ['sequential', 'workers', 'isolated'];
    const measure = async (kind: Kind, server: Server): Promise<Run> => {
      const cpuBefore = cpuMicros(server.child.pid);
      const value =
        kind === 'sequential' ? await sequential(server.url) : await workers(server, kind === 'isolated');
      return { value, cpuMs: (cpuMicros(server.child.pid) - cpuBefore) / 1000 / TESTS };
    };
    const subjects = kinds.flatMap((kind) => servers.map((server) => [kind, server] as const));
    const results = await rotated(
      subjects,
      ROUNDS,
      ([kind, server]) => measure(kind, server),
      (round, r) =>
        log(
          `  round ${round + 1}: ${r.map((x) => `${(x[round]?.value ?? 0).toFixed(1)} (${(x[round]?.cpuMs ?? 0).toFixed(2)} ms CPU)`).join(' / ')}`,
        ),
    );
    const runsOf = (kind: Kind, server: Server) =>
      results[subjects.findIndex(([k, s]) => k === kind && s === server)] ?? [];
    // A ratio above 1 nowhere: theirs / ours in time per test, ours / theirs in tests per second.
    const versus = (a: number[], b: number[], perTest: boolean): Versus => ({
      ours: median(a),
      bare: median(b),
      ratio: median(a.map((x, k) => (perTest ? (b[k] ?? Number.NaN) / x : x / (b[k] ?? Number.NaN)))),
    });
    const values = (kind: Kind, server: Server) => runsOf(kind, server).map((r) => r.value);
    const cpu = (kind: Kind, server: Server) => runsOf(kind, server).map((r) => r.cpuMs);
    const pair = (kind: Kind) => versus(values(kind, sandbox), values(kind, baseline), kind === 'sequential');
    return {
      sequential: pair('sequential'),
      workers: pair('workers'),
      isolated: pair('isolated'),
      ...(before
        ? {
            before: {
              workers: versus(values('workers', sandbox), values('workers', before), false),
              sequentialCpu: versus(cpu('sequential', sandbox), cpu('sequential', before), true),
              workersCpu: versus(cpu('workers', sandbox), cpu('workers', before), true),
            },
          }
        : {}),
    };
  } finally {
    for (const server of servers) await stopServer(server);
  }
}

const REPRODUCE = 'BENCH_ONLY=typical npm run bench';

export function typicalRows(t: Typical): Row[] {
  return [
    [
      `typical test, sequential: ms per test (baseline: bare Hono, the same round trips; ${REPRODUCE})`,
      `${t.sequential.ours.toFixed(1)} ms`,
      `${t.sequential.bare.toFixed(1)} ms`,
      t.sequential.ratio.toFixed(2),
      '≥ 0.60',
      verdict(t.sequential.ratio >= 0.6),
    ],
    [
      `typical test, ${WORKERS} workers: tests/s (baseline: bare Hono)`,
      t.workers.ours.toFixed(0),
      t.workers.bare.toFixed(0),
      t.workers.ratio.toFixed(2),
      '≥ 0.65',
      verdict(t.workers.ratio >= 0.65),
    ],
    [
      `typical test, ${WORKERS} workers each in an isolated sandbox it makes first: tests/s (baseline: bare Hono)`,
      t.isolated.ours.toFixed(0),
      t.isolated.bare.toFixed(0),
      t.isolated.ratio.toFixed(2),
      '',
      '',
    ],
    ...(t.before ? beforeRows(t.before) : []),
  ];
}

/** Ours against the BENCH_BEFORE build: tests/s with 4 workers (at least 0.95), and the server's CPU per test. */
function beforeRows(before: NonNullable<Typical['before']>): Row[] {
  const cpuRow = (label: string, v: Versus): Row => [
    label,
    `${v.ours.toFixed(2)} ms`,
    `${v.bare.toFixed(2)} ms`,
    v.ratio.toFixed(3),
    '',
    '',
  ];
  return [
    [
      `typical test vs before, ${WORKERS} workers: tests/s (baseline: the BENCH_BEFORE build, same rounds)`,
      before.workers.ours.toFixed(0),
      before.workers.bare.toFixed(0),
      before.workers.ratio.toFixed(3),
      '≥ 0.95',
      verdict(before.workers.ratio >= 0.95),
    ],
    cpuRow(
      'typical test vs before, sequential: server CPU per test (ratio: before / ours)',
      before.sequentialCpu,
    ),
    cpuRow(
      `typical test vs before, ${WORKERS} workers: server CPU per test (ratio: before / ours)`,
      before.workersCpu,
    ),
  ];
}

// The servers the benchmark measures, each a child process of this one on a free port of the loopback address:
// starting them, waiting for their health route, and stopping every one of them whatever happened.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from 'esbuild';
import { HOST, mainJs } from './settings.js';

const HEALTH_PATH = '/__sandbox/health';
const START_TIMEOUT_MS = 30_000;

/**
 * How to start a server on a given port: arguments to `node`, extra environment, and what runs node (`taskset -c 1`
 * to hold it to one core; default: node itself).
 */
export type Launch = (port: number) => { args: string[]; env?: Record<string, string>; runner?: string[] };

export interface Server {
  name: string;
  child: ChildProcess;
  port: number;
  url: string;
  /** The last few KB the child wrote to standard error. */
  stderr: () => string;
}

/** Every child still running, so that `stopAll` can end them whatever happened. */
const running = new Set<Server>();

/** Where each server's GC meter (gc-meter.mjs) writes the pauses it summed. */
const gcDir = mkdtempSync(join(tmpdir(), 'sandbox-bench-gc-'));
const gcMeter = join(import.meta.dirname, 'gc-meter.mjs');

/** One pause of V8's collections, as a server's GC meter wrote it: its kind (1: a scavenge) and length, µs. */
export interface GcPause {
  kind: number;
  us: number;
}

/**
 * Every pause of V8's collections in a server since it started, in order, as its GC meter last wrote them (every
 * 50 ms while there are new ones); null for a server started without one.
 */
export function gcPauses(pid: number | undefined): GcPause[] | null {
  if (pid === undefined) return null;
  let text = '';
  try {
    text = readFileSync(join(gcDir, `gc-${pid}`), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [kind = '0', us = '0'] = line.split(' ');
      return { kind: Number(kind), us: Number(us) };
    });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** The environment of a child, without settings of ours the caller may have exported. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('SANDBOX_') && key !== 'PORT' && key !== 'HOST') env[key] = value;
  }
  return { ...env, ...extra };
}

/**
 * Starts a server. With `meter` (all but the cold starts, which it would slow), node preloads the GC meter, which
 * `gcPauses` reads.
 */
export function spawnServer(name: string, launch: Launch, port: number, meter = true): Server {
  const launched = launch(port);
  const { runner = [] } = launched;
  const args = meter ? ['--import', gcMeter, ...launched.args] : launched.args;
  const env = meter ? { ...launched.env, BENCH_GC_DIR: gcDir } : launched.env;
  const [command = process.execPath, ...before] = [
    ...runner,
    ...(runner.length > 0 ? [process.execPath] : []),
  ];
  const child = spawn(command, [...before, ...args], {
    env: childEnv(env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.on('error', (error) => {
    tail += `\n${error.message}`;
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4096);
  });
  const server: Server = { name, child, port, url: `http://${HOST}:${port}`, stderr: () => tail };
  running.add(server);
  return server;
}

/** GET /__sandbox/health once, on a fresh connection: the status code, or 0 if nothing answered. */
function probeHealth(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: HOST, port, path: HEALTH_PATH, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.setTimeout(1000, () => req.destroy());
    req.on('error', () => resolve(0));
  });
}

/** Polls the health route (1 ms between attempts) until it answers 200. */
export async function waitHealthy(server: Server): Promise<void> {
  const deadline = performance.now() + START_TIMEOUT_MS;
  while (performance.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`${server.name} exited during start-up:\n${server.stderr()}`);
    }
    if ((await probeHealth(server.port)) === 200) return;
    await sleep(1);
  }
  throw new Error(`${server.name} did not answer ${HEALTH_PATH} within ${START_TIMEOUT_MS} ms`);
}

export async function startServer(name: string, launch: Launch): Promise<Server> {
  const server = spawnServer(name, launch, await freePort());
  await waitHealthy(server);
  return server;
}

/** SIGTERM, then waits for the exit (SIGKILL if it takes over 5 s). */
export async function stopServer(server: Server): Promise<void> {
  running.delete(server);
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const force = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(force);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map(stopServer));
  rmSync(gcDir, { recursive: true, force: true });
}

/** The sandbox's CLI at `main` (a build's dist/main.js) on the file store `dataFile`. */
export const cli =
  (main: string, dataFile: string): Launch =>
  (port) => ({ args: [main, '--port', String(port), '--host', HOST, '--data', dataFile] });

/** The CLI measured (BENCH_MAIN) on the file store `dataFile`. */
export const ours = (dataFile: string): Launch => cli(mainJs, dataFile);

/** An app of the bench's own (the bare Hono app, the reads' floor), bundled, on PORT, with `env` besides. */
export const bare =
  (bundle: string, env: Record<string, string> = {}): Launch =>
  (port) => ({ args: [bundle], env: { ...env, PORT: String(port) } });

/** Bundles an app of the bench (the bare Hono app, the reads' floor) to one .mjs, so it runs on plain node as dist/main.js does. */
export async function bundleApp(dir: string, source: string): Promise<string> {
  const outfile = join(dir, `${basename(source, '.ts')}.mjs`);
  await build({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    minify: true,
    logLevel: 'warning',
  });
  return outfile;
}

/** Listens on a free port of the loopback address; answers the webhook URL that reaches `server`. */
export async function listenForHooks(server: http.Server): Promise<string> {
  server.listen(0, HOST);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return `http://${HOST}:${port}/hook`;
}

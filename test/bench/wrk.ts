import { execFileSync, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a load run measured. */
export interface Load {
  rps: number;
  /** p99 latency, ms. */
  p99: number;
  requests: number;
  errors: number;
  /** The server's CPU time per request, µs (user and system, all threads), where the run measured it. */
  cpuUs?: number;
  /** The time V8's collections paused the server per request, µs (its GC meter), where the run measured it. */
  gcUs?: number;
  /** The same with each scavenge counted at the run's fast ones: the pause on free cores (`gcPerRequest`). */
  gcFreeUs?: number;
}

/** One target of a load run. `{n}` in the body is replaced by a number unique to each request. */
export interface LoadTarget {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
}

/**
 * wrk if this machine has it or can install it (Debian's package; we run as root in CI and on the dev machines).
 * wrk is written in C: with one thread on one core it loads the server far harder than a Node client sharing
 * the same two cores, so the figures measure the server, not the load generator.
 */
export function findWrk(): string | null {
  const which = () => {
    try {
      return execFileSync('which', ['wrk'], { encoding: 'utf8' }).trim() || null;
    } catch {
      return null;
    }
  };
  const found = which();
  if (found || process.env.BENCH_NO_INSTALL === '1') return found;
  try {
    execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], {
      stdio: 'ignore',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch {
    try {
      execFileSync(
        'sh',
        ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk'],
        { stdio: 'ignore' },
      );
    } catch {
      return null;
    }
  }
  return which();
}

const luaString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** The Lua script that makes wrk send `target`; a body with `{n}` gets a per-request counter. */
function script(target: LoadTarget, runId: string): string {
  const lines = [`wrk.method = ${luaString(target.method ?? 'GET')}`];
  for (const [k, v] of Object.entries(target.headers ?? {}))
    lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`);
  if (target.body !== undefined) {
    const [before, after] = target.body.split('{n}');
    if (after === undefined) lines.push(`wrk.body = ${luaString(target.body)}`);
    else {
      lines.push('local n = 0');
      lines.push('request = function()');
      lines.push('  n = n + 1');
      lines.push(
        `  return wrk.format(nil, nil, nil, ${luaString(before ?? '')} .. ${luaString(runId)} .. "-" .. n .. ${luaString(after)})`,
      );
      lines.push('end');
    }
  }
  return `${lines.join('\n')}\n`;
}

function milliseconds(value: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(value.trim());
  if (!m) return Number.NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

let runs = 0;

/** One wrk run of `target`: one thread, `connections` connections, `seconds` long. */
export async function wrkLoad(
  wrk: string,
  dir: string,
  target: LoadTarget,
  seconds: number,
  connections: number,
): Promise<Load> {
  runs++;
  const load = await wrkRun(
    wrk,
    dir,
    script(target, `${process.pid}-${runs}`),
    target.url,
    seconds,
    connections,
  );
  if (load.errors > 0)
    throw new Error(`${target.method ?? 'GET'} ${target.url}: ${load.errors} errors or non-2xx answers`);
  return load;
}

/** One wrk run of a Lua script of our own against `url`; fails on any answer that is not 2xx. */
export async function wrkRun(
  wrk: string,
  dir: string,
  lua: string,
  url: string,
  seconds: number,
  connections: number,
  /** How long wrk waits for an answer before it counts a timeout error (its default is 2 s). */
  timeoutSeconds = 2,
): Promise<Load> {
  runs++;
  const file = join(dir, `load-${runs}.lua`);
  await writeFile(file, lua);
  const output = await new Promise<string>((resolve, reject) => {
    const args = [
      '-t1',
      `-c${connections}`,
      `-d${seconds}s`,
      `--timeout`,
      `${timeoutSeconds}s`,
      '--latency',
      '-s',
      file,
      url,
    ];
    const child = spawn(wrk, args);
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited ${code}: ${out}`))));
  });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? Number.NaN);
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? 0);
  const p99 = milliseconds(/\s99%\s+(\S+)/.exec(output)?.[1] ?? '');
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = non2xx + (socket ? socket.slice(1).reduce((sum, v) => sum + Number(v), 0) : 0);
  return { rps, p99, requests, errors };
}

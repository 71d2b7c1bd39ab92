// The settings every part of the benchmark shares: how long and how often a load runs, what is measured and where
// the log goes. Each part reads its own settings in its own module; run.ts lists them all.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A positive number from the environment, or `fallback` when the variable is unset or empty. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
}

export const SECONDS = envNumber('BENCH_SECONDS', 5);
export const ROUNDS = envNumber('BENCH_ROUNDS', 3);
export const WARMUP_SECONDS = envNumber('BENCH_WARMUP_SECONDS', 2);
export const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 50);
export const HOST = '127.0.0.1';

export const root = fileURLToPath(new URL('../../', import.meta.url));
/** The CLI measured. */
export const mainJs = process.env.BENCH_MAIN || join(root, 'dist', 'main.js');
/**
 * A build of an earlier commit that the reads, the writes, the transfers and the cold start also measure, in
 * alternation with `mainJs`; null
 * unless BENCH_BEFORE names one. Checked here, so that a wrong path fails before the first part rather than after.
 */
export const beforeJs = process.env.BENCH_BEFORE || null;
if (beforeJs && !existsSync(beforeJs)) throw new Error(`BENCH_BEFORE: no file at ${beforeJs}`);

export const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

// What every command of the command line is: its usage, help, options and the work it does over the sandbox's
// handle (the groups: world-commands.ts, money-commands.ts, journal-commands.ts, sandboxes-commands.ts).
import type { SandboxHandle } from '../client/handle.js';

/** Bad usage: exit 2 with the line. */
export class UsageError extends Error {}

export type Options = Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
/** The flags as `parseArgs` reads them. */
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

export interface Command {
  usage: string;
  summary: string;
  /** Lines of `--help` after the usage line. */
  help: string[];
  options: Options;
  /** Whether it takes words besides its options (`clock advance 1000`); the others refuse any. */
  positionals?: true;
  /**
   * Does the work; answers what to print (a line, or data to print as JSON with `--json`) and, for a command a CI
   * step gates on, its exit code (default 0).
   */
  run(
    sandbox: SandboxHandle,
    values: Values,
    positionals: string[],
  ): Promise<{ line: string; json: unknown; exitCode?: number }>;
}

/** A whole number of at least `min`, or bad usage naming the option: a value that is no text (absent) too. */
export function wholeNumber(
  value: Values[string],
  name: string,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const text = typeof value === 'string' ? value : '';
  const n = Number(text);
  if (text.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${name} must be a whole number ${range}, not "${text}"`);
  }
  return n;
}

import type { Config } from './config.js';
import type { CataloguedEvent, LogLevel } from './log-catalogue.js';

export type { LogLevel } from './log-catalogue.js';

/**
 * One thing that happened, for the log: what it is (`event`, dotted: `batch.settled`), the fields of its JSON line
 * (plain JSON values, never a secret) and the rest of its pretty line, after the time, the level and the name. The
 * parts of the sandbox write only the events of the catalogue (`Log`); formatting takes any.
 */
export interface LogEvent {
  level: LogLevel;
  event: string;
  fields: Record<string, unknown>;
  text: string;
}

/**
 * The server log as the parts of the sandbox see it (`deps.log`): an event of the catalogue (`log-catalogue.ts`),
 * or a bare line (event `log`, level `warn`).
 */
export type Log = (entry: CataloguedEvent | string) => void;

/** A level `--quiet` keeps. */
const kept = (level: LogLevel): boolean => level !== 'info';

/**
 * An event as one line: `{"time", "level", "event", ...fields}` in `json`, and in `pretty`
 * `10:00:00.012 warn   webhook.attempt_failed …`, in the columns of the request lines (time, then a column of 6).
 * `time` is real time, as on the request lines; times of the sandbox clock are fields of their own.
 */
export function formatEvent(entry: LogEvent, format: Config['logFormat'], time = new Date()): string {
  const iso = time.toISOString();
  if (format === 'json')
    return JSON.stringify({ time: iso, level: entry.level, event: entry.event, ...entry.fields });
  return `${iso.slice(11, 23)} ${entry.level.padEnd(6)} ${entry.event} ${entry.text}`;
}

/** A bare operational line as an event. */
export function lineEvent(line: string): CataloguedEvent<'log'> {
  return { level: 'warn', event: 'log', fields: { message: line }, text: line };
}

/**
 * The sandbox's log over `write` (one formatted line per call): events below `warn` are dropped when `quiet`, and
 * so are the request lines (`requests` is then null). A `write` that throws loses its line, nothing else.
 */
export function createLog(
  config: Pick<Config, 'logFormat' | 'quiet'>,
  write: (line: string) => void,
): { log: (entry: LogEvent | string) => void; requests: ((line: string) => void) | null } {
  const safe = (line: string) => {
    try {
      write(line);
    } catch {
      // The log is not worth failing a request or a batch for.
    }
  };
  const log = (entry: LogEvent | string) => {
    const event = typeof entry === 'string' ? lineEvent(entry) : entry;
    if (config.quiet && !kept(event.level)) return;
    safe(formatEvent(event, config.logFormat));
  };
  return { log, requests: config.quiet ? null : safe };
}

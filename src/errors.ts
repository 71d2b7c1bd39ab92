import type { WaitingItem, WaitingWork } from './contract/control/sandbox.js';

/**
 * Gives a class its own name back. The build may rename a class (esbuild renames a name that collides with another
 * in the bundle, and a fully minified build renames them all), and `error.name`, `constructor.name` and stack traces
 * should say `ConfigError`, not `ConfigError2` or `ue`. (esbuild's `keepNames` does it for every function instead, at a
 * call per closure created: a fifth of the cheapest read.)
 */
export function keepName(cls: abstract new (...args: never[]) => unknown, name: string): void {
  Object.defineProperty(cls, 'name', { value: name, configurable: true });
}

/**
 * The errors the package throws at code that uses it. Each has a real class name (kept through the build), an
 * HTTP-like `status` (what the control API answers for the same mistake) and a message that names the option as
 * code spells it.
 */
export class SandboxError extends Error {
  static {
    keepName(SandboxError, 'SandboxError');
  }

  constructor(
    message: string,
    /**
     * The status the control API gives the same mistake: 400 bad input, 404 unknown, 408 timeout, 409 conflict,
     * 503 a disk that refuses a write; 502 when the sandbox answers the handle with a body its route does not
     * document (a sandbox of another version, say).
     */
    readonly status: number = 400,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The control API answered a failure (over HTTP: `connectSandbox`, the shell commands, `requests()`). */
export class ControlApiError extends SandboxError {
  static {
    keepName(ControlApiError, 'ControlApiError');
  }

  constructor(
    message: string,
    status: number,
    /** The envelope's `data` (null on most errors). */
    readonly data: unknown = null,
    /** The envelope's `errors`: each bad field and what is wrong with it, on a 400. */
    readonly errors: readonly { field: string; message: string }[] = [],
  ) {
    super(message, status);
  }
}

/**
 * The sandbox could not be reached at all (refused, unknown host, the connection dropped, an answer that is not
 * the control API's). `status` is 503, as a proxy would answer for it.
 */
export class SandboxUnreachableError extends SandboxError {
  static {
    keepName(SandboxUnreachableError, 'SandboxUnreachableError');
  }

  constructor(
    message: string,
    /** The base URL that was tried. */
    readonly url: string,
  ) {
    super(message, 503);
  }
}

/** `verify()` found another number of requests than expected: the 409 of `POST /__sandbox/requests/verify`. */
export class VerificationError<Entry = unknown> extends SandboxError {
  static {
    keepName(VerificationError, 'VerificationError');
  }

  constructor(
    message: string,
    /** How many requests matched the filters. */
    readonly count: number,
    /** What was expected, as sent: `{atLeast: 1}`, `{exactly: 2}`, `{atMost: 0}`. */
    readonly expected: unknown,
    /** The entries closest to the filters, to see what was sent instead. */
    readonly nearest: readonly Entry[],
  ) {
    super(message, 409);
  }
}

/** `0–3, 7, 9–12`: item indexes as runs. */
function runs(indexes: readonly number[]): string {
  const parts: string[] = [];
  let start: number | undefined;
  let last: number | undefined;
  const flush = () => {
    if (start === undefined || last === undefined) return;
    parts.push(start === last ? `${start}` : `${start}–${last}`);
  };
  for (const i of indexes) {
    if (last !== undefined && i === last + 1) last = i;
    else {
      flush();
      start = i;
      last = i;
    }
  }
  flush();
  return parts.join(', ');
}

/** One paragraph naming what is still waiting, for the error message of a drain that gave up. */
function describeWaiting(work: WaitingWork): string {
  const lines: string[] = [];
  for (const b of work.batches) {
    const byStatus = (status: WaitingItem['status']) =>
      b.items.filter((i) => i.status === status).map((i) => i.itemIndex);
    const states = (['processing', 'pending'] as const)
      .map((status) => [status, byStatus(status)] as const)
      .filter(([, indexes]) => indexes.length > 0)
      .map(([status, indexes]) => `${status} ${runs(indexes)}`);
    const more = b.openItems > b.items.length ? `, and ${b.openItems - b.items.length} more` : '';
    lines.push(
      `bulk transfer ${b.id} "${b.batchName}" with ${b.openItems} of ${b.totalItems} items open (items ${states.join('; ')}${more})`,
    );
  }
  if (work.batchCount > work.batches.length)
    lines.push(`${work.batchCount - work.batches.length} more bulk transfers`);
  for (const d of work.deliveries) {
    const next =
      d.nextAttemptAt === null
        ? 'its next attempt queued'
        : d.dueInMs === 0
          ? `its next attempt due now (${d.nextAttemptAt})`
          : `its next attempt due at ${d.nextAttemptAt}, in ${d.dueInMs} ms on the sandbox clock`;
    lines.push(
      `webhook delivery ${d.id} after ${d.attemptsMade} attempt(s), ${d.attemptsLeft} left, ${next}`,
    );
  }
  if (work.deliveryCount > work.deliveries.length)
    lines.push(`${work.deliveryCount - work.deliveries.length} more webhook deliveries`);
  if (lines.length === 0) {
    lines.push(
      `no open batch or pending delivery, but ${work.backlog.bulkItems} bulk item(s) and ${work.backlog.deliveries} delivery(ies) still in the engines`,
    );
  }
  const clock = work.clock.frozen
    ? `The clock is frozen at ${work.clock.now}: nothing comes due until it is advanced (POST /__sandbox/clock/advance).`
    : `The clock runs, at ${work.clock.now}.`;
  return `Still waiting for: ${lines.join('; ')}. ${clock}`;
}

/**
 * A drain that gave up (status 408, as `POST /__sandbox/drain` answers it): its message names what is still
 * waiting, and `waiting` holds it as data. Over HTTP (`connectSandbox`) the message is the one the sandbox sent.
 */
export class DrainTimeoutError extends SandboxError {
  static {
    keepName(DrainTimeoutError, 'DrainTimeoutError');
  }

  constructor(
    readonly timeoutMs: number,
    readonly waiting: WaitingWork,
    message = `The queues were still busy after ${timeoutMs} ms. ${describeWaiting(waiting)}`,
  ) {
    super(message, 408);
  }
}

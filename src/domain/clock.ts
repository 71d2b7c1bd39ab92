import { setImmediate as nextTurn } from 'node:timers/promises';

/** A source of time: milliseconds since the epoch. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** The last moment of the clock's range, as text: the last millisecond an ISO 8601 year of four digits can name. */
export const END_OF_TIME = '9999-12-31T23:59:59.999Z';

/**
 * The last moment of the clock's range (ms since the epoch). Every ISO 8601 consumer expects four-digit years,
 * and `Date.toISOString()` writes a later year with a sign and six digits, so the clock stops here: an advance
 * past it is refused, and a running clock that real time carries past it stands still here.
 */
export const END_OF_TIME_MS = Date.parse(END_OF_TIME);

/**
 * The first moment of the clock's range, `0000-01-01T00:00:00.000Z`: the earliest time written with a four-digit
 * year (one earlier is `-000001-…`). The clock never runs backwards, so only an import can ask for a time before
 * it, and one that does is refused.
 */
export const START_OF_TIME_MS = Date.parse('0000-01-01T00:00:00.000Z');

/** The last moment a `Date` can hold (and, negated, the first): 8.64e15 ms from the epoch. */
export const MAX_TIME_MS = 8.64e15;

/** `ms` brought inside the clock's range: a time before its start reads as the start, one past its end as the end. */
export function withinRange(ms: number): number {
  return Math.min(Math.max(ms, START_OF_TIME_MS), END_OF_TIME_MS);
}

/**
 * A time computed ahead of the clock (an expiry, a retry's due time), capped at the end of the clock's range: the
 * clock never passes the end, so a time past it would never come, and it could not be written with a four-digit
 * year. See `hasExpired` for what an expiry capped there means.
 */
export function capAtEnd(ms: number): number {
  return Math.min(ms, END_OF_TIME_MS);
}

/**
 * Whether something that expires at `expiresAt` has expired at `now` (both ms since the epoch): it has once the
 * clock reaches its expiry, except at the end of the clock's range. The clock reaches the end and stands there,
 * and an expiry at the end is (nearly always) one capped there (`capAtEnd`) because it would have come later:
 * it never comes, so a token, an invitation or an account issued near the end stays valid at the end rather than
 * dying the moment the clock gets there.
 */
export function hasExpired(expiresAt: number, now: number): boolean {
  return expiresAt <= now && expiresAt < END_OF_TIME_MS;
}

/**
 * `ms` as ISO 8601 UTC with milliseconds, the wire format of every timestamp: always a four-digit year, since a
 * time outside the clock's range (a record an earlier version wrote) is written as the end it lies beyond.
 */
export function isoOf(ms: number): string {
  return new Date(withinRange(ms)).toISOString();
}

/** The clock's time as ISO 8601 UTC with milliseconds (`isoOf`). */
export function isoAt(clock: Clock): string {
  return isoOf(clock.now());
}

/** The end of the clock's range as the messages that refuse to pass it name it. */
const END_PHRASE = `${END_OF_TIME}, the end of the clock's range`;

/** Why a clock standing at `ms` would be outside its range, naming `field`; null inside it. */
function rangeProblem(field: string, ms: number): string | null {
  if (!Number.isSafeInteger(ms)) return `${field} must be a whole number of milliseconds`;
  if (ms > END_OF_TIME_MS) return `${field} would put the clock past ${END_PHRASE}`;
  if (ms < START_OF_TIME_MS)
    return `${field} would put the clock before 0000-01-01T00:00:00.000Z, the start of the clock's range`;
  return null;
}

/** The longest a real timer can wait; a longer delay would fire at once (Node clamps it to 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the state keeps of the clock: how far it runs ahead of real time, or where it stands frozen. */
export interface ClockState {
  /** Virtual time minus real time, while the clock runs. */
  offsetMs: number;
  /** Where the clock stands (ms since the epoch) while frozen; null while it runs. */
  frozenAt: number | null;
}

/** The clock of a fresh state: real time, running. */
export const REAL_TIME: ClockState = { offsetMs: 0, frozenAt: null };

/**
 * A piece of background work the clock knows about (`VirtualClock.run`). While it runs it is busy, and an
 * advance waits for it; while it sleeps on the clock, or idles on something only the outside world ends (an item
 * held until a drain), it is not.
 */
export interface ClockTask {
  /** Waits until the clock has moved `ms` forward; the task is idle meanwhile and busy again once woken. */
  sleep(ms: number): Promise<void>;
  /** Waits for `promise` without counting as busy meanwhile. */
  idleWhile<T>(promise: Promise<T>): Promise<T>;
}

interface Sleeper {
  until: number;
  /** Sleepers due at the same moment wake in the order they went to sleep. */
  seq: number;
  wake: () => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The one clock of a sandbox. It runs with its time source plus an offset; frozen, it stands still until
 * advanced. Everything time-based reads it (token lifetime, expiries, webhook backoff, item and scenario delays)
 * and waits with `sleep()`, so a test moves time instead of waiting for it.
 *
 * `advance(ms)` runs what comes due inside the window, in time order: it moves to the earliest due sleeper, wakes
 * it (with any other due at that moment), waits until the work it woke is finished or asleep again, and repeats,
 * so a retry scheduled inside the window also runs inside it. Only work started through `run()` is waited for:
 * the engines run each bulk item and each webhook attempt or retry wait that way. The clock imports no engine; it
 * only counts the tasks that are busy.
 *
 * Its range is `START_OF_TIME_MS` to `END_OF_TIME_MS` (years 0000 to 9999). An advance that would carry it past the
 * end is refused and moves nothing; a running clock that real time carries past the end reads the end from then
 * on (time stands still there); a sleep that would end past the end ends at the end, so work waiting on it still
 * runs there.
 */
export class VirtualClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;
  private readonly sleepers = new Set<Sleeper>();
  private seq = 0;
  /** Tasks started with `run()` that are neither finished, asleep on the clock, nor idle. */
  private busy = 0;
  private quietWaiters: (() => void)[] = [];
  /** Advances run one after another. */
  private advancing: Promise<unknown> = Promise.resolve();
  private persist: ((state: ClockState) => Promise<void>) | null = null;

  constructor(private readonly source: Clock = systemClock) {}

  /**
   * The clock's time, ms since the epoch, always inside its range: a running clock whose offset real time carries
   * past the end reads the end (and one an earlier version left before the start reads the start), so nothing
   * ever reads a time that cannot be written with a four-digit year.
   */
  now(): number {
    return this.frozenAt ?? withinRange(this.source.now() + this.offsetMs);
  }

  /**
   * Resolves once the clock has moved `ms` forward, by running or by being advanced. An advance does not wait for
   * what the caller does once woken (a request's delay); engine work sleeps through `run()` instead.
   */
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => this.addSleeper(ms, resolve));
  }

  /**
   * Runs `work` as a task an advance waits for: busy from now until it ends, except while it sleeps or idles
   * through the task handle it is given.
   */
  async run<T>(work: (task: ClockTask) => Promise<T>): Promise<T> {
    this.busy++;
    try {
      return await work(this.task);
    } finally {
      this.release();
    }
  }

  private readonly task: ClockTask = {
    sleep: (ms) => {
      if (ms <= 0) return Promise.resolve();
      this.release();
      // Busy again the moment it is woken, before its continuation runs: an advance never sees a gap.
      return new Promise((resolve) =>
        this.addSleeper(ms, () => {
          this.busy++;
          resolve();
        }),
      );
    },
    idleWhile: (promise) => {
      this.release();
      return promise.finally(() => {
        this.busy++;
      });
    },
  };

  /**
   * Why `advance(ms)` would be refused, or null: `ms` must be a whole number of milliseconds, at least 1, and the
   * clock must not pass the end of its range (`END_OF_TIME_MS`); reaching the end exactly is allowed.
   */
  advanceProblem(ms: number): string | null {
    if (!Number.isSafeInteger(ms) || ms < 1) return 'ms must be a whole number of milliseconds, at least 1';
    if (this.now() + ms > END_OF_TIME_MS) return `ms would move the clock past ${END_PHRASE}`;
    return null;
  }

  /**
   * Moves time forward by `ms`, running everything that comes due on the way in time order (see the class), and
   * resolves once time has reached the target and nothing due is left. The target is persisted first: if that
   * fails, it rejects and nothing moves. Rejects with a `RangeError` and moves nothing when `advanceProblem(ms)`
   * names a problem. Advances run one at a time.
   */
  advance(ms: number): Promise<void> {
    const problem = this.advanceProblem(ms);
    if (problem) return Promise.reject(new RangeError(problem));
    const run = this.advancing.then(() => this.advanceBy(ms));
    this.advancing = run.catch(() => undefined);
    return run;
  }

  /** Stops time (true, the default) or lets it run again from where it stands (false); resolves once persisted. */
  freeze(frozen = true): Promise<void> {
    if (frozen && this.frozenAt === null) this.frozenAt = this.now();
    if (!frozen && this.frozenAt !== null) {
      this.offsetMs = this.frozenAt - this.source.now();
      this.frozenAt = null;
    }
    this.rearm();
    return this.persist?.(this.state()) ?? Promise.resolve();
  }

  /**
   * Back to the time source's own time, running (a reset). Every sleeper is woken: what slept belongs to the
   * state being replaced, and must not wait for a time that may now be far away.
   */
  reset(): void {
    this.offsetMs = 0;
    this.frozenAt = null;
    this.wake(() => true);
  }

  /**
   * Why the clock may not take `state` from an import, or null: where it would stand (frozen, or running with
   * the offset at this moment of real time) must be inside its range. Named by the field at fault.
   */
  stateProblem(state: ClockState): string | null {
    if (state.frozenAt !== null) return rangeProblem('frozenAt', state.frozenAt);
    return rangeProblem('offsetMs', this.source.now() + state.offsetMs);
  }

  /**
   * Takes the state's clock (start-up, import, putting a clock back). Throws a `RangeError` and changes nothing
   * for a frozen time outside the clock's range. A running offset is taken as it is: one that real time has
   * carried past the end (a clock kept at the end across a restart) reads the end (`now`); an import checks it
   * first (`stateProblem`).
   */
  restore(state: ClockState): void {
    const problem = !Number.isSafeInteger(state.offsetMs)
      ? 'offsetMs must be a whole number of milliseconds'
      : state.frozenAt === null
        ? null
        : rangeProblem('frozenAt', state.frozenAt);
    if (problem) throw new RangeError(problem);
    this.offsetMs = state.offsetMs;
    this.frozenAt = state.frozenAt;
    this.rearm();
  }

  /** What the state keeps of the clock. */
  state(): ClockState {
    return { offsetMs: this.offsetMs, frozenAt: this.frozenAt };
  }

  /** Where the clock's state is kept after each change (advance, freeze); resolves once it is durable. */
  persistWith(persist: (state: ClockState) => Promise<void>): void {
    this.persist = persist;
  }

  /** What `GET /__sandbox/clock` shows: `offsetMs` is how far the clock is from real time, frozen or not. */
  describe() {
    // One reading of real time: two could fall either side of a millisecond and show a running clock at -1.
    const real = this.source.now();
    const now = this.frozenAt ?? withinRange(real + this.offsetMs);
    return {
      now: isoOf(now),
      frozen: this.frozenAt !== null,
      offsetMs: now - real,
    };
  }

  /** What `GET /__sandbox/clock` answers (`describe()`), as a promise: the same call as over HTTP. */
  get(): Promise<ReturnType<VirtualClock['describe']>> {
    return Promise.resolve(this.describe());
  }

  private async advanceBy(ms: number): Promise<void> {
    // Checked again: an advance queued behind another sees the time that one left.
    const problem = this.advanceProblem(ms);
    if (problem) throw new RangeError(problem);
    // The target is kept before anything moves: a write the disk refuses moves nothing, and a crash part way
    // leaves the clock at the target on restart, never behind work that already ran inside the window.
    const target: ClockState =
      this.frozenAt === null
        ? { offsetMs: this.offsetMs + ms, frozenAt: null }
        : { offsetMs: this.offsetMs, frozenAt: this.frozenAt + ms };
    await this.persist?.(target);
    let remaining = ms;
    for (;;) {
      await this.settled();
      const next = this.earliest();
      const gap = next ? Math.max(0, next.until - this.now()) : Number.POSITIVE_INFINITY;
      if (gap > remaining) {
        if (remaining === 0) break;
        this.shift(remaining);
        remaining = 0;
        continue;
      }
      this.shift(gap);
      remaining -= gap;
      const now = this.now();
      this.wake((s) => s.until <= now);
    }
    this.rearm();
  }

  /** Resolves once no task is busy, and none became busy again while the event loop took one turn. */
  private async settled(): Promise<void> {
    for (;;) {
      while (this.busy > 0) await new Promise<void>((resolve) => this.quietWaiters.push(resolve));
      // Work hands over to the work it starts through promise callbacks (a queue starting its next item), all of
      // which run before the next turn of the event loop: after it, a count still at zero means quiet.
      await nextTurn();
      if (this.busy === 0) return;
    }
  }

  private release(): void {
    this.busy--;
    if (this.busy === 0) for (const resolve of this.quietWaiters.splice(0)) resolve();
  }

  private shift(ms: number): void {
    if (ms === 0) return;
    if (this.frozenAt === null) this.offsetMs += ms;
    else this.frozenAt += ms;
  }

  private earliest(): Sleeper | undefined {
    let first: Sleeper | undefined;
    for (const s of this.sleepers) {
      if (!first || s.until < first.until || (s.until === first.until && s.seq < first.seq)) first = s;
    }
    return first;
  }

  private addSleeper(ms: number, wake: () => void): void {
    // The clock never passes the end: a wait past it ends there, rather than never.
    const sleeper: Sleeper = { until: capAtEnd(this.now() + ms), seq: this.seq++, wake, timer: undefined };
    this.sleepers.add(sleeper);
    this.arm(sleeper);
  }

  /** Wakes the sleepers `which` picks, earliest first. */
  private wake(which: (s: Sleeper) => boolean): void {
    const due = [...this.sleepers].filter(which);
    due.sort((a, b) => a.until - b.until || a.seq - b.seq);
    for (const s of due) {
      this.sleepers.delete(s);
      clearTimeout(s.timer);
      s.wake();
    }
  }

  private rearm(): void {
    for (const sleeper of this.sleepers) this.arm(sleeper);
  }

  private arm(sleeper: Sleeper): void {
    clearTimeout(sleeper.timer);
    sleeper.timer = undefined;
    const wait = sleeper.until - this.now();
    if (wait <= 0) {
      this.sleepers.delete(sleeper);
      sleeper.wake();
    } else if (this.frozenAt === null) {
      sleeper.timer = setTimeout(() => this.arm(sleeper), Math.min(wait, MAX_TIMER_MS));
      // A sleeper alone never keeps the process alive.
      sleeper.timer.unref();
    }
  }
}

/** A source of time: milliseconds since the epoch. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO 8601 UTC with milliseconds, the wire format of every timestamp. */
export function isoAt(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}

interface Sleeper {
  until: number;
  resolve: () => void;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The one clock of a sandbox. It runs with its time source, plus whatever a test advanced it by; frozen, it
 * stands still until advanced. Everything time-based reads it (token lifetime, expiries, webhook backoff, item and
 * scenario delays), and waits with `sleep()`, so a test moves time instead of waiting for it: advancing wakes every
 * sleeper that is now due.
 */
export class VirtualClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;
  private readonly sleepers = new Set<Sleeper>();

  constructor(private readonly source: Clock = systemClock) {}

  now(): number {
    return this.frozenAt ?? this.source.now() + this.offsetMs;
  }

  /** Resolves once the clock has moved `ms` forward, by running or by being advanced. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = { until: this.now() + ms, resolve, timer: undefined };
      this.sleepers.add(sleeper);
      this.arm(sleeper);
    });
  }

  /** Moves time forward by `ms`. */
  advance(ms: number): void {
    if (this.frozenAt === null) this.offsetMs += ms;
    else this.frozenAt += ms;
    this.rearm();
  }

  /** Stops time (true) or lets it run again from where it stands (false). */
  freeze(frozen: boolean): void {
    if (frozen && this.frozenAt === null) this.frozenAt = this.now();
    if (!frozen && this.frozenAt !== null) {
      this.offsetMs = this.frozenAt - this.source.now();
      this.frozenAt = null;
    }
    this.rearm();
  }

  /** Back to the time source's own time, running. */
  reset(): void {
    this.offsetMs = 0;
    this.frozenAt = null;
    this.rearm();
  }

  /** What `GET /__sandbox/clock` shows. */
  describe() {
    return {
      now: new Date(this.now()).toISOString(),
      frozen: this.frozenAt !== null,
      offsetMs: this.offsetMs,
    };
  }

  private rearm(): void {
    for (const sleeper of this.sleepers) this.arm(sleeper);
  }

  private arm(sleeper: Sleeper): void {
    clearTimeout(sleeper.timer);
    const wait = sleeper.until - this.now();
    if (wait <= 0) {
      this.sleepers.delete(sleeper);
      sleeper.resolve();
    } else if (this.frozenAt === null) {
      sleeper.timer = setTimeout(() => this.arm(sleeper), wait);
      // A sleeper alone never keeps the process alive.
      sleeper.timer.unref();
    }
  }
}

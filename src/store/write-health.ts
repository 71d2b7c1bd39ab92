import type { StoreWriteError } from './write-error.js';

/** Whether the store can make changes durable now; when not, why and since when (ms since the epoch). */
export type WriteHealth =
  | { writable: true }
  | { writable: false; code: string; message: string; since: number };

/** How a `WriteHealthMonitor` learns that writes work again, and whom it tells. */
export interface WriteHealthOptions {
  /** A small write of the store's own, started now and then while writes fail; its success calls `markWritable`. */
  probe: () => void;
  /** How often `probe` is called while writes fail, ms (default 1000). */
  probeIntervalMs?: number;
  /** Told when writes start failing, and when they work again: once each way. */
  onWriteHealth?: (health: WriteHealth) => void;
}

/**
 * Whether the store's writes work. The first failed write marks it unwritable (later failures are the same
 * outage) and starts a probe now and then; the first write or probe that goes through marks it writable again and
 * lets the `whenWritable` waiters go. With no failure it costs nothing: no timer runs.
 */
export class WriteHealthMonitor {
  private health: WriteHealth = { writable: true };
  private probeTimer: NodeJS.Timeout | null = null;
  private writableWaiters: (() => void)[] = [];
  /** Unwritable for good (`markLost`): no write or probe makes it writable again. */
  private lost = false;

  constructor(private readonly options: WriteHealthOptions) {}

  /** Whether changes can be written now; when not, the error and since when. */
  current(): WriteHealth {
    return this.health;
  }

  /** Resolves once writes work (at once when they do). */
  whenWritable(): Promise<void> {
    if (this.health.writable) return Promise.resolve();
    return new Promise((resolve) => this.writableWaiters.push(resolve));
  }

  /** A write failed with `error`: unwritable from now, told once, probing until a write works. */
  markUnwritable(error: StoreWriteError): void {
    if (!this.health.writable || this.lost) return;
    this.health = { writable: false, code: error.code, message: error.message, since: Date.now() };
    this.options.onWriteHealth?.(this.health);
    this.probeTimer = setInterval(() => this.options.probe(), this.options.probeIntervalMs ?? 1000);
    // The probe must not keep a process alive that has nothing else to do.
    this.probeTimer.unref();
  }

  /**
   * The state file is no longer this process's (a `StateTakenOverError`): unwritable for good, without a probe, and
   * without a word to `onWriteHealth`, as this is no disk trouble (the store tells it its own way). The waiters of
   * `whenWritable` wait for ever: the work they hold must not be written by this process.
   */
  markLost(error: StoreWriteError): void {
    if (this.lost) return;
    this.lost = true;
    this.stopProbing();
    this.health = { writable: false, code: error.code, message: error.message, since: Date.now() };
  }

  /** A write went through: writable again, told once, and the waiters go. */
  markWritable(): void {
    if (this.health.writable || this.lost) return;
    this.health = { writable: true };
    this.stopProbing();
    this.options.onWriteHealth?.(this.health);
    for (const resolve of this.writableWaiters.splice(0)) resolve();
  }

  /** Stops the probes (the store closes); the health stays as it is. */
  stopProbing(): void {
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
  }
}

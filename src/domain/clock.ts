/** The one source of time. Everything time-based reads it, so tests can move time instead of sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO 8601 UTC with milliseconds, the wire format of every timestamp. */
export function isoAt(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}

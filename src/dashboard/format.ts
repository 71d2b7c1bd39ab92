// How the dashboard writes times and amounts for people. Pure functions: the rows and the live feed share them.

export { formatNaira } from '../domain/money.js';

/** The `T` of an ISO timestamp, wherever its year ends (the clock stops in 9999, but `+010000` would still read). */
const timeStart = (iso: string) => iso.indexOf('T');

/** The time of day of an ISO timestamp, to the millisecond: `2026-11-22T10:04:05.123Z` → `10:04:05.123`. */
export const timeOf = (iso: string) => iso.slice(timeStart(iso) + 1, timeStart(iso) + 13);

/** An ISO timestamp as date and time to the second, for times that may be days away: `2026-11-22 10:04:05`. */
export const dateTimeOf = (iso: string) =>
  `${iso.slice(0, timeStart(iso))} ${iso.slice(timeStart(iso) + 1, timeStart(iso) + 9)}`;

/** `ms` (ms since the epoch) as an ISO timestamp, with a four-digit year (`isoOf` of the clock). */
export { isoOf } from '../domain/clock.js';

/** A duration in words, to the largest unit: `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`. */
export function durationWords(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d} d` : `${d} d ${h % 24} h`;
}

/**
 * When `at` is, seen from `now` (both ms since the epoch): `in 12 min`, `3 h ago`, `now`. The page renders it, and
 * its script keeps it current with `relativeWords`, the same rule in the browser (a test holds the two equal).
 */
export function relativeTo(at: number, now: number): string {
  if (Math.abs(at - now) < 500) return 'now';
  return at > now ? `in ${durationWords(at - now)}` : `${durationWords(now - at)} ago`;
}

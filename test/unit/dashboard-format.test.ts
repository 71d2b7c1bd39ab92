import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dateTimeOf, durationWords, isoOf, relativeTo, timeOf } from '../../src/dashboard/format.js';
import { END_OF_TIME_MS } from '../../src/domain/clock.js';

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;

describe('durationWords(ms)', () => {
  it.each([
    // Seconds, rounded to the nearest.
    { ms: 0, expected: '0 s' },
    { ms: 499, expected: '0 s' },
    { ms: 500, expected: '1 s' },
    { ms: 45 * S, expected: '45 s' },
    { ms: 59 * S + 499, expected: '59 s' },
    // Minutes, whole: a minute and 59 s is still 1 min.
    { ms: 59 * S + 500, expected: '1 min' },
    { ms: MIN, expected: '1 min' },
    { ms: 2 * MIN - S, expected: '1 min' },
    { ms: 12 * MIN, expected: '12 min' },
    { ms: H - S, expected: '59 min' },
    // Hours, with the minutes unless there are none.
    { ms: H, expected: '1 h' },
    { ms: H + MIN, expected: '1 h 1 min' },
    { ms: 3 * H + 5 * MIN, expected: '3 h 5 min' },
    { ms: 3 * H + 5 * MIN + 59 * S, expected: '3 h 5 min' },
    { ms: D - MIN, expected: '23 h 59 min' },
    // Days, with the hours unless there are none; the minutes are left out.
    { ms: D, expected: '1 d' },
    { ms: D + 59 * MIN, expected: '1 d' },
    { ms: D + H, expected: '1 d 1 h' },
    { ms: 2 * D + 4 * H, expected: '2 d 4 h' },
    { ms: 2 * D + 4 * H + 30 * MIN, expected: '2 d 4 h' },
    { ms: 400 * D, expected: '400 d' },
    // A distance either way: the sign is the caller's (ahead, behind, ago, in).
    { ms: -45 * S, expected: '45 s' },
    { ms: -(3 * H + 5 * MIN), expected: '3 h 5 min' },
    { ms: -2 * D, expected: '2 d' },
  ])('$ms ms → $expected', ({ ms, expected }) => {
    expect(durationWords(ms)).toBe(expected);
  });
});

describe('relativeTo(at, now)', () => {
  const now = Date.UTC(2026, 10, 22, 10, 4, 5, 123);
  it.each([
    // Within half a second either way is now.
    { delta: 0, expected: 'now' },
    { delta: 499, expected: 'now' },
    { delta: -499, expected: 'now' },
    // Later is "in …", earlier is "… ago".
    { delta: 500, expected: 'in 1 s' },
    { delta: -500, expected: '1 s ago' },
    { delta: 45 * S, expected: 'in 45 s' },
    { delta: 12 * MIN, expected: 'in 12 min' },
    { delta: -3 * MIN, expected: '3 min ago' },
    { delta: -3 * H, expected: '3 h ago' },
    { delta: 3 * H + 5 * MIN, expected: 'in 3 h 5 min' },
    { delta: 2 * D + 4 * H, expected: 'in 2 d 4 h' },
    { delta: -D, expected: '1 d ago' },
  ])('now + $delta ms → $expected', ({ delta, expected }) => {
    expect(relativeTo(now + delta, now)).toBe(expected);
  });
});

describe('timeOf(iso) and dateTimeOf(iso)', () => {
  it.each([
    { iso: '2026-11-22T10:04:05.123Z', time: '10:04:05.123', dateTime: '2026-11-22 10:04:05' },
    { iso: '2026-11-22T00:00:00.000Z', time: '00:00:00.000', dateTime: '2026-11-22 00:00:00' },
    { iso: '2025-01-06T09:00:00.000Z', time: '09:00:00.000', dateTime: '2025-01-06 09:00:00' },
    { iso: '2026-12-31T23:59:59.999Z', time: '23:59:59.999', dateTime: '2026-12-31 23:59:59' },
    { iso: '1970-01-01T00:00:00.000Z', time: '00:00:00.000', dateTime: '1970-01-01 00:00:00' },
    { iso: '9999-12-31T23:59:59.999Z', time: '23:59:59.999', dateTime: '9999-12-31 23:59:59' },
    // Past year 9999 ISO 8601 writes the year with a sign and six digits: the clock stops at the end of 9999, but the
    // helpers still read such a time whole.
    { iso: '+010000-01-01T00:00:00.000Z', time: '00:00:00.000', dateTime: '+010000-01-01 00:00:00' },
    { iso: '-000001-06-30T12:30:00.000Z', time: '12:30:00.000', dateTime: '-000001-06-30 12:30:00' },
  ])('$iso → $time, $dateTime', ({ iso, time, dateTime }) => {
    expect(timeOf(iso)).toBe(time);
    // The seconds are cut, never rounded: .999 stays in its second.
    expect(dateTimeOf(iso)).toBe(dateTime);
  });

  it.each([
    { ms: 0, iso: '1970-01-01T00:00:00.000Z', time: '00:00:00.000', dateTime: '1970-01-01 00:00:00' },
    {
      ms: Date.UTC(2026, 10, 22, 10, 4, 5, 123),
      iso: '2026-11-22T10:04:05.123Z',
      time: '10:04:05.123',
      dateTime: '2026-11-22 10:04:05',
    },
  ])('isoOf($ms) is $iso, which both read', ({ ms, iso, time, dateTime }) => {
    expect(isoOf(ms)).toBe(iso);
    expect(timeOf(isoOf(ms))).toBe(time);
    expect(dateTimeOf(isoOf(ms))).toBe(dateTime);
  });
});

describe("the page's script keeps times in words by the same rule", () => {
  // app.js has no build step and cannot import format.ts: its own copy of the rule is read out of the file and
  // compared with relativeTo over a range of distances.
  const script = readFileSync(join(import.meta.dirname, '../../src/dashboard/assets/app.js'), 'utf8');
  const source = (name: string) => {
    const found = new RegExp(`^function ${name}\\([^)]*\\) \\{\\n[\\s\\S]*?\\n\\}$`, 'm').exec(script);
    if (!found) throw new Error(`app.js has no function ${name}`);
    return found[0];
  };
  const relativeWords = new Function(
    `${source('durationWords')}\n${source('relativeWords')}\nreturn relativeWords;`,
  )() as (at: number, now: number) => string;

  it('answers what relativeTo answers, from a second to weeks either way', () => {
    const now = Date.UTC(2026, 10, 22, 10, 4, 5, 123);
    const deltas = [0, 499, 500, 59_499, 59_500, 61 * S, 59 * MIN, H, 25 * H, 3 * D + 5 * H, 30 * D];
    for (const delta of deltas.flatMap((d) => [d, -d]))
      expect(relativeWords(now + delta, now), `now + ${delta} ms`).toBe(relativeTo(now + delta, now));
  });

  it("never ticks a running clock past the end of the clock's range, where the server's stands still", () => {
    const panel = (dataset: Record<string, string>) => ({
      dataset: { end: String(END_OF_TIME_MS), ...dataset },
    });
    const nowFrom = (found: ReturnType<typeof panel>) =>
      new Function('$', `${source('sandboxNow')}\n${source('endOfTime')}\nreturn sandboxNow();`)(
        () => found,
      ) as number;
    // An offset that real time has carried a day past the end.
    expect(nowFrom(panel({ frozen: 'false', offsetMs: String(END_OF_TIME_MS - Date.now() + D) }))).toBe(
      END_OF_TIME_MS,
    );
    const offsetMs = 3_600_000;
    const before = Date.now();
    const running = nowFrom(panel({ frozen: 'false', offsetMs: String(offsetMs) }));
    expect(running).toBeGreaterThanOrEqual(before + offsetMs);
    expect(running).toBeLessThanOrEqual(Date.now() + offsetMs);
    expect(nowFrom(panel({ frozen: 'true', now: String(END_OF_TIME_MS) }))).toBe(END_OF_TIME_MS);
  });
});

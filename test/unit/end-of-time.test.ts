import { describe, expect, it } from 'vitest';
import {
  type ClockState,
  capAtEnd,
  END_OF_TIME,
  END_OF_TIME_MS,
  hasExpired,
  isoOf,
  START_OF_TIME_MS,
  VirtualClock,
} from '../../src/domain/clock.js';
import { clockState } from '../../src/domain/records.js';

const SECOND = 1000;
const HOUR = 3_600_000;
/** Real time in these tests: a fixed moment that a test moves by hand. */
const REAL = Date.parse('2030-01-01T00:00:00.000Z');

/** A clock on a hand-moved time source, and what it persisted. */
function clockAt(state: ClockState) {
  const source = { real: REAL };
  const clock = new VirtualClock({ now: () => source.real });
  clock.restore(state);
  const persisted: ClockState[] = [];
  clock.persistWith(async (s) => {
    persisted.push(s);
  });
  return { clock, source, persisted };
}

const frozenAt = (ms: number): ClockState => ({ offsetMs: 0, frozenAt: ms });
const runningAt = (ms: number): ClockState => ({ offsetMs: ms - REAL, frozenAt: null });

describe('the range of the clock', () => {
  it('ends at the last millisecond of year 9999 and starts at the first of year 0000, both four-digit years', () => {
    expect(new Date(END_OF_TIME_MS).toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(END_OF_TIME).toBe('9999-12-31T23:59:59.999Z');
    expect(new Date(START_OF_TIME_MS).toISOString()).toBe('0000-01-01T00:00:00.000Z');
    // One millisecond either side, ISO 8601 needs a sign and six digits: why the range stops where it does.
    expect(new Date(END_OF_TIME_MS + 1).toISOString()).toBe('+010000-01-01T00:00:00.000Z');
    expect(new Date(START_OF_TIME_MS - 1).toISOString()).toBe('-000001-12-31T23:59:59.999Z');
  });

  it.each([
    [END_OF_TIME_MS, '9999-12-31T23:59:59.999Z'],
    [END_OF_TIME_MS + 1, '9999-12-31T23:59:59.999Z'],
    [8.64e15, '9999-12-31T23:59:59.999Z'],
    // Past what a Date can hold at all (a record an earlier version computed): written, not thrown.
    [8.64e15 + HOUR, '9999-12-31T23:59:59.999Z'],
    [START_OF_TIME_MS - 1, '0000-01-01T00:00:00.000Z'],
    [REAL, '2030-01-01T00:00:00.000Z'],
  ])('writes %d as %s', (ms, iso) => {
    expect(isoOf(ms)).toBe(iso);
  });

  it.each([
    // [expiresAt, now, expired]
    [REAL, REAL - 1, false],
    [REAL, REAL, true],
    [REAL, END_OF_TIME_MS, true],
    [END_OF_TIME_MS - 1, END_OF_TIME_MS, true],
    // The clock stands at the end and never passes it: an expiry there never comes.
    [END_OF_TIME_MS, END_OF_TIME_MS, false],
  ])('an expiry at %d has passed at %d: %s', (expiresAt, now, expired) => {
    expect(hasExpired(expiresAt, now)).toBe(expired);
  });

  it('caps a time ahead of the clock at the end', () => {
    expect(capAtEnd(REAL + HOUR)).toBe(REAL + HOUR);
    expect(capAtEnd(END_OF_TIME_MS - SECOND + HOUR)).toBe(END_OF_TIME_MS);
  });
});

describe('the virtual clock at the end of time', () => {
  it('advances to exactly the end', async () => {
    const { clock, persisted } = clockAt(frozenAt(END_OF_TIME_MS - HOUR));
    await clock.advance(HOUR);
    expect(clock.now()).toBe(END_OF_TIME_MS);
    expect(clock.describe().now).toBe(END_OF_TIME);
    expect(persisted).toEqual([frozenAt(END_OF_TIME_MS)]);
  });

  it.each([
    ['frozen', frozenAt(END_OF_TIME_MS - HOUR)],
    ['running', runningAt(END_OF_TIME_MS - HOUR)],
  ])('refuses an advance past the end on a %s clock, naming the end, and nothing moves', async (_, state) => {
    const { clock, persisted } = clockAt(state);
    const before = clock.now();
    expect(clock.advanceProblem(HOUR + 1)).toBe(
      "ms would move the clock past 9999-12-31T23:59:59.999Z, the end of the clock's range",
    );
    await expect(clock.advance(HOUR + 1)).rejects.toThrow(
      new RangeError("ms would move the clock past 9999-12-31T23:59:59.999Z, the end of the clock's range"),
    );
    expect(clock.now()).toBe(before);
    expect(clock.state()).toEqual(state);
    expect(persisted).toEqual([]);
  });

  it('refuses any advance once at the end', async () => {
    const { clock } = clockAt(frozenAt(END_OF_TIME_MS));
    await expect(clock.advance(1)).rejects.toThrow(RangeError);
    expect(clock.now()).toBe(END_OF_TIME_MS);
  });

  it('a running clock that real time carries past the end stands still at the end', () => {
    const { clock, source } = clockAt(runningAt(END_OF_TIME_MS - SECOND));
    expect(clock.now()).toBe(END_OF_TIME_MS - SECOND);
    source.real += SECOND;
    expect(clock.now()).toBe(END_OF_TIME_MS);
    source.real += HOUR;
    expect(clock.now()).toBe(END_OF_TIME_MS);
    expect(clock.describe()).toEqual({
      now: END_OF_TIME,
      frozen: false,
      offsetMs: END_OF_TIME_MS - source.real,
    });
  });

  it('freezes a running clock that stands at the end at the end, never past it', async () => {
    const { clock, source, persisted } = clockAt(runningAt(END_OF_TIME_MS - SECOND));
    source.real += HOUR;
    await clock.freeze(true);
    expect(persisted).toEqual([expect.objectContaining({ frozenAt: END_OF_TIME_MS })]);
    // Let run again from the end, it still stands there.
    await clock.freeze(false);
    source.real += HOUR;
    expect(clock.now()).toBe(END_OF_TIME_MS);
  });

  it('wakes a sleep that would end past the end at the end, on a frozen clock advanced there', async () => {
    const { clock } = clockAt(frozenAt(END_OF_TIME_MS - SECOND));
    let woken = false;
    const sleeping = clock.sleep(HOUR).then(() => {
      woken = true;
    });
    await clock.advance(SECOND);
    await sleeping;
    expect(woken).toBe(true);
  });

  it('wakes at once a sleep begun on a clock standing at the end', async () => {
    const { clock, source } = clockAt(runningAt(END_OF_TIME_MS));
    source.real += HOUR;
    // Would hang the test if it waited for a time the clock never reaches.
    await clock.sleep(HOUR);
    expect(clock.now()).toBe(END_OF_TIME_MS);
  });

  it('refuses to restore a frozen clock outside its range, and nothing moves', () => {
    const { clock } = clockAt(frozenAt(REAL));
    expect(() => clock.restore(frozenAt(END_OF_TIME_MS + 1))).toThrow(
      new RangeError(
        "frozenAt would put the clock past 9999-12-31T23:59:59.999Z, the end of the clock's range",
      ),
    );
    expect(() => clock.restore(frozenAt(START_OF_TIME_MS - 1))).toThrow(RangeError);
    expect(clock.state()).toEqual(frozenAt(REAL));
    clock.restore(frozenAt(END_OF_TIME_MS));
    expect(clock.now()).toBe(END_OF_TIME_MS);
  });

  it('restores a running clock that real time carried past the end (kept across a restart) at the end', () => {
    const { clock } = clockAt(frozenAt(REAL));
    clock.restore({ offsetMs: END_OF_TIME_MS - REAL + HOUR, frozenAt: null });
    expect(clock.now()).toBe(END_OF_TIME_MS);
  });

  it.each([
    [frozenAt(END_OF_TIME_MS), null],
    [runningAt(END_OF_TIME_MS), null],
    [frozenAt(START_OF_TIME_MS), null],
    [
      frozenAt(END_OF_TIME_MS + 1),
      "frozenAt would put the clock past 9999-12-31T23:59:59.999Z, the end of the clock's range",
    ],
    [
      runningAt(END_OF_TIME_MS + 1),
      "offsetMs would put the clock past 9999-12-31T23:59:59.999Z, the end of the clock's range",
    ],
    [
      runningAt(START_OF_TIME_MS - 1),
      "offsetMs would put the clock before 0000-01-01T00:00:00.000Z, the start of the clock's range",
    ],
  ])('names what keeps an import from putting the clock at %j: %s', (state, problem) => {
    const { clock } = clockAt(frozenAt(REAL));
    expect(clock.stateProblem(state)).toBe(problem);
  });

  it('keeps a frozen time outside the range out of the state file and of an import', () => {
    expect(clockState.safeParse(frozenAt(END_OF_TIME_MS)).success).toBe(true);
    const past = clockState.safeParse(frozenAt(END_OF_TIME_MS + 1));
    expect(past.success).toBe(false);
    expect(past.error?.issues[0]?.message).toBe(
      "must not be past 9999-12-31T23:59:59.999Z, the end of the clock's range",
    );
    expect(clockState.safeParse(frozenAt(START_OF_TIME_MS - 1)).success).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { newRequestId, requestIds } from '../../src/http/request-id.js';

const PREFIX = '0d7c0d4e-3b1a-4f2e-9c8d-';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it.each([
    [
      'count on in the last group from after the start, twelve hex digits',
      41,
      ['00000000002a', '00000000002b', '00000000002c'],
    ],
    [
      'carry from the low half of the counter into the high one',
      0xff_fffe,
      ['000000ffffff', '000001000000', '000001000001'],
    ],
    [
      'wrap to zero past the last of 48 bits',
      0xffff_ffff_fffe,
      ['ffffffffffff', '000000000000', '000000000001'],
    ],
  ])('%s', (_label, start, lastGroups) => {
    const next = requestIds(PREFIX, start);
    expect([next(), next(), next()]).toEqual(lastGroups.map((group) => `${PREFIX}${group}`));
  });

  it('from a start past 2^32, as the process draws one, print the same digits as the counter', () => {
    const start = 0xdead_beef * 0x1000;
    const next = requestIds(PREFIX, start);
    expect(next()).toBe(`${PREFIX}${(start + 1).toString(16).padStart(12, '0')}`);
  });

  it("are the process's: UUID-shaped, one prefix, each new", () => {
    const ids = Array.from({ length: 1000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids.map((id) => id.slice(0, 24))).size).toBe(1);
    expect(new Set(ids).size).toBe(1000);
  });
});

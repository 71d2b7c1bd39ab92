import { timingSafeEqual } from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { secureEqual } from '../../src/domain/secure-compare.js';

// A spy that still compares: it shows that secureEqual goes through crypto.timingSafeEqual. The mock replaces a
// module, so this file gets a module graph of its own (vitest.config.ts), and is kept small for that reason: the
// end-to-end checks of the secrets are in test/api/http/security.test.ts.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

describe('secureEqual compares in constant time', () => {
  const spy = vi.mocked(timingSafeEqual);
  beforeEach(() => {
    spy.mockClear();
  });

  it.each([
    ['equal', 'sk_sandbox_abc', 'sk_sandbox_abc', true],
    ['equal, empty', '', '', true],
    ['unequal, same length', 'sk_sandbox_abc', 'sk_sandbox_abd', false],
    ['unequal, first character', 'sk_sandbox_abc', 'tk_sandbox_abc', false],
    ['a prefix', 'sk_sandbox_ab', 'sk_sandbox_abc', false],
    ['longer', 'sk_sandbox_abcd', 'sk_sandbox_abc', false],
    ['empty against a key', '', 'sk_sandbox_abc', false],
    ['a key against empty', 'sk_sandbox_abc', '', false],
    ['same characters, different bytes', 'é', 'e\u0301', false],
    ['same length in characters, not in bytes', 'ab', 'aé', false],
  ])('secureEqual: %s → %s, through crypto.timingSafeEqual', (_label, a, b, expected) => {
    expect(secureEqual(a, b)).toBe(expected);
    expect(secureEqual(b, a)).toBe(expected);
    expect(spy).toHaveBeenCalled();
  });

  it('a length mismatch still costs one comparison of the given length', () => {
    expect(secureEqual('short', 'a much longer secret')).toBe(false);
    expect(spy).toHaveBeenCalledTimes(1);
    const [x, y] = spy.mock.calls[0] ?? [];
    expect((x as Buffer).length).toBe(5);
    expect((y as Buffer).length).toBe(5);
  });
});

import { describe, expect, it } from 'vitest';
import banks from '../../fixtures/banks.json' with { type: 'json' };
import clients from '../../fixtures/clients.json' with { type: 'json' };
import { selfPointing } from '../../src/bank/settings/service.js';
import { END_OF_TIME_MS, VirtualClock } from '../../src/domain/clock.js';
import { expiryClaim, signToken, tokenExpired, verifyToken } from '../../src/domain/jwt.js';
import { editDistance, nearestName } from '../../src/domain/nearest-name.js';
import { accountNumbersOf, isValidNuban, makeNuban, nubanCheckDigit } from '../../src/domain/nuban.js';
import { Random, seedState } from '../../src/domain/random.js';
import { nipSessionId, transactionReference } from '../../src/domain/references.js';
import { permits } from '../../src/domain/roles.js';
import { secureEqual } from '../../src/domain/secure-compare.js';
import { pointsAtSelf } from '../../src/domain/self-url.js';

describe('NUBAN check digit', () => {
  it.each([
    // Expected digits computed independently (weights 3,7,3 repeated over the 6-digit code + 9-digit serial);
    // 058/000000001 by hand: 5·7 + 8·3 + 1·3 = 62 → 8.
    { bank: '058', serial: '000000001', digit: 8 },
    { bank: '011', serial: '123456789', digit: 5 },
    { bank: '044', serial: '069000000', digit: 1 },
    // 6-digit institution codes use the same weights over all 15 digits.
    { bank: '090267', serial: '200000000', digit: 2 },
    { bank: '100004', serial: '812345678', digit: 5 },
  ])('$bank / $serial → $digit', ({ bank, serial, digit }) => {
    expect(nubanCheckDigit(bank, serial)).toBe(digit);
    expect(isValidNuban(bank, serial + String(digit))).toBe(true);
    expect(isValidNuban(bank, serial + String((digit + 1) % 10))).toBe(false);
  });

  it('pads a 3-digit code to 6 digits (same answer either way)', () => {
    expect(nubanCheckDigit('058', '152412345')).toBe(nubanCheckDigit('000058', '152412345'));
  });

  it('rejects malformed input', () => {
    expect(isValidNuban('058', '12345')).toBe(false);
    expect(isValidNuban('058', '12345678ab')).toBe(false);
    expect(() => nubanCheckDigit('58', '000000001')).toThrow();
    expect(() => makeNuban('058', '1234')).toThrow();
  });

  it('accountNumbersOf: valid for the bank, all different, never a leading 0, the same every time', () => {
    for (const { code } of banks.banks) {
      const numbers = accountNumbersOf(code, 100);
      expect(numbers).toHaveLength(100);
      expect(new Set(numbers).size).toBe(100);
      for (const n of numbers) {
        expect(n).toMatch(/^[1-9]\d{9}$/);
        expect(isValidNuban(code, n)).toBe(true);
      }
      // A pure function: asked again, or for fewer, the same sequence from its start.
      expect(accountNumbersOf(code, 3)).toEqual(numbers.slice(0, 3));
    }
    // Two banks' sequences start at different serials.
    expect(accountNumbersOf('058', 1)[0]?.slice(0, 9)).not.toBe(accountNumbersOf('044', 1)[0]?.slice(0, 9));
    expect(accountNumbersOf('058', 0)).toEqual([]);
    expect(() => accountNumbersOf('58', 1)).toThrow();
  });

  it('every fixture account number is a valid NUBAN of the home bank', () => {
    for (const client of clients) {
      for (const b of client.businesses) {
        if ('accountNumber' in b && b.accountNumber)
          expect(isValidNuban(banks.homeBankCode, b.accountNumber)).toBe(true);
      }
    }
  });
});

describe('the name meant (did you mean)', () => {
  it.each([
    ['flaky-bank', 'flaky-bank', 0],
    ['flakey-bank', 'flaky-bank', 1],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
  ])('%s is %s edits from %s', (a, b, n) => {
    expect(editDistance(a, b)).toBe(n);
    expect(editDistance(b, a)).toBe(n);
  });

  const READY = ['default', 'flaky-bank', 'happy-path', 'soft-errors'];
  it.each([
    ['flakey-bank', 'flaky-bank'],
    ['Happy-Path', 'happy-path'],
    // A known name with something added to its end (a unit, a plural) is one edit away.
    ['soft-errorsss', 'soft-errors'],
    ['defualt', 'default'],
    // Short names must be nearer: three edits is too far for a name of six characters or fewer.
    ['nope', undefined],
    ['flaky', undefined],
    ['webhook-receiver-down', undefined],
  ])('%s: %s', (given, meant) => {
    expect(nearestName(given, READY)).toBe(meant);
  });

  it('compares as the fold given, and the first of names as near wins', () => {
    expect(nearestName('ab', ['ax', 'ay'])).toBe('ax');
    expect(nearestName('A-B', ['ab'], (n) => n.toLowerCase().replaceAll('-', ''))).toBe('ab');
    expect(nearestName('anything', [])).toBeUndefined();
  });
});

describe('seeded random', () => {
  it('is reproducible from a seed and from a saved state', () => {
    const a = new Random(seedState(42));
    const b = new Random(seedState(42));
    const first = [a.uint32(), a.uint32(), a.uint32()];
    expect([b.uint32(), b.uint32(), b.uint32()]).toEqual(first);
    const resumed = new Random(a.state);
    expect(resumed.uuid()).toBe(a.uuid());
  });

  it('draws the same ids, digits and hex from a seed as it always has (saved states depend on it)', () => {
    const r = new Random(seedState(20260611, 3));
    expect([r.uuid(), r.digits(12), r.digits(20), r.hex(32), r.hex(10), r.digits(1), r.uuid()]).toEqual([
      'edcabbfd-e303-434f-a5b2-d194ee0a1dbe',
      '080773326223',
      '93447902654851378463',
      '4216aae0c47623ad077561834b92b16c',
      'd7cfb32583',
      '2',
      'd9947bad-55f4-4cb4-bde8-ae69ca6c23db',
    ]);
  });

  it('different seeds give different sequences', () => {
    expect(new Random(seedState(1)).hex(16)).not.toBe(new Random(seedState(2)).hex(16));
  });

  it('makes v4 UUIDs, digits and ranges of the right shape', () => {
    const r = new Random(seedState(7));
    const ids = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const id = r.uuid();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(2000);
    expect(r.digits(30)).toMatch(/^\d{30}$/);
    for (let i = 0; i < 1000; i++) {
      const n = r.int(3, 5);
      expect(n >= 3 && n <= 5).toBe(true);
    }
  });
});

describe('references', () => {
  it('stamp each reference with the UTC second it was made in, the same second alike', () => {
    const r = new Random(seedState(5));
    const at = Date.UTC(2026, 11, 2, 23, 59, 59, 400);
    const stamps = [at, at + 599, at + 600, at - 1000, at].map((t) =>
      transactionReference(r, t).slice(3, 15),
    );
    expect(stamps).toEqual(['261202235959', '261202235959', '261203000000', '261202235958', '261202235959']);
    expect(nipSessionId('58', r, at + 600)).toMatch(/^000058261203000000\d{12}$/);
  });
});

describe('JWT', () => {
  const key = 'k'.repeat(64);
  const claims = { sub: 'u1', clientId: 'c1', role: 'Admin', iat: 1000, exp: 2000 };

  it('verifies its own tokens until they expire', () => {
    const token = signToken(claims, key);
    expect(verifyToken(token, key, 1_999_999)).toEqual({ ok: true, claims });
    expect(verifyToken(token, key, 2_000_000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('is not valid before the time it was issued at (a clock reset or an import put time behind it)', () => {
    const token = signToken(claims, key);
    expect(verifyToken(token, key, 999_999)).toEqual({ ok: false, reason: 'not-yet-valid' });
    expect(verifyToken(token, key, 1_000_000)).toEqual({ ok: true, claims });
  });

  it('rejects a tampered payload, another key, another algorithm and garbage', () => {
    const token = signToken(claims, key);
    const [h, , s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, role: 'Viewer', exp: 9e9 })).toString('base64url');
    expect(verifyToken(`${h}.${forged}.${s}`, key, 0).ok).toBe(false);
    expect(verifyToken(token, 'other', 0).ok).toBe(false);
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect(verifyToken(`${none}.${token.split('.')[1]}.`, key, 0).ok).toBe(false);
    expect(verifyToken('a.b', key, 0).ok).toBe(false);
    expect(verifyToken('', key, 0).ok).toBe(false);
  });

  it('takes only the signature’s canonical base64url: no padding, no standard base64, nothing around it', () => {
    // A token whose signature has both characters base64url changes (`-` and `_`), found by its expiry.
    let token = '';
    for (let exp = 2000; !/[-_].*[-_]/.test(token.split('.')[2] ?? ''); exp++)
      token = signToken({ ...claims, exp }, key);
    const [h, p, sig = ''] = token.split('.');
    expect(verifyToken(token, key, 1_000_000).ok).toBe(true);
    const standard = sig.replaceAll('-', '+').replaceAll('_', '/');
    for (const altered of [
      `${sig}=`,
      `${sig}==`,
      standard,
      `${standard}=`,
      ` ${sig}`,
      `${sig}\n`,
      `${sig}.`,
    ]) {
      expect(verifyToken(`${h}.${p}.${altered}`, key, 1_000_000), JSON.stringify(altered)).toEqual({
        ok: false,
        reason: 'invalid',
      });
    }
  });
});

describe('access tokens at the end of time', () => {
  const key = 'k'.repeat(64);
  const lastSecond = Math.floor(END_OF_TIME_MS / 1000);

  it('caps exp at the last second of the range', () => {
    expect(expiryClaim(1000, 3600)).toBe(4600);
    expect(expiryClaim(lastSecond - 1, 3600)).toBe(lastSecond);
  });

  it('a token issued near the end still works once the clock stands at the end', () => {
    const iat = lastSecond - 1;
    const claims = { sub: 'u1', clientId: 'c1', role: 'Admin', iat, exp: expiryClaim(iat, 3600) };
    const token = signToken(claims, key);
    expect(verifyToken(token, key, iat * 1000)).toEqual({ ok: true, claims });
    expect(verifyToken(token, key, END_OF_TIME_MS)).toEqual({ ok: true, claims });
    expect(tokenExpired(claims, END_OF_TIME_MS)).toBe(false);
  });

  it('one whose exp came before the end expires as ever', () => {
    const claims = { sub: 'u1', clientId: 'c1', role: 'Admin', iat: lastSecond - 10, exp: lastSecond - 5 };
    expect(tokenExpired(claims, (lastSecond - 5) * 1000)).toBe(true);
    expect(tokenExpired(claims, END_OF_TIME_MS)).toBe(true);
  });
});

describe('role rules', () => {
  it.each([
    ['Admin', 'settings', 'PATCH', true],
    ['Admin', 'member-admin', 'POST', true],
    ['Manager', 'business', 'POST', true],
    ['Manager', 'business', 'GET', true],
    ['Manager', 'settings', 'GET', false],
    ['Manager', 'member-admin', 'POST', false],
    ['Viewer', 'business', 'GET', true],
    ['Viewer', 'business', 'POST', false],
    ['Viewer', 'business', 'DELETE', false],
    ['Viewer', 'settings', 'GET', false],
    ['Viewer', 'member-admin', 'POST', false],
  ] as const)('%s on %s %s → %s', (role, area, method, allowed) => {
    expect(permits(role, area, method)).toBe(allowed);
  });
});

describe('secureEqual', () => {
  it('compares by value, whatever the lengths', () => {
    expect(secureEqual('sk_sandbox_abc', 'sk_sandbox_abc')).toBe(true);
    expect(secureEqual('sk_sandbox_abc', 'sk_sandbox_abd')).toBe(false);
    expect(secureEqual('short', 'a much longer value')).toBe(false);
    expect(secureEqual('', '')).toBe(true);
  });
});

describe('pointsAtSelf', () => {
  const self = { port: 4010, local: ['sandbox-host', '10.1.2.3', 'FE80::42:ACFF:FE11:2', '2001:db8::7'] };
  it.each([
    ['http://localhost:4010/__sandbox/reset', true],
    ['http://127.0.0.1:4010', true],
    ['http://127.255.0.9:4010/x', true],
    ['http://0x7f.1:4010/x', true],
    ['http://0:4010/x', true],
    ['http://[::1]:4010/x', true],
    ['http://[::ffff:7f00:1]:4010/x', true],
    ['http://[::ffff:10.1.2.3]:4010/x', true],
    ['http://10.1.2.3:4010/x', true],
    ['http://[fe80::42:acff:fe11:2]:4010/x', true],
    ['http://[2001:0db8:0:0:0:0:0:7]:4010/x', true],
    ['http://SANDBOX-HOST:4010/x', true],
    ['https://localhost:4010/x', true],
    ['http://localhost/x', false],
    ['http://localhost:4011/x', false],
    ['http://10.1.2.4:4010/x', false],
    ['https://hooks.example.com:4010/x', false],
    ['http://[::ffff:10.1.2.4]:4010/x', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => {
    expect(pointsAtSelf(url, self)).toBe(expected);
  });

  it("takes the scheme's default port when the URL names none", () => {
    expect(pointsAtSelf('http://localhost/x', { port: 80, local: [] })).toBe(true);
    expect(pointsAtSelf('https://127.0.0.1/x', { port: 443, local: [] })).toBe(true);
    expect(pointsAtSelf('https://127.0.0.1/x', { port: 80, local: [] })).toBe(false);
  });
});

describe('selfPointing', () => {
  it("reads the machine's names only for a URL on the sandbox's own port, and once for a batch", () => {
    let reads = 0;
    const names = () => {
      reads++;
      return ['sandbox-host', '10.1.2.3'];
    };
    const check = selfPointing({ ownPort: () => 4010 }, names);
    expect(check('https://hooks.example.com/x')).toBeNull();
    expect(check('http://10.1.2.3:4011/x')).toBeNull();
    expect(reads).toBe(0);
    expect(check('http://10.1.2.3:4010/x')).toMatch(/must not point at the sandbox itself \(port 4010/);
    expect(check('http://sandbox-host:4010/x')).toMatch(/must not point at the sandbox itself/);
    expect(check('http://10.1.2.4:4010/x')).toBeNull();
    expect(reads).toBe(1);
  });
});

describe('virtual clock: describe()', () => {
  /** Real time that moves on by a millisecond at every reading, as it can between two reads. */
  const ticking = () => {
    let now = 1_800_000_000_000;
    return { now: () => now++ };
  };

  it('shows a running clock at offset 0 however real time moves between readings', () => {
    const clock = new VirtualClock(ticking());
    for (let i = 0; i < 5; i++) expect(clock.describe()).toMatchObject({ frozen: false, offsetMs: 0 });
  });

  it('shows a frozen clock as far from real time as it is', () => {
    const source = ticking();
    const clock = new VirtualClock(source);
    clock.restore({ offsetMs: 0, frozenAt: 1_800_000_000_000 + 3_600_000 });
    const { offsetMs, frozen } = clock.describe();
    expect(frozen).toBe(true);
    // The reading describe() took: the frozen time minus that one reading of real time.
    expect(offsetMs).toBe(3_600_000 - (source.now() - 1 - 1_800_000_000_000));
  });
});

import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { type ScenarioRule, scenarioRule } from '../../src/contract/scenarios.js';
import { draw, firstMatch, type RuleCounters, type ScenarioEvent } from '../../src/scenarios/matcher.js';

const SEED = 7;
const FAIL = { fail: { errorCode: '91', errorMessage: 'Beneficiary Bank not available' } };

/** A rule as a scenario file would write it, parsed (so every rule under test is a valid one). */
function rule(input: z.input<typeof scenarioRule>): ScenarioRule {
  return scenarioRule.parse(input);
}

function event(fields: Partial<ScenarioEvent> = {}): ScenarioEvent {
  return { on: 'transfer', key: 'ref-1', ...fields };
}

const zero = (n: number): RuleCounters[] => Array.from({ length: n }, () => ({ seen: 0, applied: 0 }));

/** The index of the winning rule, or null. */
function winner(rules: ScenarioRule[], e: ScenarioEvent, counters = zero(rules.length), seed = SEED) {
  return firstMatch(rules, e, counters, seed).match?.index ?? null;
}

describe('firstMatch: each condition alone', () => {
  const cases: [string, z.input<typeof scenarioRule>, Partial<ScenarioEvent>, boolean][] = [
    ['no condition matches any event of its kind', { on: 'transfer', effect: FAIL }, {}, true],
    [
      'accountNumber equal',
      { on: 'transfer', match: { accountNumber: '0000000051' }, effect: FAIL },
      { accountNumber: '0000000051' },
      true,
    ],
    [
      'accountNumber different',
      { on: 'transfer', match: { accountNumber: '0000000051' }, effect: FAIL },
      { accountNumber: '0000000052' },
      false,
    ],
    [
      'accountNumber absent from the event',
      { on: 'transfer', match: { accountNumber: '0000000051' }, effect: FAIL },
      {},
      false,
    ],
    [
      'accountNumberPattern matching',
      { on: 'transfer', match: { accountNumberPattern: '^00000000\\d1$' }, effect: FAIL },
      { accountNumber: '0000000091' },
      true,
    ],
    [
      'accountNumberPattern not matching',
      { on: 'transfer', match: { accountNumberPattern: '^00000000\\d1$' }, effect: FAIL },
      { accountNumber: '0000000096' },
      false,
    ],
    [
      'accountNumberPattern with no account',
      { on: 'transfer', match: { accountNumberPattern: '^\\d{10}$' }, effect: FAIL },
      {},
      false,
    ],
    [
      'bankCode equal',
      { on: 'transfer', match: { bankCode: '058' }, effect: FAIL },
      { bankCode: '058' },
      true,
    ],
    [
      'bankCode different',
      { on: 'transfer', match: { bankCode: '058' }, effect: FAIL },
      { bankCode: '044' },
      false,
    ],
    [
      'amount below min',
      { on: 'transfer', match: { amount: { min: 100, max: 200 } }, effect: FAIL },
      { amount: 99 },
      false,
    ],
    [
      'amount at min (inclusive)',
      { on: 'transfer', match: { amount: { min: 100, max: 200 } }, effect: FAIL },
      { amount: 100 },
      true,
    ],
    [
      'amount inside',
      { on: 'transfer', match: { amount: { min: 100, max: 200 } }, effect: FAIL },
      { amount: 150 },
      true,
    ],
    [
      'amount at max (inclusive)',
      { on: 'transfer', match: { amount: { min: 100, max: 200 } }, effect: FAIL },
      { amount: 200 },
      true,
    ],
    [
      'amount above max',
      { on: 'transfer', match: { amount: { min: 100, max: 200 } }, effect: FAIL },
      { amount: 201 },
      false,
    ],
    [
      'amount with only min',
      { on: 'transfer', match: { amount: { min: 100 } }, effect: FAIL },
      { amount: 10 ** 12 },
      true,
    ],
    [
      'amount with only max',
      { on: 'transfer', match: { amount: { max: 100 } }, effect: FAIL },
      { amount: 0 },
      true,
    ],
    ['amount min with no amount', { on: 'transfer', match: { amount: { min: 0 } }, effect: FAIL }, {}, false],
    [
      'batchName equal',
      { on: 'bulk.item', match: { batchName: 'Salaries' }, effect: FAIL },
      { on: 'bulk.item', batchName: 'Salaries' },
      true,
    ],
    [
      'batchName different',
      { on: 'bulk.item', match: { batchName: 'Salaries' }, effect: FAIL },
      { on: 'bulk.item', batchName: 'Vendors' },
      false,
    ],
    [
      'itemIndex below min',
      { on: 'bulk.item', match: { itemIndex: { min: 2, max: 4 } }, effect: FAIL },
      { on: 'bulk.item', itemIndex: 1 },
      false,
    ],
    [
      'itemIndex at min (inclusive)',
      { on: 'bulk.item', match: { itemIndex: { min: 2, max: 4 } }, effect: FAIL },
      { on: 'bulk.item', itemIndex: 2 },
      true,
    ],
    [
      'itemIndex at max (inclusive)',
      { on: 'bulk.item', match: { itemIndex: { min: 2, max: 4 } }, effect: FAIL },
      { on: 'bulk.item', itemIndex: 4 },
      true,
    ],
    [
      'itemIndex above max',
      { on: 'bulk.item', match: { itemIndex: { min: 2, max: 4 } }, effect: FAIL },
      { on: 'bulk.item', itemIndex: 5 },
      false,
    ],
    [
      'itemIndex 0 with min 0',
      { on: 'bulk.item', match: { itemIndex: { min: 0 } }, effect: FAIL },
      { on: 'bulk.item', itemIndex: 0 },
      true,
    ],
    [
      'itemIndex max with no index',
      { on: 'bulk.item', match: { itemIndex: { max: 4 } }, effect: FAIL },
      { on: 'bulk.item' },
      false,
    ],
    [
      'method equal',
      { on: 'http', match: { method: 'GET' }, effect: { delayMs: 1 } },
      { on: 'http', method: 'GET', path: '/x' },
      true,
    ],
    [
      'method different',
      { on: 'http', match: { method: 'GET' }, effect: { delayMs: 1 } },
      { on: 'http', method: 'POST', path: '/x' },
      false,
    ],
    [
      'path regex matching',
      { on: 'http', match: { path: '^/api/v1/clients/business/customers/funds/' }, effect: { delayMs: 1 } },
      { on: 'http', method: 'POST', path: '/api/v1/clients/business/customers/funds/transfer' },
      true,
    ],
    [
      'path regex not matching',
      { on: 'http', match: { path: '^/api/v1/clients/business/customers/funds/' }, effect: { delayMs: 1 } },
      { on: 'http', method: 'GET', path: '/api/v1/clients/business/account-details' },
      false,
    ],
    [
      'path regex is not anchored unless it says so',
      { on: 'http', match: { path: 'account-details$' }, effect: { delayMs: 1 } },
      { on: 'http', path: '/api/v1/clients/business/account-details' },
      true,
    ],
    [
      '`on` mismatch (transfer rule, bulk item)',
      { on: 'transfer', match: { accountNumber: '0000000051' }, effect: FAIL },
      { on: 'bulk.item', accountNumber: '0000000051' },
      false,
    ],
    ['`on` mismatch (bulk rule, transfer)', { on: 'bulk.item', effect: FAIL }, { on: 'transfer' }, false],
    ['`on` mismatch (http rule, webhook)', { on: 'http', effect: { delayMs: 1 } }, { on: 'webhook' }, false],
    [
      '`on` mismatch (error rule, http request)',
      { on: 'error', effect: { status: 200 } },
      { on: 'http', method: 'GET', path: '/x' },
      false,
    ],
    [
      'error rule with no condition',
      { on: 'error', effect: { status: 200 } },
      { on: 'error', status: 401 },
      true,
    ],
    [
      'error status below min',
      { on: 'error', match: { status: { min: 400, max: 499 } }, effect: { status: 200 } },
      { on: 'error', status: 399 },
      false,
    ],
    [
      'error status at min (inclusive)',
      { on: 'error', match: { status: { min: 400, max: 499 } }, effect: { status: 200 } },
      { on: 'error', status: 400 },
      true,
    ],
    [
      'error status at max (inclusive)',
      { on: 'error', match: { status: { min: 400, max: 499 } }, effect: { status: 200 } },
      { on: 'error', status: 499 },
      true,
    ],
    [
      'error status above max',
      { on: 'error', match: { status: { min: 400, max: 499 } }, effect: { status: 200 } },
      { on: 'error', status: 503 },
      false,
    ],
    [
      'validation true on a validation failure',
      { on: 'error', match: { validation: true }, effect: { status: 422 } },
      { on: 'error', status: 400, validation: true },
      true,
    ],
    [
      'validation true on another error',
      { on: 'error', match: { validation: true }, effect: { status: 422 } },
      { on: 'error', status: 400, validation: false },
      false,
    ],
    [
      'validation false on another error',
      { on: 'error', match: { validation: false }, effect: { status: 422 } },
      { on: 'error', status: 400, validation: false },
      true,
    ],
    [
      'validation false on a validation failure',
      { on: 'error', match: { validation: false }, effect: { status: 422 } },
      { on: 'error', status: 400, validation: true },
      false,
    ],
    [
      'error method and path matching',
      { on: 'error', match: { method: 'POST', path: '/funds/' }, effect: { status: 200 } },
      { on: 'error', method: 'POST', path: '/api/v1/clients/business/customers/funds/transfer', status: 400 },
      true,
    ],
    [
      'error path not matching',
      { on: 'error', match: { method: 'POST', path: '/funds/' }, effect: { status: 200 } },
      { on: 'error', method: 'POST', path: '/api/v1/auth/signin', status: 400 },
      false,
    ],
    [
      'an error rule that would change nothing (the answer has its status already)',
      { on: 'error', effect: { status: 404 } },
      { on: 'error', status: 404 },
      false,
    ],
  ];

  it.each(cases)('%s', (_name, input, fields, matches) => {
    const rules = [rule(input)];
    const result = firstMatch(rules, event(fields), zero(1), SEED);
    expect(result.match?.index ?? null).toBe(matches ? 0 : null);
    expect(result.match?.rule ?? null).toBe(matches ? rules[0] : null);
    expect(result.conditionsMet).toEqual(matches ? [0] : []);
  });

  it('needs every condition of a rule to hold', () => {
    const rules = [
      rule({ on: 'transfer', match: { accountNumber: '0000000051', bankCode: '058' }, effect: FAIL }),
    ];
    expect(winner(rules, event({ accountNumber: '0000000051', bankCode: '058' }))).toBe(0);
    expect(winner(rules, event({ accountNumber: '0000000051', bankCode: '044' }))).toBeNull();
    expect(winner(rules, event({ accountNumber: '0000000052', bankCode: '058' }))).toBeNull();
  });

  it('matches nothing with no rules', () => {
    expect(firstMatch([], event(), [], SEED)).toEqual({ match: null, conditionsMet: [], riders: [] });
  });
});

describe('firstMatch: order, times and counters', () => {
  const a = rule({ on: 'transfer', match: { accountNumber: '0000000051' }, effect: FAIL });
  const b = rule({ on: 'transfer', effect: { delayMs: 5 } });

  it('picks the first of two matching rules and looks no further', () => {
    const result = firstMatch([a, b], event({ accountNumber: '0000000051' }), zero(2), SEED);
    expect(result.match).toEqual({ index: 0, rule: a });
    expect(result.conditionsMet).toEqual([0]);
    expect(winner([b, a], event({ accountNumber: '0000000051' }))).toBe(0);
  });

  it('falls through to a later rule when the first does not hold', () => {
    const result = firstMatch([a, b], event({ accountNumber: '0123456789' }), zero(2), SEED);
    expect(result.match).toEqual({ index: 1, rule: b });
    expect(result.conditionsMet).toEqual([1]);
  });

  it('treats missing counters as zero', () => {
    expect(winner([a], event({ accountNumber: '0000000051' }), [])).toBe(0);
  });

  const limited = rule({ on: 'transfer', effect: FAIL, times: 2 });
  it.each([
    [0, 0],
    [1, 0],
    [2, 1],
    [5, 1],
  ])('with times 2 and %i applied, the winner is rule %i', (applied, expected) => {
    const result = firstMatch(
      [limited, b],
      event(),
      [
        { seen: applied, applied },
        { seen: 0, applied: 0 },
      ],
      SEED,
    );
    expect(result.match?.index).toBe(expected);
    // A rule passed over for its times still met its conditions.
    expect(result.conditionsMet).toEqual(expected === 0 ? [0] : [0, 1]);
  });

  it('matches nothing once the only rule has used its times', () => {
    expect(winner([limited], event(), [{ seen: 2, applied: 2 }])).toBeNull();
  });

  it('lists in conditionsMet every rule whose conditions held up to the winner, and none after it', () => {
    const rules = [
      rule({ on: 'transfer', match: { everyNth: 2 }, effect: FAIL }), // holds, skipped by everyNth (seen 0)
      rule({ on: 'transfer', match: { accountNumber: '0000000007' }, effect: FAIL }), // does not hold
      rule({ on: 'transfer', effect: FAIL, times: 1 }), // holds, times used up
      rule({ on: 'transfer', match: { probability: 0 }, effect: FAIL }), // holds, never drawn
      rule({ on: 'transfer', match: { bankCode: '058' }, effect: FAIL }), // the winner
      rule({ on: 'transfer', effect: FAIL }), // would hold, never looked at
    ];
    const counters = [
      { seen: 0, applied: 0 },
      { seen: 0, applied: 0 },
      { seen: 1, applied: 1 },
      { seen: 0, applied: 0 },
      { seen: 0, applied: 0 },
      { seen: 0, applied: 0 },
    ];
    const result = firstMatch(rules, event({ bankCode: '058' }), counters, SEED);
    expect(result.match?.index).toBe(4);
    expect(result.conditionsMet).toEqual([0, 2, 3, 4]);
  });

  it('lists every rule whose conditions held when none wins', () => {
    const rules = [
      rule({ on: 'transfer', match: { probability: 0 }, effect: FAIL }),
      rule({ on: 'bulk.item', effect: FAIL }),
      rule({ on: 'transfer', match: { everyNth: 5 }, effect: FAIL }),
    ];
    expect(firstMatch(rules, event(), zero(3), SEED)).toEqual({
      match: null,
      conditionsMet: [0, 2],
      riders: [],
    });
  });
});

describe('firstMatch: error rules', () => {
  it('passes over a rule that would change nothing, to a later one, without counting it', () => {
    const rules = [
      rule({ on: 'error', effect: { status: 404 }, times: 1 }),
      rule({ on: 'error', effect: { status: 200 } }),
    ];
    expect(firstMatch(rules, event({ on: 'error', status: 404 }), zero(2), SEED)).toEqual({
      match: { index: 1, rule: rules[1] },
      conditionsMet: [1],
      riders: [],
    });
    expect(winner(rules, event({ on: 'error', status: 401 }))).toBe(0);
  });
});

describe('firstMatch: everyNth', () => {
  const third = rule({ on: 'transfer', match: { everyNth: 3 }, effect: FAIL });

  it.each([
    [0, false],
    [1, false],
    [2, true],
    [3, false],
    [4, false],
    [5, true],
  ])('everyNth 3 with %i seen before: matches %s', (seen, matches) => {
    const result = firstMatch([third], event(), [{ seen, applied: 0 }], SEED);
    expect(result.match?.index ?? null).toBe(matches ? 0 : null);
    expect(result.conditionsMet).toEqual([0]);
  });

  it('counting like the controller, matches the 3rd and 6th event', () => {
    const counters = zero(1);
    const hits: number[] = [];
    for (let n = 1; n <= 7; n++) {
      const { match, conditionsMet } = firstMatch([third], event({ key: `k${n}` }), counters, SEED);
      for (const i of conditionsMet) {
        const c = counters[i] ?? { seen: 0, applied: 0 };
        counters[i] = { seen: c.seen + 1, applied: c.applied + (match?.index === i ? 1 : 0) };
      }
      if (match) hits.push(n);
    }
    expect(hits).toEqual([3, 6]);
  });

  it('everyNth 1 matches every event', () => {
    const every = rule({ on: 'transfer', match: { everyNth: 1 }, effect: FAIL });
    for (const seen of [0, 1, 2, 9]) expect(winner([every], event(), [{ seen, applied: seen }])).toBe(0);
  });

  const bulkThird = rule({ on: 'bulk.item', match: { everyNth: 3 }, effect: FAIL });
  it.each([
    [0, false],
    [1, false],
    [2, true],
    [3, false],
    [4, false],
    [5, true],
    [8, true],
  ])('a bulk item at itemIndex %i counts by its position: matches %s', (itemIndex, matches) => {
    // The rule's own counter says otherwise: the item's position wins.
    for (const seen of [0, 1, 2]) {
      const result = firstMatch(
        [bulkThird],
        event({ on: 'bulk.item', itemIndex }),
        [{ seen, applied: 0 }],
        SEED,
      );
      expect(result.match?.index ?? null).toBe(matches ? 0 : null);
    }
  });
});

describe('draw', () => {
  it('is deterministic: the same seed, rule and key draw the same value', () => {
    expect(draw(2024, 3, 'batch-ref-17:0')).toBe(draw(2024, 3, 'batch-ref-17:0'));
    expect(draw(0, 0, '')).toBe(draw(0, 0, ''));
  });

  it('stays in [0, 1)', () => {
    for (let i = 0; i < 5000; i++) {
      const value = draw(i % 7, i % 3, `key-${i}`);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it('differs with the key, the rule and the seed', () => {
    const base = draw(1, 0, 'ref-a');
    expect(draw(1, 0, 'ref-b')).not.toBe(base);
    expect(draw(1, 1, 'ref-a')).not.toBe(base);
    expect(draw(2, 0, 'ref-a')).not.toBe(base);
    const values = new Set(Array.from({ length: 1000 }, (_, i) => draw(1, 0, `ref-${i}`)));
    expect(values.size).toBeGreaterThan(990);
  });
});

describe('firstMatch: probability', () => {
  const keys = Array.from({ length: 10_000 }, (_, i) => `ref-${i}`);
  const chance = (p: number) => rule({ on: 'transfer', match: { probability: p }, effect: FAIL });
  const hits = (r: ScenarioRule, seed = SEED) =>
    keys.filter((key) => winner([r], event({ key }), zero(1), seed) === 0).length;

  it('probability 0 never matches', () => {
    expect(hits(chance(0))).toBe(0);
  });

  it('probability 1 always matches', () => {
    expect(hits(chance(1))).toBe(keys.length);
  });

  it('probability 0.1 matches between 8% and 12% of 10 000 keys', () => {
    const n = hits(chance(0.1));
    expect(n).toBeGreaterThanOrEqual(800);
    expect(n).toBeLessThanOrEqual(1200);
  });

  it('matches exactly when the draw of its seed, its index and the key is below the probability', () => {
    const rules = [rule({ on: 'bulk.item', effect: FAIL }), chance(0.5)];
    for (const key of keys.slice(0, 200)) {
      const expected = draw(SEED, 1, key) < 0.5 ? 1 : null;
      expect(winner(rules, event({ key }))).toBe(expected);
    }
  });

  it('the same key always gets the same outcome, whatever the order', () => {
    const r = chance(0.3);
    const forward = keys.slice(0, 300).map((key) => winner([r], event({ key })));
    const backward = keys
      .slice(0, 300)
      .reverse()
      .map((key) => winner([r], event({ key })))
      .reverse();
    expect(backward).toEqual(forward);
  });

  it('another seed picks other keys', () => {
    const r = chance(0.1);
    const picked = (seed: number) =>
      keys.slice(0, 2000).filter((key) => winner([r], event({ key }), zero(1), seed) === 0);
    expect(picked(1)).not.toEqual(picked(2));
  });

  it('draws on the key (the sandbox ordinal) unless the rule draws by reference', () => {
    const byOrdinal = chance(0.5);
    const byReference = rule({
      on: 'transfer',
      match: { probability: 0.5, drawBy: 'reference' },
      effect: FAIL,
    });
    for (let i = 0; i < 200; i++) {
      const e = event({ key: `transfer ${i % 20}`, reference: `client-ref-${i}` });
      expect(winner([byOrdinal], e)).toBe(draw(SEED, 0, e.key) < 0.5 ? 0 : null);
      expect(winner([byReference], e)).toBe(draw(SEED, 0, `client-ref-${i}`) < 0.5 ? 0 : null);
    }
  });
});

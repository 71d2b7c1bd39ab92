import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scenario } from '../../src/contract/scenarios.js';
import { parseScenario, ScenarioError } from '../../src/scenarios/library.js';

const DIR = join(import.meta.dirname, '..', '..', 'scenarios');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(join(DIR, file), 'utf8'));
}

type Doc = Record<string, unknown>;

const FAIL = { fail: { errorCode: '51', errorMessage: 'Insufficient Funds' } };

/** A valid document with one transfer rule; `rule` and `top` replace parts of it. */
function doc(rule: Doc = {}, top: Doc = {}): Doc {
  return {
    name: 'my-scenario',
    description: 'A scenario for the tests',
    rules: [{ on: 'transfer', match: {}, effect: FAIL, ...rule }],
    ...top,
  };
}

/** The same, with `key` taken out of the top level. */
function without(key: string): Doc {
  const d = doc();
  delete d[key];
  return d;
}

function issuesOf(value: unknown) {
  const result = scenario.safeParse(value);
  expect(result.success, 'the document should be refused').toBe(false);
  return result.error?.issues ?? [];
}

describe('scenario schema: the ready files', () => {
  it('ships the twelve ready scenario files (narration-codes is made from the fixtures)', () => {
    expect(FILES).toEqual([
      'default.json',
      'duplicate-webhooks.json',
      'flaky-bank.json',
      'happy-path.json',
      'insufficient-funds-midway.json',
      'limits.json',
      'provider-outage.json',
      'reconciliation.json',
      'slow-processing.json',
      'soft-errors.json',
      'validation-422.json',
      'webhook-receiver-down.json',
    ]);
  });

  it.each(FILES)('%s parses, and its name is its file name', (file) => {
    const result = scenario.safeParse(readJson(file));
    expect(result.error?.issues ?? []).toEqual([]);
    expect(result.success).toBe(true);
    expect(`${result.data?.name}.json`).toBe(file);
  });
});

const http = (answer: Doc, on = 'http') => doc({ on, effect: { http: { status: 200, ...answer } } });

/** A body nested `depth` levels deep: `{"a":{"a":…}}`. */
function nested(depth: number): Doc {
  let body: Doc = {};
  for (let i = 0; i < depth; i++) body = { a: body };
  return body;
}

/** Custom answers the schema refuses, each with the field it names. */
const customAnswerRefusals: [string, Doc, string][] = [
  ['a message and a body together', http({ message: 'x', body: { a: 1 } }), 'rules.0.effect.http.body'],
  ['a body and a bodyText together', http({ body: {}, bodyText: 'x' }), 'rules.0.effect.http.bodyText'],
  ['a body on a 204', http({ status: 204, body: { a: 1 } }), 'rules.0.effect.http.body'],
  ['a message on a 304', http({ status: 304, message: 'x' }), 'rules.0.effect.http.message'],
  [
    'a template that names nothing',
    http({ body: { data: { ref: 'x-{{request.nope}}' } } }),
    'rules.0.effect.http.body.data.ref',
  ],
  [
    'a template with a body path of no segments',
    http({ body: { a: ['{{request.body.}}'] } }),
    'rules.0.effect.http.body.a.0',
  ],
  ['a template not closed', http({ body: { a: 'x {{now' } }), 'rules.0.effect.http.body.a'],
  ['code in a template', http({ body: { a: '{{ process.exit(1) }}' } }), 'rules.0.effect.http.body.a'],
  ['a bad template in a key', http({ body: { '{{nope}}': 1 } }), 'rules.0.effect.http.body.{{nope}}'],
  ['a body over 64 KiB', http({ body: { a: 'x'.repeat(65_536) } }), 'rules.0.effect.http.body'],
  ['a bodyText over 64 KiB', http({ bodyText: 'é'.repeat(40_000) }), 'rules.0.effect.http.bodyText'],
  [
    'a body nested deeper than 64 levels',
    http({ body: nested(70) }),
    `rules.0.effect.http.body${'.a'.repeat(65)}`,
  ],
  [
    'a content-length header',
    http({ headers: { 'Content-Length': '5' } }),
    'rules.0.effect.http.headers.Content-Length',
  ],
  [
    'a transfer-encoding header',
    http({ headers: { 'transfer-encoding': 'chunked' } }),
    'rules.0.effect.http.headers.transfer-encoding',
  ],
  [
    'a connection header',
    http({ headers: { connection: 'close' } }),
    'rules.0.effect.http.headers.connection',
  ],
  ['a header name with a space', http({ headers: { 'x a': '1' } }), 'rules.0.effect.http.headers.x a'],
  [
    'a header value with a line break',
    http({ headers: { 'x-a': 'a\r\nb: c' } }),
    'rules.0.effect.http.headers.x-a',
  ],
  ['an unknown field of an answer', http({ statusCode: 200 }), 'rules.0.effect.http'],
  ['an http delay over a minute', http({ delayMs: 60_001 }), 'rules.0.effect.http.delayMs'],
  [
    'a delay given twice',
    doc({ on: 'http', effect: { delayMs: 5, http: { status: 200, delayMs: 5 } } }),
    'rules.0.effect.http.delayMs',
  ],
];

/** Transport faults the schema refuses, each with the field it names. */
const faultRefusals: [string, Doc, string][] = [
  ['a fault on a transfer rule', doc({ effect: { fault: { kind: 'reset' } } }), 'rules.0.effect.fault'],
  [
    'a fault on a bulk.item rule',
    doc({ on: 'bulk.item', effect: { fault: { kind: 'empty' } } }),
    'rules.0.effect.fault',
  ],
  [
    'a fault on a webhook rule',
    doc({ on: 'webhook', effect: { fault: { kind: 'garbage' } } }),
    'rules.0.effect.fault',
  ],
  ['an unknown fault', doc({ on: 'http', effect: { fault: { kind: 'hang' } } }), 'rules.0.effect.fault.kind'],
  [
    'slowBody without bytesPerSecond',
    doc({ on: 'http', effect: { fault: { kind: 'slowBody' } } }),
    'rules.0.effect.fault.bytesPerSecond',
  ],
  [
    'slowBody at 0 bytes a second',
    doc({ on: 'http', effect: { fault: { kind: 'slowBody', bytesPerSecond: 0 } } }),
    'rules.0.effect.fault.bytesPerSecond',
  ],
  [
    'bytesPerSecond on a reset',
    doc({ on: 'http', effect: { fault: { kind: 'reset', bytesPerSecond: 10 } } }),
    'rules.0.effect.fault.bytesPerSecond',
  ],
  [
    'a custom answer with a reset, which sends none',
    doc({ on: 'http', effect: { fault: { kind: 'reset' }, http: { status: 200 } } }),
    'rules.0.effect.http',
  ],
  [
    'a status with an empty answer, which sends none',
    doc({ on: 'error', effect: { fault: { kind: 'empty' }, status: 200 } }),
    'rules.0.effect.status',
  ],
  ['a fault given as a word', doc({ on: 'http', effect: { fault: 'reset' } }), 'rules.0.effect.fault'],
];

describe('scenario schema: valid documents', () => {
  it.each([
    ['the smallest document (no rules)', { name: 'x', description: 'd', rules: [] }],
    ['a seed and extends', doc({}, { seed: 2 ** 32 - 1, extends: 'default' })],
    ['a rule with no match (it defaults to {})', doc({ match: undefined })],
    [
      'every match condition at once',
      doc({
        on: 'bulk.item',
        match: {
          accountNumber: '0123456789',
          accountNumberPattern: '^01\\d{8}$',
          bankCode: '058',
          amount: { min: 0, max: 100 },
          batchName: 'Salaries',
          itemIndex: { min: 0, max: 9 },
          everyNth: 1,
          probability: 0,
        },
        effect: { fail: FAIL.fail, delayMs: 0, hold: true },
        times: 1,
      }),
    ],
    ['a 6-digit bank code and probability 1', doc({ match: { bankCode: '090999', probability: 1 } })],
    [
      'an http rule',
      doc({
        on: 'http',
        match: { method: 'GET', path: '^/api/v1/' },
        effect: { http: { status: 503, message: 'Down' }, delayMs: 60_000 },
      }),
    ],
    ['a webhook rule', doc({ on: 'webhook', effect: { webhook: 'duplicate', delayMs: 5 } })],
    [
      'an error rule with every condition it takes',
      doc({
        on: 'error',
        match: {
          method: 'POST',
          path: '^/api/v1/',
          status: { min: 400, max: 599 },
          validation: true,
          everyNth: 2,
        },
        effect: { status: 422 },
        times: 3,
      }),
    ],
    ['an error rule answering 200', doc({ on: 'error', effect: { status: 200 } })],
    ['an http rule answering 200 with the envelope', http({ message: 'Done' })],
    ['an http rule answering a bare 503', http({ status: 503 })],
    [
      'a custom answer with every field',
      http({
        status: 201,
        body: {
          status: true,
          data: {
            path: '{{request.path}}',
            q: '{{ request.query.page }}',
            amount: '{{request.body.transfers.0.amount}}',
            agent: '{{request.header.User-Agent}}',
            at: '{{now}}',
            id: '{{uuid}}-{{uuid}}',
          },
          extra: [1, null, false],
        },
        headers: { 'X-Extra': 'yes', 'content-type': 'application/problem+json' },
        delayMs: 60_000,
      }),
    ],
    ['a malformed body on purpose', http({ bodyText: '{"status": tru' })],
    ['a 204 without a body', http({ status: 204 })],
    ['a body that is a bare string', http({ body: 'just text' })],
    ['a body of 64 levels', http({ body: nested(63) })],
    ['an error rule with a custom answer', http({ status: 200, body: { ok: false } }, 'error')],
    ...(['reset', 'empty', 'garbage', 'truncated'] as const).map(
      (kind) =>
        [`an http rule with a ${kind} fault`, doc({ on: 'http', effect: { fault: { kind } } })] as const,
    ),
    [
      'a slow body with a custom answer',
      doc({
        on: 'http',
        effect: { fault: { kind: 'slowBody', bytesPerSecond: 100 }, http: { status: 200, body: {} } },
      }),
    ],
    [
      'a truncated error answer with its status changed',
      doc({ on: 'error', effect: { fault: { kind: 'truncated' }, status: 200 } }),
    ],
    ['an error rule that resets', doc({ on: 'error', effect: { fault: { kind: 'reset' } } })],
    [
      'an error rule answering 599',
      doc({ on: 'error', match: { validation: false }, effect: { status: 599 } }),
    ],
  ] as [string, Doc][])('accepts %s', (_name, value) => {
    const result = scenario.safeParse(value);
    expect(result.error?.issues ?? []).toEqual([]);
    expect(result.success).toBe(true);
  });

  it('gives a rule without match an empty match', () => {
    const parsed = scenario.parse(doc({ match: undefined }));
    expect(parsed.rules[0]?.match).toEqual({});
  });
});

describe('scenario schema: invalid documents name the bad field', () => {
  it.each([
    ['no name', without('name'), 'name'],
    ['no description', without('description'), 'description'],
    ['no rules', without('rules'), 'rules'],
    ['an empty description', doc({}, { description: '' }), 'description'],
    ['a name with capitals', doc({}, { name: 'Happy-Path' }), 'name'],
    ['a name with a slash', doc({}, { name: 'a/b' }), 'name'],
    ['a name with ..', doc({}, { name: '..' }), 'name'],
    ['a name reaching up a folder', doc({}, { name: '../default' }), 'name'],
    ['an empty name', doc({}, { name: '' }), 'name'],
    ['an extends that is not a name', doc({}, { extends: '../x' }), 'extends'],
    ['a negative seed', doc({}, { seed: -1 }), 'seed'],
    ['rules that are not a list', doc({}, { rules: {} }), 'rules'],
    ['an unknown `on`', doc({ on: 'payout' }), 'rules.0.on'],
    ['a rule without effect', doc({ effect: undefined }), 'rules.0.effect'],
    ['an empty effect', doc({ effect: {} }), 'rules.0.effect'],
    [
      '`http` on a transfer rule',
      doc({ effect: { http: { status: 503, message: 'x' } } }),
      'rules.0.effect.http',
    ],
    ['`hold` on a transfer rule', doc({ effect: { hold: true } }), 'rules.0.effect.hold'],
    ['`webhook` on a transfer rule', doc({ effect: { webhook: 'drop' } }), 'rules.0.effect.webhook'],
    ['`hold` on a webhook rule', doc({ on: 'webhook', effect: { hold: true } }), 'rules.0.effect.hold'],
    ['`fail` on a webhook rule', doc({ on: 'webhook', effect: FAIL }), 'rules.0.effect.fail'],
    ['`fail` on an http rule', doc({ on: 'http', effect: FAIL }), 'rules.0.effect.fail'],
    [
      '`http` on a bulk.item rule',
      doc({ on: 'bulk.item', effect: { http: { status: 500, message: 'x' } } }),
      'rules.0.effect.http',
    ],
    ['hold: false', doc({ on: 'bulk.item', effect: { hold: false } }), 'rules.0.effect.hold'],
    [
      'an unknown webhook effect',
      doc({ on: 'webhook', effect: { webhook: 'lose' } }),
      'rules.0.effect.webhook',
    ],
    [
      'an http status below 200',
      doc({ on: 'http', effect: { http: { status: 199, message: 'x' } } }),
      'rules.0.effect.http.status',
    ],
    [
      'an http status above 599',
      doc({ on: 'http', effect: { http: { status: 600 } } }),
      'rules.0.effect.http.status',
    ],
    [
      'a fail without errorCode',
      doc({ effect: { fail: { errorMessage: 'x' } } }),
      'rules.0.effect.fail.errorCode',
    ],
    ['a negative delayMs', doc({ effect: { delayMs: -1 } }), 'rules.0.effect.delayMs'],
    ['a delayMs over a minute', doc({ effect: { delayMs: 60_001 } }), 'rules.0.effect.delayMs'],
    ['probability 1.5', doc({ match: { probability: 1.5 } }), 'rules.0.match.probability'],
    ['probability -0.1', doc({ match: { probability: -0.1 } }), 'rules.0.match.probability'],
    ['everyNth 0', doc({ match: { everyNth: 0 } }), 'rules.0.match.everyNth'],
    ['everyNth 1.5', doc({ match: { everyNth: 1.5 } }), 'rules.0.match.everyNth'],
    [
      'a 9-digit accountNumber',
      doc({ match: { accountNumber: '123456789' } }),
      'rules.0.match.accountNumber',
    ],
    [
      'an 11-digit accountNumber',
      doc({ match: { accountNumber: '01234567890' } }),
      'rules.0.match.accountNumber',
    ],
    ['a 4-digit bankCode', doc({ match: { bankCode: '0580' } }), 'rules.0.match.bankCode'],
    [
      'an invalid path regex',
      doc({ on: 'http', match: { path: '(' }, effect: { delayMs: 1 } }),
      'rules.0.match.path',
    ],
    [
      'an invalid accountNumberPattern',
      doc({ match: { accountNumberPattern: '[0-9' } }),
      'rules.0.match.accountNumberPattern',
    ],
    [
      'an unknown method',
      doc({ on: 'http', match: { method: 'TRACE' }, effect: { delayMs: 1 } }),
      'rules.0.match.method',
    ],
    ['a negative amount bound', doc({ match: { amount: { min: -1 } } }), 'rules.0.match.amount.min'],
    [
      'a fractional itemIndex bound',
      doc({ match: { itemIndex: { max: 1.5 } } }),
      'rules.0.match.itemIndex.max',
    ],
    [
      'drawBy reference on a webhook rule',
      doc({ on: 'webhook', match: { probability: 0.5, drawBy: 'reference' }, effect: { webhook: 'drop' } }),
      'rules.0.match.drawBy',
    ],
    [
      'drawBy reference on an http rule',
      doc({ on: 'http', match: { drawBy: 'reference' }, effect: { delayMs: 1 } }),
      'rules.0.match.drawBy',
    ],
    ['an unknown drawBy', doc({ match: { drawBy: 'requestId' } }), 'rules.0.match.drawBy'],
    ['`status` on a transfer rule', doc({ effect: { status: 200 } }), 'rules.0.effect.status'],
    ['`status` on an http rule', doc({ on: 'http', effect: { status: 422 } }), 'rules.0.effect.status'],
    ['`fail` on an error rule', doc({ on: 'error', effect: FAIL }), 'rules.0.effect.fail'],
    [
      '`delayMs` on an error rule',
      doc({ on: 'error', effect: { status: 200, delayMs: 1 } }),
      'rules.0.effect.delayMs',
    ],
    [
      '`http` and `status` together on an error rule',
      doc({ on: 'error', effect: { status: 200, http: { status: 503, message: 'x' } } }),
      'rules.0.effect.status',
    ],
    ...customAnswerRefusals,
    ...faultRefusals,
    ['an error status of 201', doc({ on: 'error', effect: { status: 201 } }), 'rules.0.effect.status'],
    ['an error status of 302', doc({ on: 'error', effect: { status: 302 } }), 'rules.0.effect.status'],
    ['an error status of 600', doc({ on: 'error', effect: { status: 600 } }), 'rules.0.effect.status'],
    ['an error status of 422.5', doc({ on: 'error', effect: { status: 422.5 } }), 'rules.0.effect.status'],
    [
      'a match status below 400',
      doc({ on: 'error', match: { status: { min: 399 } }, effect: { status: 200 } }),
      'rules.0.match.status.min',
    ],
    [
      'a match status above 599',
      doc({ on: 'error', match: { status: { max: 600 } }, effect: { status: 200 } }),
      'rules.0.match.status.max',
    ],
    [
      'validation that is not true or false',
      doc({ on: 'error', match: { validation: 'yes' }, effect: { status: 422 } }),
      'rules.0.match.validation',
    ],
    ['a match status on a transfer rule', doc({ match: { status: { min: 400 } } }), 'rules.0.match.status'],
    [
      'validation on an http rule',
      doc({ on: 'http', match: { validation: true }, effect: { delayMs: 1 } }),
      'rules.0.match.validation',
    ],
    ['times 0', doc({ times: 0 }), 'rules.0.times'],
    ['times 1.5', doc({ times: 1.5 }), 'rules.0.times'],
  ] as [string, Doc, string][])('refuses %s (%s)', (_name, value, path) => {
    const issues = issuesOf(value);
    expect(issues[0]?.path.join('.')).toBe(path);
  });

  it('refuses the second rule by its own index', () => {
    const value = doc();
    value.rules = [
      { on: 'transfer', effect: FAIL },
      { on: 'transfer', effect: FAIL, times: 0 },
    ];
    expect(issuesOf(value)[0]?.path.join('.')).toBe('rules.1.times');
  });

  it.each([
    ['at the top', { ...doc(), colour: 'red' }, '', 'colour'],
    ['in a rule', doc({ when: 'always' }), 'rules.0', 'when'],
    ['in a match', doc({ match: { account: '0123456789' } }), 'rules.0.match', 'account'],
    ['in an effect', doc({ effect: { ...FAIL, retry: true } }), 'rules.0.effect', 'retry'],
    ['in an amount range', doc({ match: { amount: { from: 1 } } }), 'rules.0.match.amount', 'from'],
    ['in a fail', doc({ effect: { fail: { ...FAIL.fail, extra: 1 } } }), 'rules.0.effect.fail', 'extra'],
    [
      'in a status range',
      doc({ on: 'error', match: { status: { min: 400, exact: 404 } }, effect: { status: 200 } }),
      'rules.0.match.status',
      'exact',
    ],
  ] as [string, Doc, string, string][])('refuses an unknown key %s (strict)', (_name, value, path, key) => {
    const issues = issuesOf(value);
    expect(issues[0]?.path.join('.')).toBe(path);
    expect(issues[0]?.code).toBe('unrecognized_keys');
    expect(issues[0]?.message).toContain(key);
  });
});

describe('parseScenario', () => {
  it('returns the parsed scenario of a valid document', () => {
    expect(parseScenario(doc(), 'inline')).toEqual({
      name: 'my-scenario',
      description: 'A scenario for the tests',
      rules: [{ on: 'transfer', match: {}, effect: FAIL }],
    });
  });

  it.each([
    ['an empty effect', doc({ effect: {} }), 'rules[0].effect'],
    ['everyNth 0', doc({ match: { everyNth: 0 } }), 'rules[0].match.everyNth'],
    ['a name with capitals', doc({}, { name: 'Loud' }), 'name'],
  ] as [string, Doc, string][])(
    'throws a ScenarioError naming the source and the field for %s',
    (_n, value, field) => {
      let caught: unknown;
      try {
        parseScenario(value, '/tmp/custom.json');
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ScenarioError);
      const message = caught instanceof Error ? caught.message : '';
      expect(message).toContain('/tmp/custom.json');
      expect(message).toContain(`${field}:`);
    },
  );

  it('names (root) when the document is not an object', () => {
    expect(() => parseScenario('nope', 'body')).toThrow(/scenario body: \(root\)/);
  });
});

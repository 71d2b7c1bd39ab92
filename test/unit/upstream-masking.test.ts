import { describe, expect, it } from 'vitest';
import { apiContracts } from '../../src/contract/api/index.js';
import {
  credentialValues,
  KEY_RUN,
  maskedText,
  recordedJson,
  recordedPathPattern,
  SHOWN_TEXT_LIMIT,
} from '../../src/domain/redact.js';
import { checkAnswer, fitsTemplate, MAX_FINDINGS } from '../../src/upstream/check.js';

// The drift check reads answers of any size and shape: what it shows of them is masked and bounded, and how long
// it takes grows with the answer's length alone (no pattern that backtracks, no recursion on the answer's depth).

const KEY = 'sk_live_0123456789abcdefghijklmnop';
/** A run of key-like characters as long as a key: 24 or more of `[A-Za-z0-9_-]`. */
const LONG_RUN = new RegExp(`[A-Za-z0-9_-]{${KEY_RUN},}`);

describe('maskedText', () => {
  it.each([
    ['Invalid key', 'Invalid key'],
    [`Invalid key ${KEY} given`, 'Invalid key ****mnop given'],
    // 23 key-like characters are not a key; 24 are.
    [`id ${'a'.repeat(23)}`, `id ${'a'.repeat(23)}`],
    [`id ${'a'.repeat(20)}wxyz`, 'id ****wxyz'],
    ['two\nlines\tand\u0000nul', 'two lines and nul'],
    ['', ''],
  ])('%j → %j', (text, shown) => {
    expect(maskedText(text)).toBe(shown);
  });

  it('cuts a long text to the limit, the mark included, and shows a cut text again as it is', () => {
    const shown = maskedText('word '.repeat(1000));
    expect(shown).toHaveLength(SHOWN_TEXT_LIMIT);
    expect(shown.endsWith('…')).toBe(true);
    expect(maskedText(shown)).toBe(shown);
    expect(maskedText('abc def', 5)).toBe('abc …');
  });

  it('never shows the first part of a key cut at the limit: the run is masked whole, then cut', () => {
    const shown = maskedText(`${'x '.repeat(98)}${KEY}`);
    expect(shown).not.toContain('sk_live');
    expect(shown).toHaveLength(SHOWN_TEXT_LIMIT);
  });

  it('does not cut a surrogate pair in two', () => {
    const shown = maskedText(`${'a '.repeat(99)}😀😀`, SHOWN_TEXT_LIMIT);
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.at(-2)).not.toMatch(/[\ud800-\udbff]/);
  });

  it('a 10 MB run of key-like characters is masked to its last 4 (a pattern overflowed the stack here)', () => {
    const run = `${'k'.repeat(10 * 1_048_576)}tail`;
    expect(maskedText(`Unknown key ${run}, try again`)).toBe('Unknown key ****tail, try again');
  });
});

describe('fitsTemplate', () => {
  it.each([
    [['Audit log not found'], 'Audit log not found', true],
    [['Audit log not found'], 'Audit log not found!', false],
    [['Customer ', ' not found'], 'Customer 42 not found', true],
    [['Customer ', ' not found'], 'Customer  not found', true],
    [['Customer ', ' not found'], 'Customer not found', false],
    [['a', 'b', 'c'], 'a-b-c', true],
    [['a', 'b', 'c'], 'a-c-b', false],
    // The fixed parts may not overlap: `ab` is not `a…b` with both parts read from one `a`… `b`.
    [['ab', 'bc'], 'abc', false],
    [['', ' is required'], 'amount is required', true],
  ])('%j fits %j: %s', (template, text, fits) => {
    expect(fitsTemplate(template, text)).toBe(fits);
  });

  it('matches a message of 10 MB against a template in one pass', () => {
    const text = `Customer ${'k'.repeat(10 * 1_048_576)} not found`;
    expect(fitsTemplate(['Customer ', ' not found'], text)).toBe(true);
    expect(fitsTemplate(['Customer ', ' not found', '!'], text)).toBe(false);
  });
});

describe('checkAnswer on answers of any size and shape', () => {
  const audit = apiContracts.find(
    (c) => c.method === 'get' && c.path === '/clients/business/audits/{auditId}',
  );
  if (!audit) throw new Error('the audit route is gone');

  it('a message of 10 MB of key-like characters: one finding, masked and cut', () => {
    const message = `Audit ${'k'.repeat(10 * 1_048_576)}z done`;
    for (const [status, body] of [
      [200, { status: true, message, data: null }],
      [404, { status: false, message, data: null }],
    ] as const) {
      const found = checkAnswer(audit, status, body, 'application/json').filter((f) => f.kind === 'message');
      expect(found).toHaveLength(1);
      expect(found[0]?.seen).toBe('Audit ****kkkz done');
    }
  });

  it('field names the answer makes up are masked and cut; at most MAX_FINDINGS findings, however many fields', () => {
    const data: Record<string, number> = {};
    for (let i = 0; i < 10_000; i++) data[`field${i}`] = i;
    data[`${KEY}${'x'.repeat(100_000)}`] = 1;
    const found = checkAnswer(audit, 200, { status: true, message: 'x', data }, 'application/json');
    expect(found.length).toBeLessThanOrEqual(MAX_FINDINGS + 1);
    const extra = found.filter((f) => f.kind === 'extra-field');
    expect(extra.length).toBeGreaterThan(0);
    for (const f of found) {
      expect(f.at.length).toBeLessThanOrEqual(80);
      expect(f.at).not.toMatch(LONG_RUN);
    }
  });

  it('an answer nested 100000 levels deep: checked as deep as the schema goes, without overflowing the stack', () => {
    const depth = 100_000;
    const deep = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;
    expect(
      checkAnswer(audit, 200, { status: true, message: 'x', data: deep }, 'application/json'),
    ).toContainEqual({
      kind: 'type',
      at: 'data',
      expected: 'object',
      seen: 'array',
    });
  });

  it('a list of 200000 items of the wrong type: one finding for the path they share', () => {
    const list = apiContracts.find((c) => c.method === 'get' && c.path === '/clients/business/audits');
    if (!list) throw new Error('the audit list route is gone');
    const items = new Array<number>(200_000).fill(1);
    const found = checkAnswer(
      list,
      200,
      { status: true, message: 'x', data: items, pagination: {} },
      'application/json',
    ).filter((f) => f.at === 'data[]');
    expect(found).toEqual([{ kind: 'type', at: 'data[]', expected: 'object', seen: 'integer' }]);
  });
});

describe('recordedJson: what a recording (--record) keeps of an answer', () => {
  const uuid = '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

  it('masks secret fields by name, a BVN or NIN, and every long key-like run, keys included; keeps uuids', () => {
    const answer = {
      status: true,
      message: `Token ${KEY} issued`,
      data: {
        id: uuid,
        accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
        password: 'hunter2hunter2',
        bvn: '22212345678',
        NIN: 12345678901,
        nested: [{ secretKey: KEY, note: `see ${KEY}` }],
        [KEY]: 'a key as a field name',
        phoneNo: '08012345678',
      },
    };
    expect(recordedJson(answer)).toEqual({
      status: true,
      message: 'Token ****mnop issued',
      data: {
        id: uuid,
        accessToken: '****dXJl',
        password: '****',
        bvn: '****5678',
        NIN: '****',
        nested: [{ secretKey: '****mnop', note: 'see ****mnop' }],
        '****mnop': 'a key as a field name',
        phoneNo: '08012345678',
      },
    });
  });

  it.each([
    ['transactionPin', '1234', '****'],
    ['PIN_CODE', 4321, '****'],
    ['OTPCode', '123456', '****'],
    ['apiKeyId', 'key_1234567890', '****7890'],
    ['user-passcode', 'open-sesame-please', '****'],
    ['sessionCookie', { sid: 'x' }, '****'],
    ['clientSecretHash', ['a', 'b'], '****'],
    ['refresh_token_v2', true, '****'],
    ['pinned', 'kept', 'kept'],
    ['keyword', 'kept', 'kept'],
    ['shippingAddress', '12 Marina', '12 Marina'],
    ['tokenized', 'kept', 'kept'],
    ['otpSentTo', null, null],
  ])('a field %s holding %j is recorded as %j', (name, value, shown) => {
    expect(recordedJson({ data: { [name]: value } })).toEqual({ data: { [name]: shown } });
  });

  it('masks the request’s own credentials wherever the answer repeats them, keys included', () => {
    const headers = new Headers({
      authorization: 'Bearer tok-abc123',
      SECRET_KEY: 'sk-live-1',
      'x-api-key': 'pk_live_9',
      'x-api-secret': 'shh!',
      cookie: 'sid=cookie-42',
      'AUTH-KEY': 'ak-7777',
      'x-other': 'other-value',
    });
    const credentials = credentialValues(headers);
    expect(credentials).toEqual(
      expect.arrayContaining([
        'Bearer tok-abc123',
        'tok-abc123',
        'sk-live-1',
        'pk_live_9',
        'shh!',
        'sid=cookie-42',
        'ak-7777',
      ]),
    );
    expect(credentials).not.toContain('other-value');
    const answer = {
      message: 'You sent Bearer tok-abc123 and sk-live-1',
      data: {
        echo: { headers: { auth: 'tok-abc123', api: 'pk_live_9 / shh!', c: 'sid=cookie-42', k: 'ak-7777' } },
      },
      'sk-live-1': 'as a field name',
    };
    expect(recordedJson(answer, credentials)).toEqual({
      message: 'You sent **** and ****',
      data: { echo: { headers: { auth: '****', api: '**** / ****', c: '****', k: '****' } } },
      '****': 'as a field name',
    });
  });

  it('looks for no credential shorter than 4 characters', () => {
    const credentials = credentialValues(new Headers({ 'x-api-secret': 'abc', authorization: 'Bearer xy' }));
    expect(credentials).toEqual(['Bearer xy']);
    expect(recordedJson({ note: 'abc xy' }, credentials)).toEqual({ note: 'abc xy' });
  });

  it('keeps a `__proto__` field of parsed JSON as a field', () => {
    const recorded = recordedJson(JSON.parse('{"__proto__": {"a": 1}}')) as Record<string, unknown>;
    expect(Object.hasOwn(recorded, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(recorded)).toBe(Object.prototype);
  });
});

describe('recordedPathPattern', () => {
  it.each([
    ['/api/v1/clients/business/account-details', '^/api/v1/clients/business/account-details$'],
    [
      `/api/v1/bulk-transfer/${'6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b'}`,
      '^/api/v1/bulk-transfer/6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b$',
    ],
    [`/api/v1/members/register/${KEY}`, '^/api/v1/members/register/[^/]+$'],
    ['/api/v1/a.b+(c)', '^/api/v1/a\\.b\\+\\(c\\)$'],
  ])('%s → %s', (path, pattern) => {
    expect(recordedPathPattern(path)).toBe(pattern);
    expect(new RegExp(pattern).test(path)).toBe(true);
  });
});

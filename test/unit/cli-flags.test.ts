import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { bodyFlags } from '../../src/cli/body-flags.js';
import { commands, run } from '../../src/cli/commands.js';
import type { SandboxHandle } from '../../src/client/handle.js';

// What the commands that send a body make of their flags, with no sandbox: the calls they make of the handle,
// and the one line of bad usage (exit 2) that a flag they cannot read gets, before any call.

/** What the handle's methods answer here: enough for each command's line. */
const ANSWERS: Record<string, unknown> = {
  incomingPayment: { transactionReference: 'T', deliveryId: 'D', deliveryStatus: 'skipped' },
  reverseTransfer: { retrievalReference: 'R', totalAmount: '1', reason: 'why' },
  refundPayment: { transactionReference: 'T', amount: '1', refundReference: 'F' },
  addSubscription: { id: 'S', packageName: 'P', amount: '1', interval: 'monthly' },
  accountNumbers: ['0000000001'],
  isolate: { id: 'i', apiUrl: 'http://x/api/v1', url: 'http://x' },
};

/** A handle that records each call, by its method's path (`clock.advance`), with its arguments as JSON. */
function recorder(calls: string[], path = ''): SandboxHandle {
  const target = () => undefined;
  return new Proxy(target, {
    get: (_, key) => recorder(calls, path === '' ? String(key) : `${path}.${String(key)}`),
    apply: (_, __, args: unknown[]) => {
      calls.push(`${path}(${args.map((a) => JSON.stringify(a)).join(', ')})`);
      return Promise.resolve(ANSWERS[path]);
    },
  }) as unknown as SandboxHandle;
}

/** The calls a command makes of the handle for `argv`, its flags read as the command line reads them. */
async function callsOf(argv: string[]): Promise<string[]> {
  const [name = '', ...args] = argv;
  const command = commands[name];
  if (!command) throw new Error(`no command ${name}`);
  const { values, positionals } = parseArgs({
    args,
    options: command.options,
    strict: true,
    allowPositionals: true,
  });
  const calls: string[] = [];
  await command.run(recorder(calls), values, positionals);
  return calls;
}

describe('a command that sends a body', () => {
  it.each([
    [
      ['pay', '--account', '0123456789', '--amount', '500'],
      'incomingPayment({"accountNumber":"0123456789","amount":500})',
    ],
    [
      [
        'pay',
        '--refund-mispaid',
        '--payer-name',
        'Ada',
        '--narration',
        'rent',
        '--amount',
        '07',
        '--account',
        '1',
      ],
      'incomingPayment({"accountNumber":"1","amount":7,"narration":"rent","accountName":"Ada","mispaid":"refund"})',
    ],
    [['pay', '--account', '', '--amount', '1'], 'incomingPayment({"accountNumber":"","amount":1})'],
    [['pay', '--account', '1', '--amount', '1e3'], 'incomingPayment({"accountNumber":"1","amount":1000})'],
    [['reverse', '--business', 'b', '--reference', 'r'], 'reverseTransfer("b", "r", {})'],
    [
      ['reverse', '--batch', 'x', '--reason', 'why', '--business', 'b', '--reference', 'r'],
      'reverseTransfer("b", "r", {"reason":"why","bulkTransferId":"x"})',
    ],
    [['refund', '--payment', 'p'], 'refundPayment("p", {})'],
    [['refund', '--payment', 'p', '--reason', ''], 'refundPayment("p", {"reason":""})'],
    [
      ['subscription', '--interval', 'monthly', '--amount', '0', '--package', 'Pro', '--business', 'b'],
      'addSubscription("b", {"packageName":"Pro","amount":0,"interval":"monthly"})',
    ],
    [['account-numbers', '--bank-code', '058'], 'accountNumbers("058", 1)'],
    [['account-numbers', '--bank-code', '', '--count', '100'], 'accountNumbers("", 100)'],
    [['drain'], 'drain({})'],
    [['drain', '--timeout', '5'], 'drain({"timeoutMs":5})'],
    [['reset'], 'reset({"keepRequests":false})'],
    [['reset', '--keep-requests'], 'reset({"keepRequests":true})'],
    [['sandboxes', 'create'], 'isolate({})'],
    [
      [
        'sandboxes',
        'create',
        '--clock',
        '2026-01-01T00:00:00Z',
        '--scenario',
        'flaky-bank',
        '--seed',
        '0',
        '--replace',
        '--id',
        'a',
      ],
      'isolate({"id":"a","replace":true,"seed":0,"scenario":"flaky-bank","clock":"2026-01-01T00:00:00Z"})',
    ],
  ])('%j sends %s', async (argv, call) => {
    expect(await callsOf(argv)).toEqual([call]);
  });
});

/** The command line run in this process with no sandbox to reach: bad usage fails before any call. */
async function usage(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { SANDBOX_URL: 'http://127.0.0.1:9' },
  });
  return { code, stdout, stderr };
}

describe('bad usage of a command that sends a body', () => {
  it.each([
    [['pay'], 'pay: --account N is required'],
    [['pay', '--amount', '5'], 'pay: --account N is required'],
    [['pay', '--account', '1'], 'pay: --amount must be a whole number of at least 1, not ""'],
    [
      ['pay', '--account', '1', '--amount', '0'],
      'pay: --amount must be a whole number of at least 1, not "0"',
    ],
    [
      ['pay', '--account', '1', '--amount', '1.5'],
      'pay: --amount must be a whole number of at least 1, not "1.5"',
    ],
    [
      ['pay', '--account', '1', '--amount', ' '],
      'pay: --amount must be a whole number of at least 1, not " "',
    ],
    [['pay', '--account'], "pay: Option '--account <value>' argument missing"],
    [['pay', '--refund-mispaid=yes'], "pay: Option '--refund-mispaid' does not take an argument"],
    [['reverse'], 'reverse: --business ID is required'],
    [['reverse', '--reference', 'r'], 'reverse: --business ID is required'],
    [['reverse', '--business', 'b'], 'reverse: --reference REF is required'],
    [['refund', '--reason', 'x'], 'refund: --payment REF is required'],
    [['subscription'], 'subscription: --business is required'],
    [['subscription', '--business', ' '], 'subscription: --business is required'],
    [['subscription', '--business', 'b'], 'subscription: --package is required'],
    [['subscription', '--business', 'b', '--package', ''], 'subscription: --package is required'],
    [
      ['subscription', '--business', 'b', '--package', 'p'],
      'subscription: --amount must be a whole number of at least 0, not ""',
    ],
    [
      ['subscription', '--business', 'b', '--package', 'p', '--amount=-1', '--interval', 'daily'],
      'subscription: --amount must be a whole number of at least 0, not "-1"',
    ],
    [
      ['subscription', '--business', 'b', '--package', 'p', '--amount', '1'],
      'subscription: --interval is required',
    ],
    [['account-numbers', '--count', '2'], 'account-numbers: --bank-code CODE is required'],
    [
      ['account-numbers', '--bank-code', '058', '--count', '0'],
      'account-numbers: --count must be a whole number from 1 to 100, not "0"',
    ],
    [
      ['account-numbers', '--bank-code', '058', '--count', '101'],
      'account-numbers: --count must be a whole number from 1 to 100, not "101"',
    ],
    [
      ['account-numbers', '--bank-code', '058', '--count', ''],
      'account-numbers: --count must be a whole number from 1 to 100, not ""',
    ],
    [['drain', '--timeout', '0'], 'drain: --timeout must be a whole number of at least 1, not "0"'],
    [['drain', '--timeout', 'soon'], 'drain: --timeout must be a whole number of at least 1, not "soon"'],
    [
      ['sandboxes', 'create', '--seed=-1'],
      'sandboxes: --seed must be a whole number of at least 0, not "-1"',
    ],
    [
      ['sandboxes', 'create', '--seed', 'x'],
      'sandboxes: --seed must be a whole number of at least 0, not "x"',
    ],
    [['sandboxes', '--seed', '1'], 'sandboxes: --seed goes with sandboxes create only'],
    [['sandboxes', 'delete', 'a', '--replace'], 'sandboxes: --replace goes with sandboxes create only'],
  ])('%j: exit 2, "%s"', async (argv, line) => {
    const name = argv[0];
    expect(await usage(argv)).toEqual({
      code: 2,
      stdout: '',
      stderr: `banking-sandbox ${line} (see banking-sandbox ${name} --help)\n`,
    });
  });
});

describe('bodyFlags', () => {
  const schema = z.object({
    bankCode: z.string(),
    count: z.coerce.number().int().default(1),
    amount: z.union([z.number(), z.string()]),
    frozen: z.boolean().optional(),
    mode: z.enum(['a', 'b']).optional(),
    note: z.string().optional(),
  });
  const flags = bodyFlags(schema, {
    'bank-code': {},
    count: { min: 1, max: 9 },
    sum: { field: 'amount' },
    frozen: {},
    'mode-b': { field: 'mode', sets: 'b' },
    note: {},
  });

  it('takes text for a text or number field, no value for a boolean field or a flag that sets one', () => {
    expect(flags.options).toEqual({
      'bank-code': { type: 'string' },
      count: { type: 'string' },
      sum: { type: 'string' },
      frozen: { type: 'boolean' },
      'mode-b': { type: 'boolean' },
      note: { type: 'string' },
    });
  });

  it('fills each field in the flags’ order, a number (or its digits) read as a whole number, absent ones left out', () => {
    const body = flags.read({ note: 'n', 'mode-b': true, frozen: true, sum: '12', 'bank-code': '058' });
    expect(JSON.stringify(body)).toBe('{"bankCode":"058","amount":12,"frozen":true,"mode":"b","note":"n"}');
    expect(flags.read({ 'bank-code': '', sum: '0', count: '9' })).toEqual({
      bankCode: '',
      count: 9,
      amount: 0,
    });
  });

  it('refuses a field the schema requires that is not given, and a number out of its bounds, naming the flag', () => {
    expect(() => flags.read({ sum: '1' })).toThrow('--bank-code is required');
    expect(() => flags.read({ 'bank-code': '1' })).toThrow(
      '--sum must be a whole number of at least 0, not ""',
    );
    expect(() => flags.read({ 'bank-code': '1', sum: '1', count: '10' })).toThrow(
      '--count must be a whole number from 1 to 9, not "10"',
    );
  });

  it('reads the schema a contract builds on first use as the schema itself, once, when its flags are first read', () => {
    let builds = 0;
    const built = bodyFlags(
      () => {
        builds += 1;
        return schema;
      },
      { 'bank-code': {}, sum: { field: 'amount' }, frozen: {} },
    );
    // A command table that is loaded to serve builds none of its bodies' schemas.
    expect(builds).toBe(0);
    expect(built.options).toEqual({
      'bank-code': { type: 'string' },
      sum: { type: 'string' },
      frozen: { type: 'boolean' },
    });
    expect(built.read({ sum: '3', 'bank-code': 'x' })).toEqual({ bankCode: 'x', amount: 3 });
    expect(builds).toBe(1);
  });

  it('refuses a flag whose field the body does not have, in types and when its flags are first read', () => {
    // @ts-expect-error: `why` is no field of the body, and names none
    const bad = bodyFlags(schema, { why: {} });
    expect(() => bad.options).toThrow('--why: the body has no field why');
    expect(() => bad.read({})).toThrow('--why: the body has no field why');
  });

  it('gives every command of the table flags that name fields of its body', () => {
    for (const [name, command] of Object.entries(commands)) {
      const options = command.options;
      expect(typeof options, name).toBe('object');
      for (const option of Object.values(options)) expect(['string', 'boolean']).toContain(option.type);
    }
  });
});

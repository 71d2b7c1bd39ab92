import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNuban } from '../../../src/domain/nuban.js';
import { isPrivateHost, WARNING_HEADER } from '../../../src/domain/stricter-in-production.js';
import { type RunningSandbox, startSandbox } from '../../../src/sandbox.js';
import { A, call, ownerHeaders, schemeB, useSandbox } from '../../support/sandbox.js';

// Where the sandbox accepts what production refuses, it answers as asked and says so: one `x-sandbox-warning` header
// per warning, and the same texts on the request's journal entry.

const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const BULK = '/api/v1/clients/business/customers/funds/bulk-transfer';
const PAYOUTS = '/api/v1/clients/business/payouts';
const WEBHOOK = '/api/v1/clients/settings/update-webhook-url';

/** A NUBAN that is right for GTBank (058), and the same with its check digit off by one. */
const GOOD = makeNuban('058', '012345678');
const BAD = `${GOOD.slice(0, 9)}${(Number(GOOD[9]) + 1) % 10}`;

const sandbox = useSandbox();
let owner: Record<string, string>;
beforeAll(async () => {
  owner = await ownerHeaders(sandbox);
});

const warningsOf = (headers: Headers) => headers.get(WARNING_HEADER)?.split(', ') ?? [];

/** The journal entry of the request with this id. */
async function journalEntry(requestId: string) {
  const res = await call(sandbox, 'GET', '/__sandbox/requests?limit=50');
  const entries = res.body.data as { requestId: string; warnings: string[] }[];
  return entries.find((e) => e.requestId === requestId);
}

/** Calls with a request id of its own, and answers the warnings of the header and of the journal entry. */
async function warned(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Record<string, unknown>,
) {
  const requestId = `warn-${Math.random().toString(36).slice(2)}`;
  const res = await call(sandbox, method, path, { headers: { ...headers, 'x-request-id': requestId }, body });
  const entry = await journalEntry(requestId);
  return { status: res.status, header: warningsOf(res.headers), journal: entry?.warnings };
}

const transfer = (receiverAccountNumber: string, ref: string) => ({
  amount: 1000,
  receiverAccountNumber,
  receiverBankCode: '058',
  retrievalReference: ref,
  narration: 'warning test',
});

describe('x-sandbox-warning', () => {
  it('a plain http webhook URL on localhost: production accepts only https, and only a public host', async () => {
    const got = await warned('PATCH', WEBHOOK, owner, { webhookUrl: 'http://localhost:3000/hooks' });
    expect(got.status).toBe(200);
    expect(got.header).toEqual([
      'webhookUrl is plain http: production accepts only https URLs',
      'webhookUrl host localhost is not publicly reachable: production accepts only a public host',
    ]);
    expect(got.journal).toEqual(got.header);
  });

  it.each([
    'https://192.168.1.20/hooks',
    'https://10.0.0.5/hooks',
    'https://172.20.1.1/hooks',
    'https://169.254.10.10/hooks',
    'https://receiver.local/hooks',
    'https://app/hooks',
  ])('a private https host (%s): production accepts only a public host', async (webhookUrl) => {
    const got = await warned('PATCH', WEBHOOK, owner, { webhookUrl });
    expect(got.status).toBe(200);
    const host = new URL(webhookUrl).hostname;
    expect(got.header).toEqual([
      `webhookUrl host ${host} is not publicly reachable: production accepts only a public host`,
    ]);
    expect(got.journal).toEqual(got.header);
  });

  it('a client created through the control API with an http webhook URL', async () => {
    const got = await warned('POST', '/__sandbox/clients', {}, { webhookUrl: 'http://receiver:3000/hooks' });
    expect(got.status).toBe(201);
    expect(got.header).toHaveLength(2);
    expect(got.header[0]).toBe('webhookUrl is plain http: production accepts only https URLs');
    expect(got.journal).toEqual(got.header);
  });

  it('a transfer to an account whose check digit is wrong for its bank', async () => {
    const got = await warned('POST', TRANSFER, owner, transfer(BAD, 'warn-bad-1'));
    expect(got.status).toBe(200);
    expect(got.header).toEqual([
      `receiverAccountNumber ${BAD} fails the NUBAN check digit for bank 058: production would not find this account and the transfer would fail`,
    ]);
    expect(got.journal).toEqual(got.header);
  });

  it('a bulk transfer: one warning for the batch, naming the first bad item', async () => {
    const keys = schemeB(A.publicKey, A.secretKey, A.a1.id);
    const got = await warned('POST', BULK, keys, {
      batchName: 'warnings',
      transfers: [transfer(GOOD, 'b-1'), transfer(BAD, 'b-2'), transfer(BAD, 'b-3')],
    });
    expect(got.status).toBe(201);
    expect(got.header).toEqual([
      `2 of 3 transfers have a receiverAccountNumber that fails the NUBAN check digit for its bank (first transfers[1] (${BAD} at bank 058)): production would fail those items`,
    ]);
    expect(got.journal).toEqual(got.header);
  });

  it('a payout account whose check digit is wrong for its bank', async () => {
    const got = await warned('POST', PAYOUTS, owner, {
      accountName: 'Warned Ltd',
      accountNumber: BAD,
      bankName: 'Guaranty Trust Bank',
      bankCode: '058',
    });
    expect(got.status).toBe(201);
    expect(got.header).toEqual([
      `accountNumber ${BAD} fails the NUBAN check digit for bank 058: production would refuse this payout account (no such account)`,
    ]);
    expect(got.journal).toEqual(got.header);
  });

  it('no warning on requests production accepts', async () => {
    const cases = [
      await warned('PATCH', WEBHOOK, owner, { webhookUrl: 'https://hooks.example.com/bank' }),
      await warned('POST', TRANSFER, owner, transfer(GOOD, 'warn-good-1')),
    ];
    for (const got of cases) {
      expect(got.status).toBe(200);
      expect(got.header).toEqual([]);
      expect(got.journal).toEqual([]);
    }
  });
});

describe('x-sandbox-warning on a real server', () => {
  let running: RunningSandbox;
  beforeAll(async () => {
    running = await startSandbox({ inMemory: true, port: 0, quiet: true, log: () => undefined });
  });
  afterAll(() => running.close());

  it("one header line per warning, set on Node's response", async () => {
    const res = await fetch(`${running.url}/__sandbox/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhookUrl: 'http://localhost:9/hooks' }),
    });
    await res.text();
    expect(res.status).toBe(201);
    expect(warningsOf(res.headers)).toHaveLength(2);
  });
});

describe('isPrivateHost', () => {
  it.each([
    ['localhost', true],
    ['api.localhost', true],
    ['127.0.0.1', true],
    ['[::1]', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.0.10', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['[fe80::1]', true],
    ['[fd12:3456::1]', true],
    ['printer.local', true],
    ['host.docker.internal', true],
    ['app', true],
    ['hooks.example.com', false],
    ['8.8.8.8', false],
    ['[2001:db8::1]', false],
  ])('%s → %s', (host, expected) => {
    expect(isPrivateHost(host)).toBe(expected);
  });
});

// `GET /__sandbox/account-numbers`: receivers an app under test can send transfers to, each passing the NUBAN check
// digit for its bank. The handle's `accountNumbers()` goes through the same route.

import { describe, expect, it } from 'vitest';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import { accountNumbers } from '../../../src/contract/control/account-numbers.js';
import { controlErrorEnvelope } from '../../../src/contract/wire.js';
import { isValidNuban } from '../../../src/domain/nuban.js';
import { ControlApiError } from '../../../src/errors.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { bodyOf, dataOf } from '../../support/answers.js';
import { closedAfterEachTest } from '../../support/cleanups.js';
import { call, ownerHeaders } from '../../support/sandbox.js';

const { open } = closedAfterEachTest();
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';

const get = (sandbox: Sandbox, query: string) => call(sandbox, 'GET', `/__sandbox/account-numbers${query}`);

describe('GET /__sandbox/account-numbers', () => {
  it('answers count numbers valid for the bank, with its name; 1 by default', async () => {
    const sandbox = await open();
    const res = await get(sandbox, '?bankCode=058&count=3');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Account numbers');
    const data = dataOf(res, accountNumbers);
    expect(data).toMatchObject({ bankCode: '058', bankName: 'Guaranty Trust Bank' });
    expect(data.accountNumbers).toHaveLength(3);
    expect(new Set(data.accountNumbers).size).toBe(3);
    for (const n of data.accountNumbers) expect(isValidNuban('058', n)).toBe(true);
    const one = dataOf(await get(sandbox, '?bankCode=058'), accountNumbers);
    expect(one.accountNumbers).toEqual(data.accountNumbers.slice(0, 1));
  });

  it('a 6-digit code of the list too, and the largest count', async () => {
    const sandbox = await open();
    const code = banks.banks.find((b) => b.code.length === 6)?.code ?? '';
    const data = dataOf(await get(sandbox, `?bankCode=${code}&count=100`), accountNumbers);
    expect(data.accountNumbers).toHaveLength(100);
    for (const n of data.accountNumbers) expect(isValidNuban(code, n)).toBe(true);
  });

  it('is deterministic: the same numbers in another sandbox of another seed, and in an isolated one', async () => {
    const root = await open();
    const other = await open({ seed: 99 });
    const isolated = await root.isolate();
    const [a, b, c] = await Promise.all(
      [root, other, isolated].map(async (s) => dataOf(await get(s, '?bankCode=044&count=5'), accountNumbers)),
    );
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  it('a transfer to one goes through, with no x-sandbox-warning (its check digit is right)', async () => {
    const sandbox = await open();
    const isolated = await sandbox.isolate();
    for (const s of [sandbox, isolated]) {
      const [receiver] = await s.accountNumbers('058');
      const res = await call(s, 'POST', TRANSFER, {
        headers: await ownerHeaders(s),
        body: {
          amount: 100_000,
          receiverAccountNumber: receiver,
          receiverBankCode: '058',
          retrievalReference: `acct-${receiver}`,
          narration: 'To a made-up receiver',
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get('x-sandbox-warning')).toBeNull();
    }
  });

  it.each([
    ['no bankCode', '', 'bankCode'],
    ['a bank code of 2 digits', '?bankCode=58', 'bankCode is invalid: must be a 3- or 6-digit bank code'],
    ['a bank code with letters', '?bankCode=05a', 'bankCode is invalid: must be a 3- or 6-digit bank code'],
    ['count 0', '?bankCode=058&count=0', 'count'],
    ['count 101', '?bankCode=058&count=101', 'count'],
    ['count 1.5', '?bankCode=058&count=1.5', 'count'],
    ['count not a number', '?bankCode=058&count=many', 'count'],
  ])('400 for %s, naming the field', async (_, query, said) => {
    const sandbox = await open();
    const res = await get(sandbox, query);
    expect(res.status).toBe(400);
    const envelope = bodyOf(res, controlErrorEnvelope);
    expect(envelope).toMatchObject({ status: false, data: null });
    expect(envelope.message).toContain(said);
  });

  it('400 Invalid bank code for a well-formed code the sandbox does not list, in an isolated sandbox too', async () => {
    const root = await open();
    const isolated = await root.isolate();
    for (const sandbox of [root, isolated]) {
      const res = await get(sandbox, '?bankCode=999&count=2');
      expect(res.status).toBe(400);
      const message = 'Invalid bank code: "999" is not in this sandbox’s bank list';
      expect(bodyOf(res, controlErrorEnvelope)).toMatchObject({
        status: false,
        message,
        data: null,
        errors: [{ field: 'bankCode', message }],
      });
      const refused = await sandbox.accountNumbers('999').catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ControlApiError);
      expect(refused).toMatchObject({ status: 400, message });
    }
  });

  it("the handle: accountNumbers(bankCode, count) answers the route's numbers", async () => {
    const sandbox = await open();
    const numbers = await sandbox.accountNumbers('011', 4);
    expect(numbers).toEqual(
      dataOf(await get(sandbox, '?bankCode=011&count=4'), accountNumbers).accountNumbers,
    );
    await expect(sandbox.accountNumbers('011', 0)).rejects.toMatchObject({ status: 400 });
  });
});

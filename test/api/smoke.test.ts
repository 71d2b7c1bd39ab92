import { describe, expect, it } from 'vitest';
import { A, call, memorySandbox, schemeA, tokenFor } from '../support/sandbox.js';

describe('smoke', () => {
  it('signs in and reads account details', async () => {
    const sandbox = await memorySandbox();
    const token = await tokenFor(sandbox, A.owner);
    const res = await call(sandbox, 'GET', '/api/v1/clients/business/account-details', {
      headers: schemeA(token, A.secretKey, A.a1.id),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ accountNumber: A.a1.accountNumber, accountBalance: '500000000' });
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { auditEntry } from '../../../src/contract/api/audits.js';
import { subscription } from '../../../src/contract/api/subscriptions.js';
import { pageOf } from '../../support/answers.js';
import { A, B, call, ownerHeaders, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';

// The list's filters and pages, and plans added through the control API: control/money.test.ts. Which credentials
// the create refuses, with what status and message: route-auth.test.ts, for every route.

const SUBSCRIPTIONS = '/api/v1/clients/business/subscriptions';

describe('create a subscription', () => {
  const sandbox = useSandbox();
  let owner: Record<string, string>;
  beforeAll(async () => {
    owner = await ownerHeaders(sandbox);
  });
  const create = (body: Record<string, unknown>, headers = owner) =>
    call(sandbox, 'POST', SUBSCRIPTIONS, { headers, body });
  const plans = async (headers = owner, query = '?limit=100') =>
    pageOf(await call(sandbox, 'GET', `${SUBSCRIPTIONS}${query}`, { headers }), subscription).data;

  it("answers the docs' example 201 with the docs' message and no data; the plan is listed for the header's business with its clientId", async () => {
    const before = await plans();
    const res = await create({ amount: '500000', packageName: 'Gold Plan', interval: 'monthly' });
    expect(res.status).toBe(201);
    expect(res.body).toStrictEqual({ status: true, message: 'Subscription created successfully' });
    const after = await plans();
    expect(after).toHaveLength(before.length + 1);
    expect(after.find((p) => p.packageName === 'Gold Plan')).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      packageName: 'Gold Plan',
      amount: '500000',
      interval: 'monthly',
      businessId: A.a1.id,
      clientId: A.id,
    });
  });

  it('takes the amount as a JSON integer too, and lists it as a string', async () => {
    expect((await create({ amount: 120000, packageName: 'Integer Plan', interval: 'weekly' })).status).toBe(
      201,
    );
    expect((await plans()).find((p) => p.packageName === 'Integer Plan')?.amount).toBe('120000');
  });

  it('takes any interval (the docs’ values are examples), and a plan with the amount alone', async () => {
    expect(
      (await create({ amount: '100', packageName: 'Quarterly', interval: 'every 3 months' })).status,
    ).toBe(201);
    expect((await plans(owner, '?interval=every%203%20months')).map((p) => p.packageName)).toEqual([
      'Quarterly',
    ]);
    const before = await plans();
    expect((await create({ amount: '700' })).status).toBe(201);
    const added = (await plans()).filter((p) => !before.some((b) => b.id === p.id));
    expect(added).toEqual([expect.objectContaining({ amount: '700', packageName: '', interval: '' })]);
  });

  it('adds the plan to the business the header names, not to its client’s others', async () => {
    const onA2 = { ...owner, businessId: A.a2.id };
    expect((await create({ amount: '999', packageName: 'A2 Plan' }, onA2)).status).toBe(201);
    expect((await plans(onA2)).map((p) => [p.packageName, p.businessId])).toEqual([['A2 Plan', A.a2.id]]);
    expect((await plans()).some((p) => p.packageName === 'A2 Plan')).toBe(false);
    const ofB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    expect((await plans(ofB)).some((p) => p.packageName === 'A2 Plan')).toBe(false);
  });

  it.each([
    ['no amount', { packageName: 'Free' }, 'amount', 'amount is required'],
    ['a negative amount', { amount: -1 }, 'amount', 'amount is invalid: must be at least 0 kobo'],
    ['a fractional amount', { amount: 1.5 }, 'amount', 'amount is invalid: must be a whole number of kobo'],
    [
      'an amount of letters',
      { amount: 'ten' },
      'amount',
      'amount is invalid: must be a whole number of kobo: a JSON integer or a string of digits',
    ],
    [
      'an empty packageName',
      { amount: 1, packageName: '' },
      'packageName',
      'packageName is invalid: must not be empty',
    ],
    ['an interval as a number', { amount: 1, interval: 30 }, 'interval', 'interval is invalid: must be text'],
  ])('answers 400 to %s, naming the field, and adds nothing', async (_label, body, field, message) => {
    const before = await plans();
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message, data: null });
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await plans()).toEqual(before);
  });

  it("answers 401 Invalid businessId to another client's business, and adds nothing there", async () => {
    const ofB = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    const before = await plans(ofB);
    const res = await create({ amount: '1' }, { ...owner, businessId: B.b1.id });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: false, message: 'Invalid businessId', data: null });
    expect(await plans(ofB)).toEqual(before);
  });

  it('is refused to the Viewer (403) and allowed to the Manager, and writes a create entry to the audit log', async () => {
    const viewer = schemeA(await tokenFor(sandbox, A.viewer), A.secretKey, A.a1.id);
    expect((await create({ amount: '1' }, viewer)).status).toBe(403);
    const manager = schemeA(await tokenFor(sandbox, A.manager), A.secretKey, A.a1.id);
    expect((await create({ amount: '2', packageName: 'Manager Plan' }, manager)).status).toBe(201);
    const audits = await call(sandbox, 'GET', '/api/v1/clients/business/audits?type=subscription', {
      headers: owner,
    });
    expect(pageOf(audits, auditEntry).data[0]).toMatchObject({
      action: 'create',
      type: 'subscription',
      email: A.manager.email,
      role: 'Manager',
    });
  });
});

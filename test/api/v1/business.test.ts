import { beforeAll, describe, expect, it } from 'vitest';
import states from '../../../fixtures/states.json' with { type: 'json' };
import { business, createdBusiness, customer } from '../../../src/contract/api/business.js';
import { errorEnvelope } from '../../../src/contract/wire.js';
import { bodyOf, dataOf, pageOf } from '../../support/answers.js';
import { onePage, pageAt } from '../../support/pagination.js';
import { A, B, call, ownerHeaders, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';

const DETAILS = '/api/v1/clients/business/account-details';
const BUSINESS_DETAILS = '/api/v1/clients/business/details';
const BUSINESSES = '/api/v1/clients/business';
const CUSTOMERS = '/api/v1/clients/business/customers';
const NO_ACCOUNT = 'No payment account for this business';
/** The spec's Business fields, exactly. */
const BUSINESS_FIELDS = [
  'businessDocumentsUrls',
  'businessName',
  'bvn',
  'clientId',
  'id',
  'isApproved',
  'photoIdUrl',
  'residentialAddress',
  'state',
  'stateId',
].sort();

describe('account details', () => {
  const sandbox = useSandbox();
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(sandbox, A.owner);
  });

  it('returns exactly the spec fields, the balance as a kobo string', async () => {
    const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(token, A.secretKey, A.a1.id) });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.data).toEqual({
      accountNumber: A.a1.accountNumber,
      accountType: A.a1.accountType,
      customerId: A.a1.customerId,
      businessId: A.a1.id,
      accountBalance: '500000000',
    });
  });

  it("returns B's own account to B", async () => {
    const tokenB = await tokenFor(sandbox, B.owner);
    const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(tokenB, B.secretKey, B.b1.id) });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      accountNumber: B.b1.accountNumber,
      accountType: B.b1.accountType,
      customerId: B.b1.customerId,
      businessId: B.b1.id,
      accountBalance: '250000000',
    });
  });

  it('answers 400 for a business that is not approved', async () => {
    const res = await call(sandbox, 'GET', DETAILS, { headers: schemeA(token, A.secretKey, A.a2.id) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, message: NO_ACCOUNT, data: null });
  });
});

describe('list businesses', () => {
  const sandbox = useSandbox();

  it("lists A's two businesses, never B's, with the exact pagination object", async () => {
    const token = await tokenFor(sandbox, A.owner);
    const res = await call(sandbox, 'GET', BUSINESSES, { headers: schemeA(token, A.secretKey, A.a1.id) });
    expect(res.status).toBe(200);
    const { data, pagination } = pageOf(res, business);
    expect(data.map((b) => b.id).sort()).toEqual([A.a1.id, A.a2.id].sort());
    expect(data.every((b) => b.clientId === A.id)).toBe(true);
    expect(JSON.stringify(data)).not.toContain(B.b1.id);
    expect(pagination).toEqual(onePage(2, 10));
  });

  it('lists the same whatever businessId header is sent', async () => {
    const token = await tokenFor(sandbox, A.owner);
    const res = await call(sandbox, 'GET', BUSINESSES, { headers: schemeA(token, A.secretKey, A.a2.id) });
    expect(res.status).toBe(200);
    expect(
      pageOf(res, business)
        .data.map((b) => b.id)
        .sort(),
    ).toEqual([A.a1.id, A.a2.id].sort());
  });

  it("lists only B's business to B", async () => {
    const token = await tokenFor(sandbox, B.owner);
    const res = await call(sandbox, 'GET', BUSINESSES, { headers: schemeA(token, B.secretKey, B.b1.id) });
    expect(res.status).toBe(200);
    const { data, pagination } = pageOf(res, business);
    expect(data.map((b) => b.id)).toEqual([B.b1.id]);
    expect(pagination.totalCount).toBe(1);
  });

  it('pages with limit=1', async () => {
    const token = await tokenFor(sandbox, A.owner);
    const first = await call(sandbox, 'GET', `${BUSINESSES}?page=1&limit=1`, {
      headers: schemeA(token, A.secretKey, A.a1.id),
    });
    const second = await call(sandbox, 'GET', `${BUSINESSES}?page=2&limit=1`, {
      headers: schemeA(token, A.secretKey, A.a1.id),
    });
    const p1 = pageOf(first, business);
    const p2 = pageOf(second, business);
    expect(p1.data).toHaveLength(1);
    expect(p2.data).toHaveLength(1);
    expect(p1.data[0]?.id).not.toBe(p2.data[0]?.id);
    expect(p1.pagination).toEqual(pageAt(1, { totalCount: 2, limit: 1, lastPage: 2 }));
    expect(p2.pagination).toEqual(pageAt(2, { totalCount: 2, limit: 1, lastPage: 2 }));
  });
});

describe('list customers', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = await ownerHeaders(sandbox);
  });

  const list = (query: string) => call(sandbox, 'GET', `${CUSTOMERS}${query}`, { headers });

  it('defaults to page 1, limit 10', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    const { data, pagination } = pageOf(res, customer);
    expect(data).toHaveLength(10);
    expect(pagination).toEqual(pageAt(1, { totalCount: 30, limit: 10, lastPage: 3 }));
  });

  it('gives customers with exactly the spec fields', async () => {
    const { data } = pageOf(await list('?limit=100'), customer);
    expect(data).toHaveLength(30);
    for (const c of data) {
      expect(Object.keys(c).sort()).toEqual(['dateCreated', 'email', 'id', 'name', 'nuban', 'phoneNo']);
      for (const value of Object.values(c)) expect(typeof value).toBe('string');
      expect(new Date(c.dateCreated).toISOString()).toBe(c.dateCreated);
      expect(c.nuban).toMatch(/^\d{10}$/);
      expect(c.name).not.toBe('');
    }
    expect(new Set(data.map((c) => c.id)).size).toBe(30);
  });

  it('page=1&limit=10 gives the first 10 and points to page 2', async () => {
    const res = await list('?page=1&limit=10');
    const { data, pagination } = pageOf(res, customer);
    expect(data).toHaveLength(10);
    expect(pagination).toMatchObject({
      totalCount: 30,
      hasNextPage: true,
      nextPage: 2,
      lastPage: 3,
      limit: 10,
    });
  });

  it('page=3 is the last page', async () => {
    const { data, pagination } = pageOf(await list('?page=3&limit=10'), customer);
    expect(data).toHaveLength(10);
    expect(pagination).toEqual(pageAt(3, { totalCount: 30, limit: 10, lastPage: 3 }));
  });

  it('the three pages are disjoint and together equal the whole list, in order', async () => {
    const all = pageOf(await list('?limit=100'), customer).data.map((c) => c.id);
    const paged: string[] = [];
    for (let page = 1; page <= 3; page++) {
      paged.push(...pageOf(await list(`?page=${page}&limit=10`), customer).data.map((c) => c.id));
    }
    expect(paged).toEqual(all);
  });

  it('a page past the end is empty but still counts', async () => {
    const res = await list('?page=4&limit=10');
    expect(res.status).toBe(200);
    const { data, pagination } = pageOf(res, customer);
    expect(data).toEqual([]);
    expect(pagination).toMatchObject({ totalCount: 30, hasNextPage: false, nextPage: 0, lastPage: 3 });
  });

  it('limit=100 is allowed', async () => {
    const res = await list('?limit=100');
    expect(res.status).toBe(200);
    const { data, pagination } = pageOf(res, customer);
    expect(data).toHaveLength(30);
    expect(pagination).toEqual(onePage(30, 100));
  });

  it('limit=7 rounds lastPage up', async () => {
    const { data, pagination } = pageOf(await list('?page=5&limit=7'), customer);
    expect(data).toHaveLength(2);
    expect(pagination).toMatchObject({ lastPage: 5, hasNextPage: false, previousPage: 4 });
  });

  // Neither the spec nor the docs give a maximum: a limit over 100 is a page of everything there is.
  it.each([101, 1000])('limit=%i is allowed: one page of all 30', async (limit) => {
    const res = await list(`?limit=${limit}`);
    expect(res.status).toBe(200);
    const { data, pagination } = pageOf(res, customer);
    expect(data).toHaveLength(30);
    expect(pagination).toEqual(onePage(30, limit));
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'page=1.5', 'limit=0', 'limit=1.5', 'limit=-5', 'limit=abc'])(
    'answers 400 to %s',
    async (query) => {
      const res = await list(`?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.status).toBe(false);
      expect(res.body.data).toBeNull();
      const field = query.split('=')[0];
      expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    },
  );

  it('a business with no customers gives an empty first page', async () => {
    const res = await call(sandbox, 'GET', CUSTOMERS, {
      headers: { ...headers, businessId: A.a2.id },
    });
    expect(res.status).toBe(200);
    const { data, pagination } = pageOf(res, customer);
    expect(data).toEqual([]);
    expect(pagination).toEqual(onePage(0, 10));
  });

  it("B's business gives B's customers only", async () => {
    const tokenB = await tokenFor(sandbox, B.owner);
    const res = await call(sandbox, 'GET', `${CUSTOMERS}?limit=100`, {
      headers: schemeA(tokenB, B.secretKey, B.b1.id),
    });
    const bIds = pageOf(res, customer).data.map((c) => c.id);
    expect(bIds).toHaveLength(5);
    const aIds = pageOf(await list('?limit=100'), customer).data.map((c) => c.id);
    expect(bIds.filter((id) => aIds.includes(id))).toEqual([]);
  });
});

describe('business details', () => {
  const sandbox = useSandbox();
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(sandbox, A.owner);
  });

  const details = (businessId: string, t = token, secretKey = A.secretKey) =>
    call(sandbox, 'GET', BUSINESS_DETAILS, { headers: schemeA(t, secretKey, businessId) });

  it("answers the businessId's business with exactly the spec Business fields", async () => {
    const res = await details(A.a1.id);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toBe('Business details retrieved successfully');
    const data = dataOf(res, business);
    expect(Object.keys(data).sort()).toEqual(BUSINESS_FIELDS);
    const lagos = states.find((s) => s.id === A.a1.stateId);
    expect(lagos?.name).toBe('Lagos');
    expect(data).toMatchObject({
      id: A.a1.id,
      businessName: A.a1.businessName,
      bvn: A.a1.bvn,
      isApproved: true,
      residentialAddress: A.a1.residentialAddress,
      stateId: 'state_24',
      state: { id: 'state_24', name: 'Lagos' },
      clientId: A.id,
    });
    expect(typeof data.photoIdUrl).toBe('string');
    expect(Array.isArray(data.businessDocumentsUrls)).toBe(true);
  });

  it('answers A2 for A2: each businessId its own business', async () => {
    const a1 = dataOf(await details(A.a1.id), business);
    const res = await details(A.a2.id);
    expect(res.status).toBe(200);
    const a2 = dataOf(res, business);
    expect(a2).toMatchObject({
      id: A.a2.id,
      businessName: A.a2.businessName,
      isApproved: false,
      stateId: '',
      state: null,
      clientId: A.id,
    });
    expect(a2).not.toEqual(a1);
  });

  it('is the same record the business list shows', async () => {
    const listed = pageOf(
      await call(sandbox, 'GET', BUSINESSES, { headers: schemeA(token, A.secretKey, A.a1.id) }),
      business,
    ).data;
    for (const id of [A.a1.id, A.a2.id]) {
      expect(dataOf(await details(id), business)).toEqual(listed.find((b) => b.id === id));
    }
  });

  it("answers B's business to B, and 401 Invalid businessId to A naming B1", async () => {
    const tokenB = await tokenFor(sandbox, B.owner);
    const own = await details(B.b1.id, tokenB, B.secretKey);
    expect(own.status).toBe(200);
    expect(dataOf(own, business)).toMatchObject({ id: B.b1.id, clientId: B.id, stateId: 'state_18' });

    const res = await details(B.b1.id);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: false, message: 'Invalid businessId', data: null });
  });

  it('answers 401 businessId is required without the header', async () => {
    const res = await call(sandbox, 'GET', BUSINESS_DETAILS, { headers: schemeA(token, A.secretKey) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ status: false, message: 'businessId is required in headers', data: null });
  });

  it('lets a Viewer read the details but not create a business', async () => {
    const viewer = await tokenFor(sandbox, A.viewer);
    const headers = schemeA(viewer, A.secretKey, A.a1.id);
    const read = await call(sandbox, 'GET', BUSINESS_DETAILS, { headers });
    expect(read.status).toBe(200);
    expect(dataOf(read, business).id).toBe(A.a1.id);

    const before = pageOf(await call(sandbox, 'GET', BUSINESSES, { headers }), business).pagination
      .totalCount;
    const create = await call(sandbox, 'POST', BUSINESSES, {
      headers,
      body: { businessName: 'Viewer Made Ltd', countryId: 'NG', isNewBusiness: true },
    });
    expect(create.status).toBe(403);
    expect(create.body.status).toBe(false);
    expect(create.body.data).toBeNull();
    const after = pageOf(await call(sandbox, 'GET', BUSINESSES, { headers }), business).pagination.totalCount;
    expect(after).toBe(before);
  });
});

describe('create business', () => {
  const sandbox = useSandbox();
  let token: string;
  let headers: Record<string, string>;
  beforeAll(async () => {
    token = await tokenFor(sandbox, A.owner);
    headers = schemeA(token, A.secretKey, A.a1.id);
  });

  /** Creates with the two other required fields filled in unless `body` says otherwise. */
  const create = (body: Record<string, unknown>, sent = headers) =>
    call(sandbox, 'POST', BUSINESSES, {
      headers: sent,
      body: { countryId: 'NG', isNewBusiness: true, ...body },
    });
  const count = async () =>
    pageOf(await call(sandbox, 'GET', BUSINESSES, { headers }), business).pagination.totalCount;

  it('answers 201 with data.business {id, businessName}', async () => {
    const res = await create({ businessName: 'Adebayo Farms', countryId: 'NG', isNewBusiness: true });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toBe('Business created successfully');
    const data = dataOf(res, createdBusiness);
    expect(Object.keys(data)).toEqual(['business']);
    expect(Object.keys(data.business).sort()).toEqual(['businessName', 'id']);
    expect(data.business.businessName).toBe('Adebayo Farms');
    expect(data.business.id).toMatch(/\S/);
    expect([A.a1.id, A.a2.id, B.b1.id]).not.toContain(data.business.id);
  });

  it('needs no businessId header: Authorization and SECRET_KEY are enough', async () => {
    const res = await create({ businessName: 'Adebayo Headerless' }, schemeA(token, A.secretKey));
    expect(res.status).toBe(201);
    const { id } = dataOf(res, createdBusiness).business;
    const listed = pageOf(await call(sandbox, 'GET', BUSINESSES, { headers }), business).data;
    expect(listed.find((b) => b.id === id)).toMatchObject({
      businessName: 'Adebayo Headerless',
      clientId: A.id,
    });
  });

  it("ignores a businessId header, even an unknown one or another client's", async () => {
    for (const [name, businessId] of [
      ['Adebayo Via A2', A.a2.id],
      ['Adebayo Via B1', B.b1.id],
      ['Adebayo Via Nothing', 'b1a90000-0000-4000-8000-000000000099'],
    ] as const) {
      const res = await create({ businessName: name }, schemeA(token, A.secretKey, businessId));
      expect(res.status, name).toBe(201);
      const { id } = dataOf(res, createdBusiness).business;
      const listed = pageOf(
        await call(sandbox, 'GET', `${BUSINESSES}?limit=100`, { headers }),
        business,
      ).data;
      // The business is A's whatever header came with it.
      expect(
        listed.find((b) => b.id === id),
        name,
      ).toMatchObject({ businessName: name, clientId: A.id });
    }
    const tokenB = await tokenFor(sandbox, B.owner);
    const bList = await call(sandbox, 'GET', BUSINESSES, { headers: schemeA(tokenB, B.secretKey, B.b1.id) });
    expect(pageOf(bList, business).data.map((b) => b.id)).toEqual([B.b1.id]);
  });

  it('still needs the Authorization and the SECRET_KEY', async () => {
    const body = { businessName: 'Adebayo Nobody', countryId: 'NG', isNewBusiness: true };
    const noToken = await call(sandbox, 'POST', BUSINESSES, { headers: { SECRET_KEY: A.secretKey }, body });
    expect(noToken.status).toBe(401);
    const noKey = await call(sandbox, 'POST', BUSINESSES, {
      headers: { authorization: `Bearer ${token}` },
      body,
    });
    expect(noKey.status).toBe(401);
  });

  it('the new business is listed, not approved, and has no payment account', async () => {
    const res = await create({ businessName: 'Adebayo Textiles' });
    expect(res.status).toBe(201);
    const { id } = dataOf(res, createdBusiness).business;

    const list = await call(sandbox, 'GET', `${BUSINESSES}?limit=100`, { headers });
    const { data, pagination } = pageOf(list, business);
    const created = data.find((b) => b.id === id);
    expect(created).toMatchObject({
      id,
      businessName: 'Adebayo Textiles',
      isApproved: false,
      clientId: A.id,
    });
    expect(pagination.totalCount).toBe(data.length);

    const own = await call(sandbox, 'GET', BUSINESS_DETAILS, { headers: { ...headers, businessId: id } });
    expect(own.status).toBe(200);
    expect(dataOf(own, business)).toEqual(created);

    const details = await call(sandbox, 'GET', DETAILS, { headers: { ...headers, businessId: id } });
    expect(details.status).toBe(400);
    expect(details.body).toEqual({ status: false, message: NO_ACCOUNT, data: null });

    const customers = await call(sandbox, 'GET', CUSTOMERS, { headers: { ...headers, businessId: id } });
    expect(customers.status).toBe(200);
    expect(customers.body.data).toEqual([]);
  });

  it('is not visible to B, and B cannot address it: 401 Invalid businessId', async () => {
    const res = await create({ businessName: 'Adebayo Secret Branch' });
    const { id } = dataOf(res, createdBusiness).business;
    const tokenB = await tokenFor(sandbox, B.owner);
    const list = await call(sandbox, 'GET', BUSINESSES, { headers: schemeA(tokenB, B.secretKey, B.b1.id) });
    expect(pageOf(list, business).data.map((b) => b.id)).toEqual([B.b1.id]);
    for (const path of [CUSTOMERS, BUSINESS_DETAILS]) {
      const other = await call(sandbox, 'GET', path, { headers: schemeA(tokenB, B.secretKey, id) });
      expect(other.status, path).toBe(401);
      expect(other.body).toEqual({ status: false, message: 'Invalid businessId', data: null });
    }
  });

  it('answers 409 to a duplicate name, case-insensitively', async () => {
    const before = await count();
    for (const name of [A.a1.businessName, A.a1.businessName.toUpperCase(), 'adebayo logistics']) {
      const res = await create({ businessName: name });
      expect(res.status, name).toBe(409);
      expect(res.body.status).toBe(false);
      expect(res.body.data).toBeNull();
    }
    expect(await count()).toBe(before);
  });

  it('answers 400 to a missing or empty name', async () => {
    for (const body of [{}, { businessName: '' }, { businessName: 7 }]) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.status).toBe(false);
      expect(res.body.errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ field: 'businessName', message: expect.any(String) }),
        ]),
      );
    }
  });

  it('answers 400 naming countryId or isNewBusiness when one is missing, and creates nothing', async () => {
    const before = await count();
    for (const [body, field] of [
      [{ businessName: 'Adebayo No Country', isNewBusiness: true }, 'countryId'],
      [{ businessName: 'Adebayo Empty Country', countryId: '', isNewBusiness: true }, 'countryId'],
      [{ businessName: 'Adebayo No Flag', countryId: 'NG' }, 'isNewBusiness'],
    ] as const) {
      const res = await call(sandbox, 'POST', BUSINESSES, { headers, body });
      expect(res.status, field).toBe(400);
      expect(res.body.status).toBe(false);
      expect(res.body.data).toBeNull();
      const { errors = [] } = bodyOf(res, errorEnvelope);
      const fields = errors.map((e) => e.field);
      expect(fields).toEqual([field]);
    }
    const none = await call(sandbox, 'POST', BUSINESSES, { headers, body: { businessName: 'Adebayo Bare' } });
    expect(none.status).toBe(400);
    const { errors = [] } = bodyOf(none, errorEnvelope);
    expect(errors.map((e) => e.field).sort()).toEqual(['countryId', 'isNewBusiness']);
    expect(await count()).toBe(before);
  });

  it('answers 400 to an isNewBusiness that is not a JSON boolean', async () => {
    for (const isNewBusiness of ['true', 'false', 1, 0, null]) {
      const res = await create({ businessName: `Adebayo ${String(isNewBusiness)}`, isNewBusiness });
      expect(res.status, JSON.stringify(isNewBusiness)).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'isNewBusiness' })]);
    }
    const ok = await create({ businessName: 'Adebayo Established', isNewBusiness: false });
    expect(ok.status).toBe(201);
  });

  // The bank states no minimum (the sandbox asked for 2 characters).
  it('accepts a one-character name', async () => {
    const res = await create({ businessName: 'X' });
    expect(res.status).toBe(201);
  });
});

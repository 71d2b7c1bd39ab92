import { beforeAll, describe, expect, it } from 'vitest';
import banks from '../../../fixtures/banks.json' with { type: 'json' };
import bvns from '../../../fixtures/bvns.json' with { type: 'json' };
import states from '../../../fixtures/states.json' with { type: 'json' };
import { auditEntry } from '../../../src/contract/api/audits.js';
import {
  type BusinessView,
  business,
  bvnIdentity,
  createdBusiness,
} from '../../../src/contract/api/business.js';
import { approvedBusiness } from '../../../src/contract/control/money.js';
import { outboxMessage } from '../../../src/contract/control/outbox.js';
import { isValidNuban } from '../../../src/domain/nuban.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { A, B, call, memorySandbox, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';

const REGISTRATION = '/api/v1/clients/business/complete-registration';
const BUSINESSES = '/api/v1/clients/business';
const DETAILS = '/api/v1/clients/business/account-details';
const AUDITS = '/api/v1/clients/business/audits';
const VALIDATE_BVN = '/api/v1/clients/business/validate-bvn';

/** The PNG signature and an IHDR chunk of a 1x1 RGBA image, with its CRC. */
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
  0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89,
]);
/** The start of a JFIF JPEG: SOI, APP0 with the JFIF header, then EOI. */
const JPEG = new Uint8Array([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xd9,
]);
const TEXT = new TextEncoder().encode('This is a plain text file, not an image at all.\n');
const STATE = states.find((s) => s.name === 'Lagos') ?? states[0];
if (!STATE) throw new Error('fixtures/states.json is empty');

interface Upload {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

function file({ name, bytes, type }: Upload): File {
  return new File([bytes], name, type === undefined ? {} : { type });
}

function fields(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    businessId: A.a2.id,
    bvn: '22233344455',
    residentialAddress: '5 Awolowo Road, Ikoyi, Lagos',
    stateId: STATE?.id,
    otp: '123456',
    password: A.owner.password,
    ...overrides,
  };
}

function form(
  values: Record<string, string | undefined>,
  photo: Upload | null = { name: 'id.png', bytes: PNG, type: 'image/png' },
  documents: Upload[] = [],
): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) if (value !== undefined) data.append(key, value);
  if (photo) data.append('photoId', file(photo));
  for (const doc of documents) data.append('businessDocuments', file(doc));
  return data;
}

async function register(
  sandbox: Sandbox,
  headers: Record<string, string>,
  body: FormData | string,
  extraHeaders: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await sandbox.app.request(REGISTRATION, {
    method: 'PATCH',
    headers: { ...headers, ...extraHeaders },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function businessOf(
  sandbox: Sandbox,
  headers: Record<string, string>,
  id: string,
): Promise<BusinessView> {
  const res = await call(sandbox, 'GET', `${BUSINESSES}?limit=100`, { headers });
  expect(res.status).toBe(200);
  const found = pageOf(res, business).data.find((b) => b.id === id);
  if (!found) throw new Error(`business ${id} not listed`);
  return found;
}

describe('complete business registration: refusals', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
  });

  it.each([
    ['a text file named id.png', { name: 'id.png', bytes: TEXT, type: 'image/png' }],
    ['a text file named id.jpg', { name: 'id.jpg', bytes: TEXT, type: 'image/jpeg' }],
    ['a PDF', { name: 'id.pdf', bytes: new TextEncoder().encode('%PDF-1.4\n'), type: 'application/pdf' }],
  ])('answers 400 photoId must be a JPEG or PNG image to %s', async (_label, photo) => {
    const res = await register(sandbox, headers, form(fields(), photo));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      status: false,
      message: 'photoId must be a JPEG or PNG image',
      data: null,
    });
  });

  it('answers 400 without a photoId', async () => {
    const res = await register(sandbox, headers, form(fields(), null));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
  });

  it('answers 400 to a photoId sent as text instead of a file', async () => {
    const data = form(fields(), null);
    data.append('photoId', 'id.png');
    const res = await register(sandbox, headers, data);
    expect(res.status).toBe(400);
  });

  it.each([
    ['a bvn of 10 digits', { bvn: '2223334445' }, 'bvn'],
    ['a bvn of 12 digits', { bvn: '222333444555' }, 'bvn'],
    ['a bvn with letters', { bvn: '2223334445X' }, 'bvn'],
    ['no bvn', { bvn: undefined }, 'bvn'],
    ['no businessId', { businessId: undefined }, 'businessId'],
    ['no residentialAddress', { residentialAddress: undefined }, 'residentialAddress'],
    ['no stateId', { stateId: undefined }, 'stateId'],
    ['no otp', { otp: undefined }, 'otp'],
    ['no password', { password: undefined }, 'password'],
  ])('answers 400 to %s', async (_label, change, field) => {
    const res = await register(sandbox, headers, form(fields(change)));
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
  });

  // The ids are `state_01` … `state_37` (docs); the bare numbers earlier versions used are no ids any more.
  it.each(['999', '0', 'lagos', '24', '1', 'state_1', 'state_38', 'STATE_24x'])(
    'answers 400 Invalid stateId to %j',
    async (stateId) => {
      expect(states.some((s) => s.id === stateId)).toBe(false);
      const res = await register(sandbox, headers, form(fields({ stateId })));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: false, message: 'Invalid stateId', data: null });
    },
  );

  it.each(['654321', '000000', '1234567'])('answers 400 Invalid OTP to %s', async (otp) => {
    const res = await register(sandbox, headers, form(fields({ otp })));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message: 'Invalid OTP', data: null });
  });

  it('answers 400 Invalid password to a wrong password, and to the right one with a trailing space', async () => {
    for (const password of ['Wrong-password-1', `${A.owner.password} `]) {
      const res = await register(sandbox, headers, form(fields({ password })));
      expect(res.status, password).toBe(400);
      expect(res.body).toMatchObject({ status: false, message: 'Invalid password', data: null });
    }
  });

  it("answers 404 to B's business", async () => {
    const res = await register(sandbox, headers, form(fields({ businessId: B.b1.id })));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
  });

  it('answers 404 to an unknown business', async () => {
    const res = await register(sandbox, headers, form(fields({ businessId: 'no-such-business' })));
    expect(res.status).toBe(404);
  });

  it('answers 400 to a business that is already approved (A1)', async () => {
    const res = await register(sandbox, headers, form(fields({ businessId: A.a1.id })));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
  });

  it('answers 415 to a JSON body', async () => {
    const json = JSON.stringify(fields());
    const res = await register(sandbox, headers, json, { 'content-type': 'application/json' });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ status: false, data: null });
  });

  it('answers 400 to six businessDocuments', async () => {
    const docs = Array.from({ length: 6 }, (_, i) => ({
      name: `doc${i}.png`,
      bytes: PNG,
      type: 'image/png',
    }));
    const res = await register(sandbox, headers, form(fields(), undefined, docs));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, data: null });
  });

  // 401 without a token or SECRET_KEY and 403 to a Viewer, the state unchanged: route-auth.test.ts, generated for
  // every route (auth runs before the form is read, so its JSON body does not matter).
  it('left A2 untouched by every refusal', async () => {
    const a2 = await businessOf(sandbox, headers, A.a2.id);
    expect(a2).toMatchObject({
      bvn: '',
      residentialAddress: '',
      stateId: '',
      photoIdUrl: '',
      businessDocumentsUrls: [],
      isApproved: false,
    });
  });
});

describe('complete business registration: success and approval', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
  });

  it('answers 200 and stores bvn, address, state, photo and documents; the business stays unapproved', async () => {
    const docs = [
      { name: 'cac.jpg', bytes: JPEG, type: 'image/jpeg' },
      { name: 'utility.png', bytes: PNG, type: 'image/png' },
    ];
    const res = await register(sandbox, headers, form(fields(), undefined, docs));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: true, message: 'Business registration completed successfully' });

    const a2 = await businessOf(sandbox, headers, A.a2.id);
    expect(a2).toMatchObject({
      id: A.a2.id,
      bvn: '22233344455',
      residentialAddress: '5 Awolowo Road, Ikoyi, Lagos',
      stateId: 'state_24',
      state: { id: 'state_24', name: 'Lagos' },
      isApproved: false,
    });
    expect(a2.photoIdUrl).toMatch(/\S/);
    expect(a2.businessDocumentsUrls).toHaveLength(2);

    const photo = await sandbox.app.request(new URL(a2.photoIdUrl).pathname);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(PNG);

    const [cacUrl, utilityUrl] = a2.businessDocumentsUrls;
    const cac = await sandbox.app.request(new URL(cacUrl ?? '').pathname);
    expect(cac.status).toBe(200);
    expect(new Uint8Array(await cac.arrayBuffer())).toEqual(JPEG);
    const utility = await sandbox.app.request(new URL(utilityUrl ?? '').pathname);
    expect(utility.status).toBe(200);
    expect(new Uint8Array(await utility.arrayBuffer())).toEqual(PNG);

    const details = await call(sandbox, 'GET', DETAILS, { headers: { ...headers, businessId: A.a2.id } });
    expect(details.status).toBe(400);
  });

  it('writes one audit entry register, business, seen from A2 and not from A1', async () => {
    const res = await call(sandbox, 'GET', `${AUDITS}?action=register&type=business`, {
      headers: { ...headers, businessId: A.a2.id },
    });
    expect(res.status).toBe(200);
    const { data } = pageOf(res, auditEntry);
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({
      action: 'register',
      type: 'business',
      email: A.owner.email,
      role: 'Admin',
    });
    const fromA1 = await call(sandbox, 'GET', `${AUDITS}?action=register`, { headers });
    expect(pageOf(fromA1, auditEntry).data).toEqual([]);
  });

  it('in an isolated sandbox, serves the files under its own paths, not the root’s', async () => {
    const world = await sandbox.isolate();
    try {
      const worldHeaders = schemeA(await tokenFor(world, A.owner), A.secretKey, A.a1.id);
      const photo = { name: 'world-only.png', bytes: PNG, type: 'image/png' };
      expect((await register(world, worldHeaders, form(fields(), photo))).status).toBe(200);
      const a2 = await businessOf(world, worldHeaders, A.a2.id);
      const path = new URL(a2.photoIdUrl).pathname;
      expect(path.startsWith(`/sandboxes/${world.id}/uploads/`)).toBe(true);
      const served = await sandbox.app.request(path);
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
      expect((await sandbox.app.request(path.replace(`/sandboxes/${world.id}`, ''))).status).toBe(404);
    } finally {
      await world.dispose();
    }
  });

  it('accepts a JPEG photo ID without documents', async () => {
    const res = await register(
      sandbox,
      headers,
      form(fields({ bvn: '22233344466' }), { name: 'id.jpg', bytes: JPEG, type: 'image/jpeg' }),
    );
    expect(res.status).toBe(200);
    const a2 = await businessOf(sandbox, headers, A.a2.id);
    expect(a2.bvn).toBe('22233344466');
    expect(a2.businessDocumentsUrls).toEqual([]);
    const photo = await sandbox.app.request(new URL(a2.photoIdUrl).pathname);
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(JPEG);
  });

  it('accepts five documents', async () => {
    const docs = Array.from({ length: 5 }, (_, i) => ({
      name: `doc${i}.png`,
      bytes: PNG,
      type: 'image/png',
    }));
    const res = await register(sandbox, headers, form(fields(), undefined, docs));
    expect(res.status).toBe(200);
    expect((await businessOf(sandbox, headers, A.a2.id)).businessDocumentsUrls).toHaveLength(5);
  });

  it('approve opens the payment account: a valid NUBAN of the home bank, balance 0', async () => {
    const res = await call(sandbox, 'POST', `/__sandbox/businesses/${A.a2.id}/approve`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    const { accountNumber } = dataOf(res, approvedBusiness);
    expect(accountNumber).toMatch(/^\d{10}$/);
    expect(isValidNuban(banks.homeBankCode, accountNumber)).toBe(true);

    const details = await call(sandbox, 'GET', DETAILS, { headers: { ...headers, businessId: A.a2.id } });
    expect(details.status).toBe(200);
    expect(details.body.data).toMatchObject({ accountNumber, businessId: A.a2.id, accountBalance: '0' });
    expect((await businessOf(sandbox, headers, A.a2.id)).isApproved).toBe(true);
  });

  it('refuses registration of the now approved business', async () => {
    const res = await register(sandbox, headers, form(fields()));
    expect(res.status).toBe(400);
  });

  it('answers 404 to approving an unknown business', async () => {
    const res = await call(sandbox, 'POST', '/__sandbox/businesses/no-such-business/approve');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: false, data: null });
  });
});

describe('state ids', () => {
  it('are state_01 … state_37 in the fixtures order', () => {
    expect(states).toHaveLength(37);
    expect(states.map((s) => s.id)).toEqual(
      Array.from({ length: 37 }, (_, i) => `state_${String(i + 1).padStart(2, '0')}`),
    );
    expect(states.find((s) => s.id === 'state_24')?.name).toBe('Lagos');
    expect(A.a1.stateId).toBe('state_24');
    expect(B.b1.stateId).toBe('state_18');
  });

  it("registers with the docs' example stateId=state_01, and the business shows its state", async () => {
    const sandbox = await memorySandbox();
    const headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
    const res = await register(sandbox, headers, form(fields({ stateId: 'state_01' })));
    expect(res.status).toBe(200);
    const a2 = await businessOf(sandbox, headers, A.a2.id);
    expect(a2).toMatchObject({ stateId: 'state_01', state: { id: 'state_01', name: states[0]?.name } });
  });
});

describe('registration with the OTP from the outbox', () => {
  it('accepts the bvn_otp sent when a BVN was validated for the business, and none is sent at creation', async () => {
    const sandbox = await memorySandbox();
    const headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
    const created = await call(sandbox, 'POST', BUSINESSES, {
      headers,
      body: { businessName: 'Adebayo Exports', countryId: 'NG', isNewBusiness: true },
    });
    expect(created.status).toBe(201);
    const { id } = dataOf(created, createdBusiness).business;
    const otpsOf = async () =>
      pageOf(
        await call(sandbox, 'GET', `/__sandbox/outbox?type=bvn_otp&to=${A.owner.email}`),
        outboxMessage,
      ).data.filter((m) => m.data.businessId === id);
    // The docs' flow: the OTP is "sent during the BVN validation step", not when the business is made.
    expect(await otpsOf()).toEqual([]);

    const validated = await call(sandbox, 'POST', VALIDATE_BVN, {
      headers: schemeA(await tokenFor(sandbox, A.owner), A.secretKey),
      body: { bvn: '22233344455', businessId: id },
    });
    expect(validated.status).toBe(200);
    const [message, ...more] = await otpsOf();
    expect(more).toEqual([]);
    const otp = message?.data.otp;
    if (typeof otp !== 'string') throw new Error('no bvn_otp for the new business');
    expect(otp).toMatch(/^\d{6}$/);
    expect(otp).not.toBe('123456');

    const res = await register(sandbox, headers, form(fields({ businessId: id, otp })));
    expect(res.status).toBe(200);
    const registered = await businessOf(sandbox, headers, id);
    expect(registered).toMatchObject({ bvn: '22233344455', isApproved: false });
    expect(registered.photoIdUrl).toMatch(/\S/);
  });
});

describe('validate a BVN', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  beforeAll(async () => {
    // Authorization and SECRET_KEY only, as the docs' page shows: the body names the business.
    headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey);
  });
  const validate = (body: Record<string, unknown>, h: Record<string, string> = headers) =>
    call(sandbox, 'POST', VALIDATE_BVN, { headers: h, body });
  const otpCount = async () =>
    pageOf(await call(sandbox, 'GET', '/__sandbox/outbox?type=bvn_otp'), outboxMessage).pagination.totalCount;

  it("answers the docs' example BVN with the docs' six fields and message, from the fixtures' table", async () => {
    const res = await validate({ bvn: '12345678901', businessId: A.a2.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: true,
      message: 'BVN validated successfully',
      data: {
        phoneNumber: '+2348012345678',
        bvn: '12345678901',
        firstName: 'Ada',
        lastName: 'Lovelace',
        otherNames: 'Grace',
        dob: '1990-01-01',
      },
    });
    expect(dataOf(res, bvnIdentity)).toEqual(bvns.find((b) => b.bvn === '12345678901'));
  });

  it('draws a person for any other BVN from the seed and the BVN: the same BVN, the same person', async () => {
    const first = dataOf(await validate({ bvn: '40000000001', businessId: A.a2.id }), bvnIdentity);
    expect(bvns.some((b) => b.bvn === '40000000001')).toBe(false);
    expect(first.bvn).toBe('40000000001');
    expect(first.phoneNumber).toMatch(/^\+234\d{10}$/);
    expect(first.dob).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(first.dob).toISOString().slice(0, 10)).toBe(first.dob);
    for (const name of [first.firstName, first.lastName, first.otherNames])
      expect(name).toMatch(/^[A-Z][a-z]+$/);
    // Asked again, after other BVNs, and from another business: the same person.
    await validate({ bvn: '40000000002', businessId: A.a1.id });
    expect(dataOf(await validate({ bvn: '40000000001', businessId: A.a1.id }), bvnIdentity)).toEqual(first);
    // Another BVN, another person; another seed, another person for the same BVN.
    expect(dataOf(await validate({ bvn: '40000000003', businessId: A.a2.id }), bvnIdentity)).not.toEqual(
      first,
    );
    const reseeded = await memorySandbox({ seed: 99 });
    try {
      const other = await call(reseeded, 'POST', VALIDATE_BVN, {
        headers: schemeA(await tokenFor(reseeded, A.owner), A.secretKey),
        body: { bvn: '40000000001', businessId: A.a2.id },
      });
      expect(dataOf(other, bvnIdentity)).not.toEqual(first);
    } finally {
      await reseeded.close();
    }
  });

  it('sends one registration OTP per validation, and writes a validate entry to the audit log', async () => {
    const before = await otpCount();
    expect((await validate({ bvn: '12345678901', businessId: A.a2.id })).status).toBe(200);
    expect(await otpCount()).toBe(before + 1);
    const audits = await call(sandbox, 'GET', `${AUDITS}?action=validate`, {
      headers: { ...headers, businessId: A.a2.id },
    });
    const [entry] = pageOf(audits, auditEntry).data;
    expect(entry).toMatchObject({ action: 'validate', type: 'business', email: A.owner.email });
  });

  it('answers the magic BVN 00000000000 400 BVN not found, and sends no OTP', async () => {
    const before = await otpCount();
    const res = await validate({ bvn: '00000000000', businessId: A.a2.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: false, message: 'BVN not found', data: null });
    expect(await otpCount()).toBe(before);
  });

  it.each([
    ['no bvn', { bvn: undefined }, 'bvn', 'bvn is required'],
    ['a 10-digit bvn', { bvn: '1234567890' }, 'bvn', 'bvn is invalid: must be 11 digits'],
    ['a 12-digit bvn', { bvn: '123456789012' }, 'bvn', 'bvn is invalid: must be 11 digits'],
    ['a bvn with letters', { bvn: '1234567890A' }, 'bvn', 'bvn is invalid: must be 11 digits'],
    ['a bvn as a number', { bvn: 12345678901 }, 'bvn', 'bvn is invalid: must be text'],
    ['no businessId', { businessId: undefined }, 'businessId', 'businessId is required'],
    ['an empty businessId', { businessId: '' }, 'businessId', 'businessId is invalid: must not be empty'],
  ])('answers 400 to %s, naming the field, and sends no OTP', async (_label, change, field, message) => {
    const before = await otpCount();
    const res = await validate({ bvn: '12345678901', businessId: A.a2.id, ...change });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message, data: null });
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(await otpCount()).toBe(before);
  });

  it("answers 404 to another client's business and to an unknown one, and sends no OTP", async () => {
    const before = await otpCount();
    for (const businessId of [B.b1.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await validate({ bvn: '12345678901', businessId });
      expect(res.status, businessId).toBe(404);
      expect(res.body).toEqual({ status: false, message: 'Business not found', data: null });
    }
    expect(await otpCount()).toBe(before);
  });

  it('takes the business id in any case, and ignores a businessId header', async () => {
    const res = await validate(
      { bvn: '12345678901', businessId: A.a2.id.toUpperCase() },
      { ...headers, businessId: B.b1.id },
    );
    expect(res.status).toBe(200);
  });

  it('refuses the Viewer (403): validating sends an OTP', async () => {
    const viewer = schemeA(await tokenFor(sandbox, A.viewer), A.secretKey);
    const res = await validate({ bvn: '12345678901', businessId: A.a2.id }, viewer);
    expect(res.status).toBe(403);
  });
});

describe('upload limit', () => {
  it('answers 413 to a file over uploadLimit', async () => {
    const sandbox = await memorySandbox({ uploadLimit: 1024 });
    const headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
    const big = new Uint8Array(2048);
    big.set(PNG);
    const res = await register(
      sandbox,
      headers,
      form(fields(), { name: 'id.png', bytes: big, type: 'image/png' }),
    );
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: false, data: null });

    const bigDoc = await register(
      sandbox,
      headers,
      form(fields(), undefined, [{ name: 'doc.png', bytes: big, type: 'image/png' }]),
    );
    expect(bigDoc.status).toBe(413);

    const small = await register(sandbox, headers, form(fields()));
    expect(small.status).toBe(200);
  });
});

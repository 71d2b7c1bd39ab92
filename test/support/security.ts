import { expect } from 'vitest';
import banks from '../../fixtures/banks.json' with { type: 'json' };
import billers from '../../fixtures/billers.json' with { type: 'json' };
import roles from '../../fixtures/roles.json' with { type: 'json' };
import states from '../../fixtures/states.json' with { type: 'json' };
import { bulkTransferWithItems } from '../../src/contract/api/bulk.js';
import { outboxMessage } from '../../src/contract/control/outbox.js';
import type { Sandbox } from '../../src/sandbox.js';
import { dataOf, pageOf } from './answers.js';
import { transferEntry } from './money.js';
import { call, schemeA, schemeB, tokenFor } from './sandbox.js';

// What the security tests share (test/api/http/security*.test.ts): poisoned JSON, a tenant of its own, requests.

export type Json = Record<string, unknown>;
export type HeaderMap = Record<string, string>;

export const PRODUCTION = 'Production credentials cannot be used in the sandbox environment';
export const BANK = banks.banks[0]?.code ?? '';
export const BILLER = billers[0] ?? '';
export const MANAGER_ROLE = roles.find((r) => r.name === 'Manager')?.id ?? '';
export const STATE = states[0]?.id ?? '';

export const SIGNIN = '/api/v1/auth/signin';
export const DETAILS = '/api/v1/clients/business/account-details';
export const FUNDS = '/api/v1/clients/business/customers/funds';
export const BULK = `${FUNDS}/bulk-transfer`;
export const PAYOUTS = '/api/v1/clients/business/payouts';
export const MEMBERS = '/api/v1/clients/members';
export const REGISTRATION = '/api/v1/clients/business/complete-registration';

/** `__proto__`, `constructor` and `prototype`, each reaching for `Object.prototype.polluted`. */
export const POISON_TEXT =
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}';
/** Parsed, so `__proto__` is an own key (an object literal would set the prototype instead). */
export const poison = (): Json => JSON.parse(POISON_TEXT) as Json;
/** `target` with the poisoned keys beside its own (spread defines `__proto__` as an own key). */
export const poisoned = (target: Json): Json => ({ ...target, ...poison() });

export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `body` whose object at `path` carries the poisoned keys. */
export function poisonAt(body: Json, path: readonly (string | number)[]): Json {
  const copy = JSON.parse(JSON.stringify(body)) as Json;
  if (path.length === 0) return poisoned(copy);
  let parent: unknown = copy;
  for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[step];
  const last = path[path.length - 1] as string | number;
  const holder = parent as Record<string | number, unknown>;
  const target = holder[last];
  if (!isObject(target)) throw new Error(`no object at ${path.join('.')}`);
  holder[last] = poisoned(target);
  return copy;
}

export const PROTOTYPE_KEYS = Reflect.ownKeys(Object.prototype);
export const ARRAY_PROTOTYPE_KEYS = Reflect.ownKeys(Array.prototype);

/** Nothing reached a shared prototype. */
export function expectNoPollution(label: string): void {
  expect(({} as Record<string, unknown>).polluted, label).toBeUndefined();
  expect(Reflect.ownKeys(Object.prototype), label).toEqual(PROTOTYPE_KEYS);
  expect(Reflect.ownKeys(Array.prototype), label).toEqual(ARRAY_PROTOTYPE_KEYS);
  expect(Object.getPrototypeOf({}), label).toBe(Object.prototype);
  expect({}.constructor, label).toBe(Object);
}

/** A refusal: a 4xx with the error envelope. */
export function expectRefusal(res: { status: number; body: Json }, label: string): void {
  expect(res.status, label).toBeGreaterThanOrEqual(400);
  expect(res.status, label).toBeLessThan(500);
  expect(res.body, label).toMatchObject({ status: false, data: null });
  expect(typeof res.body.message, label).toBe('string');
}

/** A body sent as raw text (the poisoned keys survive JSON.stringify as own keys). */
export async function send(
  sandbox: Sandbox,
  req: Req,
): Promise<{ status: number; body: Json; text: string }> {
  const text = JSON.stringify(req.body);
  const res = await sandbox.app.request(req.path, {
    method: req.method,
    headers: { 'content-type': 'application/json', ...req.headers },
    body: text,
  });
  const answer = await res.text();
  let body: Json = {};
  try {
    body = answer ? (JSON.parse(answer) as Json) : {};
  } catch {
    body = { raw: answer };
  }
  return { status: res.status, body, text: answer };
}

export interface Req {
  method: string;
  path: string;
  headers: HeaderMap;
  body: Json;
}

/** A fresh client of its own: an Admin owner, an approved funded business. */
export interface Tenant {
  email: string;
  password: string;
  publicKey: string;
  secretKey: string;
  businessId: string;
  token: string;
  a: HeaderMap;
  b: HeaderMap;
}

export async function tenant(sandbox: Sandbox): Promise<Tenant> {
  const me = await sandbox.newClient();
  const businessId = me.businesses[0]?.id ?? '';
  const token = await tokenFor(sandbox, me);
  return {
    email: me.email,
    password: me.password,
    publicKey: me.publicKey,
    secretKey: me.secretKey,
    businessId,
    token,
    a: schemeA(token, me.secretKey, businessId),
    b: schemeB(me.publicKey, me.secretKey, businessId),
  };
}

export const transferItem = (ref: string, receiver = '0123456789') => ({
  amount: 100000,
  receiverAccountNumber: receiver,
  receiverBankCode: BANK,
  retrievalReference: ref,
  narration: 'Security test',
});

export async function expectStatus(
  res: Promise<{ status: number; body: Json }>,
  status: number,
): Promise<{ status: number; body: Json }> {
  const done = await res;
  expect(done.status, JSON.stringify(done.body)).toBe(status);
  return done;
}

export async function newBatch(
  sandbox: Sandbox,
  me: Tenant,
  tag: string,
  receiver?: string,
): Promise<string> {
  const res = await expectStatus(
    call(sandbox, 'POST', BULK, {
      headers: me.b,
      body: { batchName: `Batch ${tag}`, transfers: [transferItem(`bulk-${tag}`, receiver)] },
    }),
    201,
  );
  return dataOf(res, bulkTransferWithItems).id;
}

/** A transfer of the tenant's: its transaction reference, read from its ledger entry. */
export async function transferRef(sandbox: Sandbox, me: Tenant, tag: string): Promise<string> {
  await expectStatus(
    call(sandbox, 'POST', `${FUNDS}/transfer`, { headers: me.a, body: transferItem(`tx-${tag}`) }),
    200,
  );
  return (await transferEntry(sandbox, `tx-${tag}`, me.businessId)).id;
}

export async function invitationToken(sandbox: Sandbox, me: Tenant, email: string): Promise<string> {
  await expectStatus(
    call(sandbox, 'POST', MEMBERS, { headers: me.a, body: { email, memberRoleId: MANAGER_ROLE } }),
    201,
  );
  const sent = await call(sandbox, 'GET', `/__sandbox/outbox?to=${encodeURIComponent(email)}`);
  const token = pageOf(sent, outboxMessage).data[0]?.data.authorizationToken;
  if (!token) throw new Error(`no invitation for ${email}`);
  return token;
}

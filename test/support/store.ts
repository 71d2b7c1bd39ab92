import { expect } from 'vitest';
import type * as z from 'zod';
import { stateExport } from '../../src/contract/control/state.js';
import {
  type AuditRecord,
  type CustomerRecord,
  collectionNames,
  type DisputeRecord,
  type PayoutRecord,
  type StateDocument,
  type VirtualAccountRecord,
} from '../../src/domain/records.js';
import { type Answered, bodyOf } from './answers.js';

/**
 * The whole state with every record in its current shape, every collection there: what `GET /__sandbox/state`
 * answers (its route's own schema) and what a state read from an earlier version becomes.
 */
export const currentState = stateExport;

/** The whole state in the current shapes (a type, not an interface: it can be sent back as a JSON body). */
export type CurrentStateView = z.infer<ReturnType<typeof currentState>>;

/** The state an answer of `GET /__sandbox/state` holds, parsed with the route's own schema: typed, every record current. */
export function stateOf(res: Answered): CurrentStateView {
  return bodyOf(res, stateExport);
}

/** An empty state: every collection empty but the meta record. */
export function baseState(): StateDocument {
  const collections: Record<string, unknown[]> = Object.fromEntries(
    collectionNames.map((name) => [name, []]),
  );
  collections.meta = [{ id: 'meta', seed: 1, jwtSecret: 'k' }];
  return currentState().parse({ version: 1, collections });
}

/** A customer record of `businessId`. */
export function customer(id: string, businessId = 'b1'): CustomerRecord {
  return {
    id,
    businessId,
    name: `Customer ${id}`,
    phoneNo: '',
    email: '',
    dateCreated: '',
    nuban: '0000000000',
  };
}

/** A record as a version before the bank's docs were followed wrote it: loose, as a file holds it. */
type OldRecord = Record<string, unknown>;

/** Records of the collections whose shape changed, as written before, and each as it reads now. */
export interface OldShapes {
  /** Old-shape records by collection, to put in a state document or in journal lines. */
  records: { payouts: OldRecord[]; disputes: OldRecord[]; audits: OldRecord[]; virtualAccounts: OldRecord[] };
  /** The same records in the current shapes, as a state that held them reads. */
  upgraded: {
    payouts: PayoutRecord[];
    disputes: DisputeRecord[];
    audits: AuditRecord[];
    virtualAccounts: VirtualAccountRecord[];
  };
}

/**
 * Every audit sentence earlier versions wrote, with its upper-case type, and the verb and category it reads as
 * now (`[type, action, new type, new action]`).
 */
export const OLD_AUDITS: readonly (readonly [string, string, string, string])[] = [
  ['AUTH', 'Signed in', 'auth', 'login'],
  ['TRANSFER', 'Transferred ₦1,500.00 to 0123456789 (058)', 'transaction', 'transfer'],
  [
    'TRANSFER',
    'Transfer of ₦1,500.00 to 0000000051 (058) failed: Insufficient Funds',
    'transaction',
    'transfer',
  ],
  ['TRANSFER', 'Created bulk transfer BLK-1 "Salaries" with 2 items', 'transaction', 'create'],
  ['TRANSFER', 'Started bulk transfer 6a1e0000-0000-4000-8000-000000000001', 'transaction', 'process'],
  [
    'TRANSFER',
    'Reprocessed 2 item(s) of bulk transfer 6a1e0000-0000-4000-8000-000000000001',
    'transaction',
    'reprocess',
  ],
  ['BUSINESS', 'Created business Adebayo Farms', 'business', 'create'],
  ['BUSINESS', 'Completed registration of Adebayo Logistics', 'business', 'register'],
  ['PAYOUT', 'Added payout account 0123456789 (GTBank)', 'payout', 'create'],
  ['PAYOUT', 'Updated payout account 0123456789 (GTBank)', 'payout', 'update'],
  ['PAYOUT', 'Deleted payout account 0123456789 (GTBank)', 'payout', 'delete'],
  ['DISPUTE', 'Opened a dispute on transaction 6a1e0000-0000-4000-8000-000000000002', 'dispute', 'create'],
  ['MEMBER', 'Invited new@adebayo.test as Viewer', 'member', 'invite'],
  ['MEMBER', 'Completed member registration', 'member', 'register'],
  ['SETTINGS', 'Updated webhook URL to https://hooks.example.com/x', 'settings', 'update'],
  ['SETTINGS', 'Configured billers: 044, 058', 'settings', 'update'],
  ['VIRTUAL_ACCOUNT', 'Created temporal virtual account 9990000011', 'virtual_account', 'create'],
];

/**
 * One old record of each changed kind, and every old audit sentence (`OLD_AUDITS`), for the business `businessId`
 * of the client `clientId`: a payout account naming its business and not its client, a dispute with `createdAt` (of
 * `transactionId`) and no `dateCreated`, audit entries with an upper-case type and a sentence for action, a
 * virtual account without `reservedAmount` and `usedBy`. Ids start with `prefix`, so two sets do not collide.
 */
export function oldShapes(
  ids: { clientId: string; businessId: string; transactionId: string },
  prefix = 'old',
  /** The last digit of the account numbers, so that two sets in one state do not share one. */
  digit = 1,
): OldShapes {
  const { clientId, businessId, transactionId } = ids;
  const at = '2025-05-01T09:00:00.000Z';
  const payout = {
    id: `${prefix}-payout`,
    accountName: 'Adaeze Adebayo',
    accountNumber: `012345678${digit}`,
    bankName: 'GTBank',
    bankCode: '058',
    createdAt: at,
  };
  const dispute = {
    id: `${prefix}-dispute`,
    businessId,
    transactionId,
    description: 'Customer says the money never arrived',
    status: 'open' as const,
    resolvedAt: null,
  };
  const account = {
    id: `${prefix}-virtual-account`,
    clientId,
    businessId,
    accountNumber: `999000001${digit}`,
    accountName: 'Adebayo Foods - Ada Obi',
    firstName: 'Ada',
    lastName: 'Obi',
    type: 'temporal' as const,
    clientRef: `${prefix}-order-1`,
    systemRef: 'VA12345678901234',
    createdAt: at,
    expiresAt: Date.parse(at) + 1_800_000,
  };
  const audits = OLD_AUDITS.map(([type, action, newType, newAction], i) => {
    const common = {
      id: `${prefix}-audit-${String(i).padStart(2, '0')}`,
      clientId,
      // Sign-in and settings were client-wide; the rest were the business's.
      businessId: type === 'AUTH' || type === 'SETTINGS' || type === 'MEMBER' ? null : businessId,
      email: 'owner@adebayo.test',
      user: 'Adaeze Adebayo',
      date: new Date(Date.parse(at) + i * 60_000).toISOString(),
      role: 'Admin',
      ipAddress: '127.0.0.1',
    };
    return { old: { ...common, type, action }, upgraded: { ...common, type: newType, action: newAction } };
  });
  return {
    records: {
      payouts: [{ ...payout, businessId }],
      disputes: [{ ...dispute, createdAt: '2025-05-02T10:00:00.000Z' }],
      audits: audits.map((a) => a.old),
      virtualAccounts: [account],
    },
    upgraded: {
      payouts: [{ ...payout, clientId }],
      disputes: [{ ...dispute, dateCreated: '2025-05-02T10:00:00.000Z' }],
      audits: audits.map((a) => a.upgraded),
      virtualAccounts: [{ ...account, reservedAmount: null, usedBy: null }],
    },
  };
}

/**
 * `state` (an export, in the current shapes) as a version before the bank's docs were followed would have written it: the old records
 * of `shapes` added to their collections, and no `subscriptions` collection (it came later). A JSON value.
 */
export function inOldShapes(
  state: StateDocument,
  shapes: OldShapes,
): { version: 1; collections: Record<string, unknown[]> } {
  const { subscriptions: _later, ...collections } = structuredClone(state.collections);
  // Before the docs' `state_01` form, states were numbered: `state_24` was `24`.
  for (const business of collections.businesses)
    business.stateId = business.stateId.replace(/^state_0?(\d+)$/, '$1');
  const old: Record<string, unknown[]> = { ...collections };
  for (const [name, records] of Object.entries(shapes.records))
    old[name] = [...(old[name] ?? []), ...records];
  return { version: 1, collections: old };
}

/** Expects `state` to hold the records of `shapes` in the current shapes, and no subscription. */
export function expectUpgraded(state: StateDocument, shapes: OldShapes): void {
  const { payouts, disputes, audits, virtualAccounts } = shapes.upgraded;
  expect(state.collections.payouts).toEqual(expect.arrayContaining(payouts));
  expect(state.collections.disputes).toEqual(expect.arrayContaining(disputes));
  expect(state.collections.audits).toEqual(expect.arrayContaining(audits));
  expect(state.collections.virtualAccounts).toEqual(expect.arrayContaining(virtualAccounts));
  // Nothing of the earlier shapes is left anywhere.
  for (const p of state.collections.payouts) expect(p).not.toHaveProperty('businessId');
  for (const d of state.collections.disputes) expect(d).not.toHaveProperty('createdAt');
  for (const a of state.collections.audits) {
    expect(a.type).toBe(a.type.toLowerCase());
    expect(a.action).toMatch(/^[a-z_]+$/);
  }
  // Every state id named as the fixtures name it now (a business not registered yet has none).
  for (const b of state.collections.businesses) expect(b.stateId).toMatch(/^$|^state_\d{2}$/);
  expect(state.collections.subscriptions).toEqual([]);
}

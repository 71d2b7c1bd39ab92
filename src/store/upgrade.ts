import { type CollectionName, collectionNames, type StateDocument } from '../domain/records.js';
import type { AuditAction, AuditType } from '../domain/statuses.js';

// Records as earlier versions wrote them, brought up to the current shape as they are loaded (a state file, its
// journal, an import), so that a state written before a change still loads and reads as the current version writes.
// Each upgrade is cheap when there is nothing to do: a field or two is looked at, and the same record comes back.

/** Finds the client of a business, for records that used to belong to one (payout accounts). */
export type ClientOfBusiness = (businessId: string) => string | undefined;

/** What an upgrade looks up beyond the record: a business's client, and whether a state id is one of the fixtures'. */
export interface UpgradeContext {
  clientOf: ClientOfBusiness;
  /** Whether `id` names a state of the fixtures the sandbox loaded. */
  isState: (id: string) => boolean;
}

/**
 * State ids are `state_01` … `state_37` (the docs' form): an earlier business named its state by number (`24`).
 * Renamed only where the number is no state of the fixtures loaded and its new name is one, so that fixtures of
 * one's own that still number their states keep their businesses' ids as they are.
 */
function business(record: Loose, isState: (id: string) => boolean): Loose {
  const id = record.stateId;
  if (typeof id !== 'string' || !/^\d{1,2}$/.test(id) || isState(id)) return record;
  const renamed = `state_${id.padStart(2, '0')}`;
  return isState(renamed) ? { ...record, stateId: renamed } : record;
}

type Loose = Record<string, unknown>;

/** Payout accounts belong to the client (docs): an earlier one named its business. */
function payout(record: Loose, clientOf: ClientOfBusiness): Loose {
  if (typeof record.clientId === 'string') return record;
  const { businessId, ...rest } = record;
  // A payout of a business that is gone belongs to nobody the API can name: '' matches no client.
  return { ...rest, clientId: (typeof businessId === 'string' && clientOf(businessId)) || '' };
}

/** A dispute's date is `dateCreated` (docs): an earlier one kept `createdAt`. */
function dispute(record: Loose): Loose {
  if (typeof record.dateCreated === 'string') return record;
  const { createdAt, ...rest } = record;
  return { ...rest, dateCreated: createdAt };
}

/** Virtual accounts gained the single-use fields: an earlier one is a multi-use account. */
function virtualAccount(record: Loose): Loose {
  if ('reservedAmount' in record && 'usedBy' in record) return record;
  return { ...record, reservedAmount: record.reservedAmount ?? null, usedBy: record.usedBy ?? null };
}

/** The upper-case categories earlier versions wrote, as the lower-case ones written now. */
const AUDIT_TYPES: Record<string, AuditType> = {
  AUTH: 'auth',
  SETTINGS: 'settings',
  BUSINESS: 'business',
  TRANSFER: 'transaction',
  PAYOUT: 'payout',
  DISPUTE: 'dispute',
  MEMBER: 'member',
  VIRTUAL_ACCOUNT: 'virtual_account',
};

/** The sentences earlier versions wrote as `action`, by how they began, as the verbs written now. */
const AUDIT_ACTIONS: readonly [RegExp, AuditAction][] = [
  [/^Signed in/, 'login'],
  [/^(Transferred|Transfer of)/, 'transfer'],
  [/^(Created|Added|Opened)/, 'create'],
  [/^(Updated|Configured)/, 'update'],
  [/^Deleted/, 'delete'],
  [/^Completed/, 'register'],
  [/^Invited/, 'invite'],
  [/^Started/, 'process'],
  [/^Reprocessed/, 'reprocess'],
];

/** Audit entries carry a lower-case verb and category (docs): an earlier one, a sentence and an upper-case type. */
function audit(record: Loose): Loose {
  const type = typeof record.type === 'string' ? AUDIT_TYPES[record.type] : undefined;
  if (type === undefined) return record;
  const sentence = typeof record.action === 'string' ? record.action : '';
  const action = AUDIT_ACTIONS.find(([pattern]) => pattern.test(sentence))?.[1] ?? sentence.toLowerCase();
  return { ...record, type, action };
}

/**
 * `record` of `collection` in the current shape: the same object when it is already, a new one otherwise.
 * `context.clientOf` finds a business's client among the records loaded so far (businesses load before payouts).
 */
export function upgradeRecord(collection: CollectionName, record: unknown, context: UpgradeContext): unknown {
  if (record === null || typeof record !== 'object') return record;
  const loose = record as Loose;
  switch (collection) {
    case 'businesses':
      return business(loose, context.isState);
    case 'payouts':
      return payout(loose, context.clientOf);
    case 'disputes':
      return dispute(loose);
    case 'virtualAccounts':
      return virtualAccount(loose);
    case 'audits':
      return audit(loose);
    default:
      return record;
  }
}

/**
 * A state read from a document whose records were each checked against their current or earlier shape, every
 * record in the current shape; a collection it lacks (one added since it was written) is empty. `isState` says
 * which state ids the fixtures loaded have.
 */
export function upgradeState(
  doc: { version: 1; collections: Record<string, unknown> },
  isState: (id: string) => boolean,
): StateDocument {
  const lists = doc.collections as Partial<Record<CollectionName, unknown[]>>;
  const clients = new Map<string, string>();
  for (const business of lists.businesses ?? []) {
    const { id, clientId } = business as { id: string; clientId: string };
    clients.set(id, clientId);
  }
  const context: UpgradeContext = { clientOf: (id) => clients.get(id), isState };
  const collections = {} as Record<CollectionName, unknown[]>;
  for (const name of collectionNames) {
    collections[name] = (lists[name] ?? []).map((record) => upgradeRecord(name, record, context));
  }
  return { version: 1, collections: collections as StateDocument['collections'] };
}

import type {
  SingleUseAccountView,
  SingleUseInput,
  SuspenseTransactionView,
  VirtualAccountInput,
  VirtualAccountView,
} from '../../contract/api/virtual-accounts.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { capAtEnd, END_OF_TIME, END_OF_TIME_MS, hasExpired, isoOf } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { type PageQuery, type Pagination, paginate } from '../../domain/pagination.js';
import type { BusinessRecord, TransactionRecord, VirtualAccountRecord } from '../../domain/records.js';
import { systemReference } from '../../domain/references.js';
import type { VirtualAccountKind, VirtualAccountState } from '../../domain/statuses.js';
import type { Tx } from '../../store/store.js';
import { NO_PAYMENT_ACCOUNT, newAccountNumber } from '../accounts/accounts.js';
import { recordAudit } from '../audits/service.js';

/**
 * A virtual account's state at `now`: `used` once a single-use account took its payment (whatever the time),
 * `expired` past its `expiresAt` (temporal and single-use accounts), `open` otherwise.
 */
export function accountState(
  v: Pick<VirtualAccountRecord, 'usedBy' | 'expiresAt'>,
  now: number,
): VirtualAccountState {
  if (v.usedBy !== null) return 'used';
  return v.expiresAt !== null && hasExpired(v.expiresAt, now) ? 'expired' : 'open';
}

/** A multi-use virtual account as the API shows it. */
export function virtualAccountView(v: VirtualAccountRecord): VirtualAccountView {
  return {
    accountNumber: v.accountNumber,
    accountName: v.accountName,
    clientRef: v.clientRef,
    systemRef: v.systemRef,
  };
}

/**
 * What a new virtual account of either kind is made of: made at `now` (one reading of the clock, so that it expires
 * exactly its lifetime after it was made), expiring at `expiresAt` (null: never).
 */
interface NewAccount {
  firstName: string;
  lastName: string;
  type: VirtualAccountKind;
  clientRef: string;
  now: number;
  expiresAt: number | null;
  reservedAmount: number | null;
}

/**
 * Opens a virtual account of the business in the caller's mutation: the business needs its payment account, and
 * the client's reference is one the business has not used for another virtual account of either kind.
 */
function openAccount(tx: Tx, deps: Deps, actor: Actor, business: BusinessRecord, account: NewAccount) {
  const current = tx.get('businesses', business.id);
  if (!current?.account) throw new ApiError(400, NO_PAYMENT_ACCOUNT);
  if (tx.where('virtualAccounts', 'businessId', business.id).some((v) => v.clientRef === account.clientRef)) {
    throw new ApiError(409, 'A virtual account with this reference already exists');
  }
  const record: VirtualAccountRecord = {
    id: tx.random().uuid(),
    clientId: business.clientId,
    businessId: business.id,
    accountNumber: newAccountNumber(tx, deps),
    // As the docs' example shows it: the holder's names, nothing of the business.
    accountName: `${account.firstName} ${account.lastName}`,
    firstName: account.firstName,
    lastName: account.lastName,
    type: account.type,
    clientRef: account.clientRef,
    systemRef: systemReference(tx.random()),
    createdAt: isoOf(account.now),
    expiresAt: account.expiresAt,
    reservedAmount: account.reservedAmount,
    usedBy: null,
  };
  tx.put('virtualAccounts', record);
  recordAudit(tx, deps, actor, { businessId: business.id, type: 'virtual_account', action: 'create' });
  return record;
}

/** A multi-use virtual account of the business; temporal ones expire after the configured lifetime. */
export async function createVirtualAccount(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  input: VirtualAccountInput,
): Promise<VirtualAccountView> {
  const now = deps.clock.now();
  const created = await deps.store.mutate((tx) =>
    openAccount(tx, deps, actor, business, {
      firstName: input.firstName,
      lastName: input.lastName,
      type: input.type,
      clientRef: input.reference,
      now,
      // The lifetime is the sandbox's setting, not the caller's: near the end of time it is cut short at the end.
      expiresAt: input.type === 'temporal' ? capAtEnd(now + deps.config.virtualAccountTtl * 1000) : null,
      reservedAmount: null,
    }),
  );
  return virtualAccountView(created);
}

/** A single-use virtual account: it takes one payment of exactly `amount`, and expires after `duration` seconds. */
export async function createSingleUseAccount(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  input: SingleUseInput,
): Promise<SingleUseAccountView> {
  const now = deps.clock.now();
  const expiresAt = now + input.duration * 1000;
  // The caller chose the duration, so it is refused rather than cut short: past the end of the clock's range the
  // account would expire at a time the clock never reaches and no four-digit year can name.
  if (expiresAt > END_OF_TIME_MS) {
    const message = `would expire past ${END_OF_TIME}, the end of the sandbox clock's range`;
    throw new ApiError(400, `duration is invalid: the account ${message}`, [{ field: 'duration', message }]);
  }
  const created = await deps.store.mutate((tx) =>
    openAccount(tx, deps, actor, business, {
      firstName: input.firstName,
      lastName: input.lastName,
      type: 'single_use',
      clientRef: input.refCode,
      now,
      expiresAt,
      reservedAmount: input.amount,
    }),
  );
  return {
    accountNumber: created.accountNumber,
    accountName: created.accountName,
    clientReference: created.clientRef,
    systemReference: created.systemRef,
    reservedAmount: input.amount,
    expiresAt: isoOf(expiresAt),
  };
}

/** A received payment as the suspense account's list shows it. */
function suspenseView(t: TransactionRecord): SuspenseTransactionView {
  return {
    recipientAccountNumber: t.virtualAccountNumber ?? '',
    transactionId: t.id,
    amount: String(t.amount),
    transactionCharge: String(t.charge),
    totalAmount: String(t.amount + t.charge),
    payerAccountNumber: t.counterparty?.accountNumber ?? '',
    reason: t.narration,
    date: t.createdAt,
    refundStatus: t.refundStatus ?? 'none',
  };
}

/** The payments the business's virtual accounts received (the suspense account), newest first. */
export function listSuspenseTransactions(
  deps: Pick<Deps, 'store'>,
  business: BusinessRecord,
  query: PageQuery,
): { data: SuspenseTransactionView[]; pagination: Pagination } {
  const received = deps.store
    .where('transactions', 'businessId', business.id)
    .filter((t) => t.kind === 'incoming_payment' && t.status === 'successful')
    .reverse();
  return paginate(received, query, suspenseView);
}

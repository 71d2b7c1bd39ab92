import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { makeNuban } from '../../domain/nuban.js';
import type { BusinessRecord, VirtualAccountRecord } from '../../store/records.js';
import type { Tx } from '../../store/store.js';
import { recordAudit } from '../audits/service.js';
import { NO_PAYMENT_ACCOUNT } from '../business/service.js';
import type { VirtualAccountInput, VirtualAccountView } from './schemas.js';

/** A fresh NUBAN of the home bank, unused by any account or virtual account. */
export function newAccountNumber(tx: Tx, deps: Pick<Deps, 'fixtures' | 'store'>): string {
  const bank = deps.fixtures.banks.homeBankCode;
  const taken = (n: string) =>
    tx.where('virtualAccounts', 'accountNumber', n).length > 0 ||
    deps.store.all('businesses').some((b) => b.account?.accountNumber === n);
  for (;;) {
    const candidate = makeNuban(bank, tx.random().digits(9));
    if (!taken(candidate)) return candidate;
  }
}

/** A virtual account as the API shows it. */
export function virtualAccountView(v: VirtualAccountRecord): VirtualAccountView {
  return {
    accountNumber: v.accountNumber,
    accountName: v.accountName,
    clientRef: v.clientRef,
    systemRef: v.systemRef,
    type: v.type,
    expiresAt: v.expiresAt === null ? null : new Date(v.expiresAt).toISOString(),
  };
}

/** A virtual account of the business; temporal ones expire after the configured lifetime. */
export async function createVirtualAccount(
  deps: Deps,
  actor: Actor,
  business: BusinessRecord,
  input: VirtualAccountInput,
): Promise<VirtualAccountView> {
  const created = await deps.store.mutate((tx) => {
    const current = tx.get('businesses', business.id);
    if (!current?.account) throw new ApiError(400, NO_PAYMENT_ACCOUNT);
    if (tx.where('virtualAccounts', 'businessId', business.id).some((v) => v.clientRef === input.reference)) {
      throw new ApiError(409, 'A virtual account with this reference already exists');
    }
    const now = deps.clock.now();
    const record: VirtualAccountRecord = {
      id: tx.random().uuid(),
      clientId: business.clientId,
      businessId: business.id,
      accountNumber: newAccountNumber(tx, deps),
      accountName: `${current.businessName} - ${input.firstName} ${input.lastName}`,
      firstName: input.firstName,
      lastName: input.lastName,
      type: input.type,
      clientRef: input.reference,
      systemRef: `VA${tx.random().digits(14)}`,
      createdAt: isoAt(deps.clock),
      expiresAt: input.type === 'temporal' ? now + deps.config.virtualAccountTtl * 1000 : null,
    };
    tx.put('virtualAccounts', record);
    recordAudit(tx, deps, actor, {
      businessId: business.id,
      type: 'VIRTUAL_ACCOUNT',
      action: `Created ${input.type} virtual account ${record.accountNumber}`,
    });
    return record;
  });
  return virtualAccountView(created);
}

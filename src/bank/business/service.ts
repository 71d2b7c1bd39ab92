import {
  type AccountDetailsView,
  accountFields,
  type BusinessView,
  businessFields,
  type CreatedBusinessView,
  type CustomerView,
  createdBusinessFields,
  customerFields,
} from '../../contract/api/business.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { type PageQuery, type Pagination, paginate } from '../../domain/pagination.js';
import { project } from '../../domain/projection.js';
import type { BusinessRecord, ClientRecord, CustomerRecord } from '../../domain/records.js';
import { NO_PAYMENT_ACCOUNT, newAccountNumber } from '../accounts/accounts.js';
import { recordAudit } from '../audits/service.js';

/** A business as the spec shows it. */
export function businessView(deps: Deps, b: BusinessRecord): BusinessView {
  const state = deps.fixtures.states.find((s) => s.id === b.stateId);
  return project(b, businessFields, {
    state: state ? { id: state.id, name: state.name } : null,
    clientId: b.clientId,
  });
}

/** The business's payment account details; 400 when it has none yet. */
export function accountDetailsOf(business: BusinessRecord): AccountDetailsView {
  if (!business.account) throw new ApiError(400, NO_PAYMENT_ACCOUNT);
  return project(business.account, accountFields, {
    businessId: business.id,
    accountBalance: String(business.balance),
  });
}

export function listBusinesses(
  deps: Deps,
  client: ClientRecord,
  query: PageQuery,
): { data: BusinessView[]; pagination: Pagination } {
  return paginate(deps.store.where('businesses', 'clientId', client.id), query, (b) => businessView(deps, b));
}

export interface NewBusiness {
  businessName: string;
  countryId: string;
  isNewBusiness: boolean;
}

/**
 * A new business of the client: not approved, no payment account, balance 0. Its registration OTP is sent when a
 * BVN is validated for it (`validateBvn`), as the docs' flow has it.
 */
export async function createBusiness(
  deps: Deps,
  actor: Actor,
  client: ClientRecord,
  input: NewBusiness,
): Promise<CreatedBusinessView> {
  const duplicate = deps.store
    .where('businesses', 'clientId', client.id)
    .some((b) => b.businessName.toLowerCase() === input.businessName.toLowerCase());
  if (duplicate) throw new ApiError(409, 'A business with this name already exists');
  const business = await deps.store.mutate((tx) => {
    const record: BusinessRecord = {
      id: tx.random().uuid(),
      clientId: client.id,
      businessName: input.businessName,
      bvn: '',
      photoIdUrl: '',
      businessDocumentsUrls: [],
      isApproved: false,
      residentialAddress: '',
      stateId: '',
      countryId: input.countryId,
      isNewBusiness: input.isNewBusiness,
      createdAt: isoAt(deps.clock),
      account: null,
      openingBalance: 0,
      balance: 0,
    };
    tx.put('businesses', record);
    recordAudit(tx, deps, actor, {
      businessId: record.id,
      type: 'business',
      action: 'create',
    });
    return record;
  });
  return { business: project(business, createdBusinessFields) };
}

const customerView = (c: CustomerRecord): CustomerView => project(c, customerFields);

export function listCustomers(
  deps: Deps,
  business: BusinessRecord,
  query: PageQuery,
): { data: CustomerView[]; pagination: Pagination } {
  return paginate(deps.store.where('customers', 'businessId', business.id), query, customerView);
}

/** The operator approves a business (control API): its payment account opens with a fresh NUBAN, balance kept. */
export async function approveBusiness(deps: Deps, id: string) {
  const business = await deps.store.mutate((tx) => {
    const current = tx.get('businesses', id);
    if (!current) throw new ApiError(404, 'Business not found');
    if (current.isApproved && current.account) return current;
    const approved: BusinessRecord = {
      ...current,
      isApproved: true,
      account: {
        accountNumber: newAccountNumber(tx, deps),
        accountType: 'current',
        customerId: tx.random().digits(7),
      },
    };
    tx.put('businesses', approved);
    return approved;
  });
  return { businessId: business.id, isApproved: business.isApproved, ...(business.account ?? {}) };
}

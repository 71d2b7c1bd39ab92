import type { RouteContract } from '../kit.js';
import { getAuditLogContract, listAuditLogsContract } from './audits.js';
import { signInContract } from './auth.js';
import {
  createBulkTransferContract,
  getBulkTransferContract,
  listBulkTransfersContract,
  processBulkTransferContract,
  reprocessBulkTransferContract,
} from './bulk.js';
import {
  completeBusinessRegistrationContract,
  createBusinessContract,
  getAccountDetailsContract,
  getBusinessDetailsContract,
  listBusinessesContract,
  listCustomersContract,
  validateBvnContract,
} from './business.js';
import { createDisputeContract, getDisputeContract, listDisputesContract } from './disputes.js';
import {
  completeMemberRegistrationContract,
  inviteMemberContract,
  listMemberRolesContract,
  listMembersContract,
  updateMemberContract,
} from './members.js';
import {
  createPayoutAccountContract,
  deletePayoutAccountContract,
  listPayoutAccountsContract,
  updatePayoutAccountContract,
} from './payouts.js';
import {
  configureBillersContract,
  getApiKeysContract,
  listBillersContract,
  updateWebhookUrlContract,
} from './settings.js';
import { createSubscriptionContract, listSubscriptionsContract } from './subscriptions.js';
import { anonymousTransferContract, transferContract } from './transfers.js';
import {
  createSingleUseVirtualAccountContract,
  createVirtualAccountContract,
  listSuspenseTransactionsContract,
} from './virtual-accounts.js';

/**
 * Every operation of the bank's API, in the order its document lists them: the `/api/v1` door implements each
 * (`src/api/`), the document, the client and the generated tests read this list.
 */
export const apiContracts: readonly RouteContract[] = [
  signInContract,
  getApiKeysContract,
  updateWebhookUrlContract,
  listBillersContract,
  configureBillersContract,
  getBusinessDetailsContract,
  getAccountDetailsContract,
  listCustomersContract,
  listBusinessesContract,
  createBusinessContract,
  validateBvnContract,
  completeBusinessRegistrationContract,
  transferContract,
  anonymousTransferContract,
  createBulkTransferContract,
  listBulkTransfersContract,
  processBulkTransferContract,
  reprocessBulkTransferContract,
  getBulkTransferContract,
  listPayoutAccountsContract,
  createPayoutAccountContract,
  updatePayoutAccountContract,
  deletePayoutAccountContract,
  createDisputeContract,
  listDisputesContract,
  getDisputeContract,
  listAuditLogsContract,
  getAuditLogContract,
  createVirtualAccountContract,
  createSingleUseVirtualAccountContract,
  listSuspenseTransactionsContract,
  listSubscriptionsContract,
  createSubscriptionContract,
  listMemberRolesContract,
  listMembersContract,
  inviteMemberContract,
  completeMemberRegistrationContract,
  updateMemberContract,
];

import type { RouteContract } from '../kit.js';
import { accountNumbersContract } from './account-numbers.js';
import { getBatchContract, listBatchesContract, reprocessBatchContract } from './bulk-transfers.js';
import { createClientContract, credentialsContract, rotateSecretContract } from './clients.js';
import { advanceClockContract, freezeClockContract, getClockContract } from './clock.js';
import { dashboardContract, dashboardEventsContract } from './dashboard.js';
import { rejectDisputeContract, resolveDisputeContract } from './disputes.js';
import { clearDriftContract, driftContract } from './drift.js';
import { incomingPaymentContract } from './incoming-payments.js';
import { approveBusinessContract, ledgerContract, setBalanceContract } from './money.js';
import { outboxContract } from './outbox.js';
import {
  clearRequestsContract,
  getRequestContract,
  requestsContract,
  requestsHarContract,
  searchRequestsContract,
  verifyRequestsContract,
} from './requests.js';
import { refundPaymentContract, reverseTransferContract } from './reversals.js';
import {
  drainContract,
  healthContract,
  metricsContract,
  openapiControlContract,
  resetContract,
} from './sandbox.js';
import { createSandboxContract, deleteSandboxContract, listSandboxesContract } from './sandboxes.js';
import {
  addScenarioRulesContract,
  getScenarioContract,
  listScenariosContract,
  resetScenarioContract,
  setScenarioContract,
} from './scenarios.js';
import { exportStateContract, importStateContract } from './state.js';
import { addSubscriptionContract } from './subscriptions.js';
import { listVirtualAccountsContract } from './virtual-accounts.js';
import { getDeliveryContract, listDeliveriesContract, redeliverContract } from './webhooks.js';

/**
 * Everything under `/__sandbox`, in the order the control document lists it. The control door implements most; the
 * dashboard (`/ui`) and the documents (`/openapi.json`) are doors of their own that implement theirs.
 */
export const controlContracts: readonly RouteContract[] = [
  healthContract,
  metricsContract,
  openapiControlContract,
  resetContract,
  drainContract,
  createSandboxContract,
  listSandboxesContract,
  deleteSandboxContract,
  dashboardContract,
  dashboardEventsContract,
  credentialsContract,
  createClientContract,
  rotateSecretContract,
  exportStateContract,
  importStateContract,
  setBalanceContract,
  approveBusinessContract,
  ledgerContract,
  accountNumbersContract,
  addSubscriptionContract,
  incomingPaymentContract,
  refundPaymentContract,
  reverseTransferContract,
  outboxContract,
  resolveDisputeContract,
  rejectDisputeContract,
  listBatchesContract,
  getBatchContract,
  reprocessBatchContract,
  listVirtualAccountsContract,
  listDeliveriesContract,
  getDeliveryContract,
  redeliverContract,
  requestsContract,
  searchRequestsContract,
  verifyRequestsContract,
  requestsHarContract,
  getRequestContract,
  clearRequestsContract,
  driftContract,
  clearDriftContract,
  getClockContract,
  advanceClockContract,
  freezeClockContract,
  getScenarioContract,
  listScenariosContract,
  setScenarioContract,
  addScenarioRulesContract,
  resetScenarioContract,
];

import { signInContract } from '../contract/api/auth.js';
import { createClientContract, credentialsContract } from '../contract/control/clients.js';
import { advanceClockContract, freezeClockContract, getClockContract } from '../contract/control/clock.js';
import { clearDriftContract, driftContract } from '../contract/control/drift.js';
import { incomingPaymentContract } from '../contract/control/incoming-payments.js';
import { ledgerContract } from '../contract/control/money.js';
import {
  clearRequestsContract,
  searchRequestsContract,
  verifyRequestsContract,
} from '../contract/control/requests.js';
import { DRAIN_TIMEOUT_MS, drainContract, resetContract } from '../contract/control/sandbox.js';
import { resetScenarioContract, setScenarioContract } from '../contract/control/scenarios.js';
import { addSubscriptionContract } from '../contract/control/subscriptions.js';
import { MAX_LONG_PAGE } from '../domain/pagination.js';
import { DrainTimeoutError, SandboxError, VerificationError } from '../errors.js';
import { contractCaller, type Transport } from './call.js';
import type {
  BusinessChoice,
  ClientCredentials,
  ClientLogin,
  SandboxHandle,
  SchemeBHeaders,
} from './handle.js';

export type { Transport } from './call.js';

/** The business the headers name: the one given, or the client's first approved one. */
function businessIdOf(client: ClientLogin, business: BusinessChoice | undefined): string {
  if (typeof business === 'string') return business;
  if (business) return business.id;
  const chosen = client.businesses.find((b) => b.isApproved) ?? client.businesses[0];
  if (!chosen) throw new SandboxError(`client ${client.email} has no business: name one`, 400);
  return chosen.id;
}

/** The journal (`requests`, `verify`), the credential headers and the ledger and plans of a business, over HTTP. */
function journalAndAuth(
  transport: Transport,
  where: string,
): Pick<
  SandboxHandle,
  | 'requests'
  | 'clearRequests'
  | 'verify'
  | 'signIn'
  | 'schemeB'
  | 'ledger'
  | 'addSubscription'
  | 'drift'
  | 'clearDrift'
> {
  const control = contractCaller(transport, where, 'control');
  const api = contractCaller(transport, where, 'api');
  return {
    ledger: (businessId, query = {}) => control.data(ledgerContract, { params: { id: businessId }, query }),
    drift: () => control.data(driftContract, {}),
    clearDrift: () => control.done(clearDriftContract, {}),
    addSubscription: (businessId, plan) =>
      control.data(addSubscriptionContract, { params: { id: businessId }, body: plan }),
    requests: (filter = {}) => control.page(searchRequestsContract, { body: filter }),
    clearRequests: async () => (await control.data(clearRequestsContract, {})).deleted,
    verify: (expectation) =>
      control.data(verifyRequestsContract, {
        body: expectation,
        // A verification that does not hold: the count, what was expected and the nearest entries, as data.
        refused: ({ status, message, data }) =>
          status === 409 && data
            ? new VerificationError(message, data.count, data.expected, data.nearest)
            : undefined,
      }),
    signIn: async (client, business) => {
      const businessId = businessIdOf(client, business);
      const { accessToken } = await api.data(signInContract, {
        body: { email: client.email, password: client.password },
      });
      return { authorization: `Bearer ${accessToken}`, SECRET_KEY: client.secretKey, businessId };
    },
    schemeB: (client, business): SchemeBHeaders => ({
      'x-api-key': client.publicKey,
      'x-api-secret': client.secretKey,
      businessId: businessIdOf(client, business),
    }),
  };
}

/**
 * Every method of the handle over the control API. `close()` closes nothing: the sandbox is not ours. In-process,
 * with the app's own `request()` as transport, `startSandbox()` takes the journal, the credential headers and the
 * scenario from here, so that those have one implementation.
 */
export function handleOverHttp(url: string, transport: Transport): SandboxHandle {
  const control = contractCaller(transport, url, 'control');
  return {
    url,
    ...journalAndAuth(transport, url),
    // Every client, a page at a time: one answer stays small however many clients tests made.
    credentials: async () => {
      const clients: ClientCredentials[] = [];
      for (let page = 1; ; page++) {
        const answer = await control.data(credentialsContract, { query: { limit: MAX_LONG_PAGE, page } });
        clients.push(...answer.clients);
        if (!answer.pagination.hasNextPage) return clients;
      }
    },
    newClient: (options = {}) => control.data(createClientContract, { body: options }),
    incomingPayment: (payment) => control.data(incomingPaymentContract, { body: payment }),
    setScenario: async (scenario) => {
      if (scenario === null) await control.data(resetScenarioContract);
      else
        await control.data(setScenarioContract, {
          body: typeof scenario === 'string' ? { name: scenario } : scenario,
        });
    },
    clock: {
      advance: async (ms) => {
        await control.data(advanceClockContract, { body: { ms } });
      },
      freeze: async (frozen = true) => {
        await control.data(freezeClockContract, { body: { frozen } });
      },
      get: () => control.data(getClockContract),
    },
    drain: ({ timeoutMs } = {}) =>
      control.done(drainContract, {
        // Only what was asked: the sandbox's own default stands otherwise.
        query: timeoutMs === undefined ? {} : { timeoutMs },
        // A drain that gave up: the timeout asked for (the sandbox's default when none was), what is still waiting.
        refused: ({ status, message, waiting }) =>
          status === 408 && waiting
            ? new DrainTimeoutError(timeoutMs ?? DRAIN_TIMEOUT_MS, waiting, message)
            : undefined,
      }),
    reset: ({ keepRequests = false } = {}) =>
      control.done(resetContract, { query: keepRequests ? { keep: 'requests' } : {} }),
    close: async () => undefined,
  };
}

import { signInContract } from '../contract/api/auth.js';
import { accountNumbersContract } from '../contract/control/account-numbers.js';
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
import { refundPaymentContract, reverseTransferContract } from '../contract/control/reversals.js';
import { DRAIN_TIMEOUT_MS, drainContract, resetContract } from '../contract/control/sandbox.js';
import {
  createSandboxContract,
  deleteSandboxContract,
  listSandboxesContract,
} from '../contract/control/sandboxes.js';
import {
  addScenarioRulesContract,
  resetScenarioContract,
  setScenarioContract,
} from '../contract/control/scenarios.js';
import { addSubscriptionContract } from '../contract/control/subscriptions.js';
import { API_PREFIX, sandboxPath } from '../contract/mounts.js';
import { MAX_LONG_PAGE } from '../domain/pagination.js';
import { ControlApiError, DrainTimeoutError, SandboxError, VerificationError } from '../errors.js';
import { type ContractCaller, contractCaller, type Transport } from './call.js';
import type {
  BusinessChoice,
  ClientCredentials,
  ClientLogin,
  IsolatedParts,
  NewClientCredentials,
  SandboxHandle,
  ScenarioRuleInput,
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
  | 'accountNumbers'
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
    accountNumbers: async (bankCode, count = 1) =>
      (await control.data(accountNumbersContract, { query: { bankCode, count } })).accountNumbers,
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
 * A new client's credentials with `scenarioRules()`, which puts rules in front of the scenario scoped to it:
 * `add` sends them (`POST /__sandbox/scenario/rules`). Not enumerable, so the credentials compare and serialise as
 * they are.
 */
export function withScenarioRules<C extends { clientId: string }>(
  client: C,
  add: (rules: ScenarioRuleInput[]) => Promise<unknown>,
): C & Pick<NewClientCredentials, 'scenarioRules'> {
  const scenarioRules = async (rules: ScenarioRuleInput[]) => {
    const scoped = rules.map((rule, i) => {
      const given = rule.match?.clientId;
      if (given !== undefined && given !== client.clientId)
        throw new SandboxError(
          `scenarioRules(): rule ${i} names client ${given}; these rules are scoped to client ${client.clientId}`,
          400,
        );
      return { ...rule, match: { ...rule.match, clientId: client.clientId } };
    });
    await add(scoped);
  };
  return Object.defineProperty(client, 'scenarioRules', { value: scenarioRules, enumerable: false }) as C &
    Pick<NewClientCredentials, 'scenarioRules'>;
}

/** Puts rules in front of the scenario over the control API (`POST /__sandbox/scenario/rules`). */
export function scenarioRulesOverHttp(where: string, transport: Transport) {
  const control = contractCaller(transport, where, 'control');
  return (rules: ScenarioRuleInput[]) => control.data(addScenarioRulesContract, { body: { rules } });
}

/**
 * Deletes the isolated sandbox `id` (`DELETE /__sandbox/sandboxes/{id}`, through the control API of the world that
 * made it). Twice, or after the sandbox was deleted (or dropped when idle) by other means, is done all the same.
 */
export function disposerOf(control: ContractCaller, id: string): () => Promise<void> {
  return () =>
    control.done(deleteSandboxContract, { params: { id } }).catch((error: unknown) => {
      if (!(error instanceof ControlApiError && error.status === 404)) throw error;
    });
}

/**
 * Every method of the handle over the control API. `close()` closes nothing: the sandbox is not ours. In process,
 * the transport is the app's own `request()` (`inProcessHandle`): one implementation of every control, the same
 * answers and errors whichever way a sandbox is reached.
 */
export function handleOverHttp(url: string, transport: Transport): SandboxHandle {
  const control = contractCaller(transport, url, 'control');
  const addRules = scenarioRulesOverHttp(url, transport);
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
    newClient: async (options = {}) =>
      withScenarioRules(await control.data(createClientContract, { body: options }), addRules),
    incomingPayment: (payment) => control.data(incomingPaymentContract, { body: payment }),
    reverseTransfer: (id, retrievalReference, options = {}) =>
      control.data(reverseTransferContract, { params: { id, retrievalReference }, body: options }),
    refundPayment: (transactionReference, options = {}) =>
      control.data(refundPaymentContract, { params: { transactionReference }, body: options }),
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
    isolate: async (options = {}) => {
      const made = await control.data(createSandboxContract, { body: options });
      const prefix = sandboxPath(made.id);
      const dispose = disposerOf(control, made.id);
      const handle = handleOverHttp(`${url}${prefix}`, (path, init) => transport(`${prefix}${path}`, init));
      // By the URL this handle reaches the sandbox at (a proxy's path included), not the one the sandbox saw.
      const own: IsolatedParts = { id: made.id, apiUrl: `${url}${prefix}${API_PREFIX}`, dispose };
      return { ...handle, ...own, close: dispose };
    },
    sandboxes: {
      list: () => control.data(listSandboxesContract),
      delete: (id) => control.done(deleteSandboxContract, { params: { id } }),
    },
    close: async () => undefined,
  };
}

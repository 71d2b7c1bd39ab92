import type { NewSubscription, SubscriptionView } from '../contract/api/subscriptions.js';
import type {
  ClientCredentialsView,
  NewClient,
  NewClientCredentialsView,
} from '../contract/control/clients.js';
import type { ClockView } from '../contract/control/clock.js';
import type { DriftReportView } from '../contract/control/drift.js';
import type { IncomingPayment, PaymentReceivedView } from '../contract/control/incoming-payments.js';
import type { LedgerFilter, LedgerView } from '../contract/control/money.js';
import type {
  RequestEntryView,
  RequestSearchInput,
  RequestVerification,
  VerificationResultView,
} from '../contract/control/requests.js';
import type { RefundView, ReversalView } from '../contract/control/reversals.js';
import type { NewSandbox, SandboxSummaryView } from '../contract/control/sandboxes.js';
import type { Scenario, ScenarioRule } from '../contract/scenarios.js';

export type {
  RequestEntryView,
  RequestFilter,
  RequestSearchInput,
  RequestVerification,
  StatusFilter,
} from '../contract/control/requests.js';
/** What a verification that holds answers (200): the count and what was expected. */
export type VerificationView = VerificationResultView;

/** A business's ledger (`GET /__sandbox/businesses/{id}/ledger`): its balances and entries, newest first. */
export type Ledger = LedgerView;
/** A subscription plan, as `GET /api/v1/clients/business/subscriptions` lists it. */
export type Subscription = SubscriptionView;
export type { LedgerFilter, NewSubscription };

/**
 * With `--upstream`, where the upstream's answers differed from the routes the sandbox emulates
 * (`GET /__sandbox/drift`): per route, the calls, the statuses and each finding once, counted.
 */
export type DriftReport = DriftReportView;

/** One client's logins, keys, businesses and members (an entry of `GET /__sandbox/credentials`). */
export type ClientCredentials = ClientCredentialsView;

/** A scenario rule as a test writes it (`match` may be left out). */
export type ScenarioRuleInput = Omit<ScenarioRule, 'match'> & { match?: ScenarioRule['match'] };

/**
 * A fresh client (`newClient()`): its credentials and a permanent virtual account ready to pay into, and
 * `scenarioRules()` (not enumerable: the credentials compare and serialise as they are).
 */
export type NewClientCredentials = NewClientCredentialsView & {
  /**
   * Puts rules in front of the active scenario that touch this client alone (`match.clientId` is set to its id), so
   * parallel tests that share one sandbox, a client each, script failures without meeting. Cleared like any rules
   * put in front (`setScenario(null)`, a reset).
   */
  scenarioRules(rules: ScenarioRuleInput[]): Promise<void>;
};

/** An isolated sandbox as `GET /__sandbox/sandboxes` lists it. */
export type IsolatedSandboxSummary = SandboxSummaryView;

/** The isolated sandboxes of the process, as the root's control API lists and deletes them. */
export interface IsolatedSandboxes {
  /** Every isolated sandbox, the oldest first. */
  list(): Promise<IsolatedSandboxSummary[]>;
  /** Deletes one, with its queued work; its paths answer 404 from then on. */
  delete(id: string): Promise<void>;
}

/** What `isolate()` takes: the isolated sandbox's id, seed, start-up scenario and frozen start time, each optional. */
export type IsolateOptions = NewSandbox;

/**
 * What `isolate()` adds to a handle: the isolated sandbox's id, its API's base URL (point the app at it), and
 * `dispose()`, which deletes it (as does `close()`).
 */
export interface IsolatedParts {
  readonly id: string;
  /** The bank's API of this sandbox: `…/sandboxes/{id}/api/v1`. */
  readonly apiUrl: string;
  /** Deletes the isolated sandbox, with its queued work. */
  dispose(): Promise<void>;
}

/** What `signIn()` and `schemeB()` need of a client: `credentials()` and `newClient()` entries both fit. */
export type ClientLogin = Pick<
  ClientCredentials,
  'email' | 'password' | 'publicKey' | 'secretKey' | 'businesses'
>;

/** Which business the headers name: its id, or an entry of `client.businesses`. */
export type BusinessChoice = string | { id: string };

/** Scheme A: a signed-in user's token, the client's `SECRET_KEY`, and a `businessId`. */
export interface SchemeAHeaders {
  authorization: string;
  SECRET_KEY: string;
  businessId: string;
  [header: string]: string;
}

/** Scheme B: the client's key pair and a `businessId`. */
export interface SchemeBHeaders {
  'x-api-key': string;
  'x-api-secret': string;
  businessId: string;
  [header: string]: string;
}

/** The virtual clock, as the handle drives it. */
export interface SandboxClock {
  /** Moves the clock `ms` forward and runs everything that comes due in the window, in time order. */
  advance(ms: number): Promise<void>;
  /** Stops the clock where it stands (`true`, the default), or lets it run again from there (`false`). */
  freeze(frozen?: boolean): Promise<void>;
  /** Where the clock stands: what `GET /__sandbox/clock` answers. */
  get(): Promise<ClockView>;
}

/**
 * A sandbox as a test drives it, the same whichever way it runs: `startSandbox()` in the test's own process,
 * `connectSandbox(url)` for one in a container or another process. Every failure is a `SandboxError` with the
 * status and message the control API answers for it.
 */
export interface SandboxHandle {
  /** Base URL of the sandbox, without `/api/v1`. */
  readonly url: string;
  /** Every client's logins, keys, businesses and members, from the live state. */
  credentials(): Promise<ClientCredentials[]>;
  /**
   * A fresh client of its own (keys, an approved funded business, members, and a permanent virtual account of the
   * business in `virtualAccount`): parallel tests never meet. A bad option is a `SandboxError` (status 400) naming it.
   */
  newClient(options?: NewClient): Promise<NewClientCredentials>;
  /** Money arrives on a virtual account; its webhook is sent (see `drain`). */
  incomingPayment(payment: IncomingPayment): Promise<PaymentReceivedView>;
  /**
   * Reverses a successful transfer (or a `completed` bulk item) of a business, by its `retrievalReference`
   * (`POST /__sandbox/businesses/{id}/transfers/{ref}/reverse`): its amount and charge come back to the balance.
   * Already reversed, or not successful: a `SandboxError` (409); unknown: 404.
   */
  reverseTransfer(
    businessId: string,
    retrievalReference: string,
    options?: { reason?: string; bulkTransferId?: string },
  ): Promise<ReversalView>;
  /**
   * Refunds an incoming payment now (`POST /__sandbox/incoming-payments/{ref}/refund`): what it credited is
   * debited back. Already refunded, or a balance that cannot cover it: a `SandboxError` (409); unknown: 404.
   */
  refundPayment(transactionReference: string, options?: { reason?: string }): Promise<RefundView>;
  /**
   * A page of a business's ledger, newest first (`page`, `limit`: 100 entries by default, at most 1000).
   * `{retrievalReference}` finds the entry of one transfer: its `id` is the transaction reference a dispute names,
   * and a failed one keeps its `errorCode`.
   */
  ledger(businessId: string, query?: LedgerFilter): Promise<Ledger>;
  /** Adds a subscription plan to a business (`GET /api/v1/clients/business/subscriptions` lists it). */
  addSubscription(businessId: string, plan: NewSubscription): Promise<Subscription>;
  /**
   * `count` (default 1, at most 100) receiver account numbers of a bank the sandbox lists, each with the right NUBAN
   * check digit for `bankCode` (`GET /__sandbox/account-numbers`): the first of the bank's sequence, the same in
   * every run. A bank code the sandbox does not list is a `SandboxError` (400), as a transfer to it would be.
   */
  accountNumbers(bankCode: string, count?: number): Promise<string[]>;
  /** Makes a ready scenario (by name) or a scenario object the active one; `null` goes back to the start-up one. */
  setScenario(scenario: string | Scenario | null): Promise<void>;
  /** The virtual clock. */
  readonly clock: SandboxClock;
  /**
   * Resolves once background work is idle and every acknowledged change is on disk; after `timeoutMs` (default
   * 30 000) rejects with a `DrainTimeoutError` naming what is still waiting.
   */
  drain(options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Back to the fixtures: the state, the queues, the start-up scenario, the clock, and the request journal emptied
   * (`keepRequests: true` keeps it). The drift report is kept (`clearDrift()`).
   */
  reset(options?: { keepRequests?: boolean }): Promise<void>;
  /** Empties the request journal alone, and answers how many entries went (ids go on from where they were). */
  clearRequests(): Promise<number>;
  /** The request journal's entries that match, newest first (one page: `page`, `limit`). */
  requests(filter?: RequestSearchInput): Promise<RequestEntryView[]>;
  /** Resolves when as many requests match as expected; rejects with a `VerificationError` otherwise. */
  verify(expectation: RequestVerification): Promise<VerificationView>;
  /** With `--upstream`: how the upstream's answers differed from the routes (empty without it). */
  drift(): Promise<DriftReport>;
  /** Empties the drift report, to measure one run on its own. */
  clearDrift(): Promise<void>;
  /**
   * Signs the client's owner in and answers scheme A headers (`authorization`, `SECRET_KEY`, `businessId`) for the
   * business (default: the client's first approved one). The sign-in is a request like any other: it is journaled.
   */
  signIn(client: ClientLogin, business?: BusinessChoice): Promise<SchemeAHeaders>;
  /** Scheme B headers (`x-api-key`, `x-api-secret`, `businessId`) of the client for the business (as `signIn`). */
  schemeB(client: ClientLogin, business?: BusinessChoice): SchemeBHeaders;
  /**
   * A new isolated sandbox of the same process (`POST /__sandbox/sandboxes`): a world of its own, with nothing
   * shared but the process, built from the same fixtures. Answers a handle of the same kind bound to it (its `url`
   * is `…/sandboxes/{id}`), with its `apiUrl` and `dispose()`.
   */
  isolate(options?: IsolateOptions): Promise<SandboxHandle & IsolatedParts>;
  /** The isolated sandboxes of the process (`GET /__sandbox/sandboxes`, `DELETE /__sandbox/sandboxes/{id}`). */
  readonly sandboxes: IsolatedSandboxes;
  /**
   * `startSandbox()`: stops the server and flushes the state. `connectSandbox()`: nothing on the sandbox, which
   * keeps running (stop its container or process yourself). An isolated sandbox's handle: deletes it (`dispose()`).
   */
  close(): Promise<void>;
}

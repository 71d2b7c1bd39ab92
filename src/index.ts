/**
 * The programmatic API: start a sandbox from a test suite, or drive one that runs elsewhere.
 *
 * ```ts
 * const sandbox = await startSandbox();              // memory store, a free port
 * // or: const sandbox = connectSandbox('http://localhost:4010');   // the same handle, over the control API
 * const me = await sandbox.newClient();              // keys, a funded business, a virtual account of its own
 * const headers = await sandbox.signIn(me);          // scheme A headers for the app's requests
 * await sandbox.verify({ method: 'POST', path: '/funds/transfer', atLeast: 1 });   // what the app sent
 * await sandbox.close();
 * ```
 */

export { type ConnectOptions, connectSandbox } from './client/connect.js';
export type {
  BusinessChoice,
  ClientLogin,
  DriftReport,
  Ledger,
  LedgerFilter,
  NewSubscription,
  RequestEntryView,
  RequestFilter,
  RequestSearchInput,
  RequestVerification,
  SandboxClock,
  SandboxHandle,
  SchemeAHeaders,
  SchemeBHeaders,
  StatusFilter,
  Subscription,
  VerificationView,
} from './client/handle.js';
export { type Config, ConfigError, type ConfigInput, resolveConfig } from './config.js';
export type { NewClient } from './contract/control/clients.js';
export type { IncomingPayment } from './contract/control/incoming-payments.js';
export type { RefundView, ReversalView } from './contract/control/reversals.js';
export type {
  WaitingBatch,
  WaitingDelivery,
  WaitingItem,
  WaitingWork,
} from './contract/control/sandbox.js';
export type { Scenario } from './contract/scenarios.js';
export type { Clock, ClockState, VirtualClock } from './domain/clock.js';
export {
  ControlApiError,
  DrainTimeoutError,
  SandboxError,
  SandboxUnreachableError,
  VerificationError,
} from './errors.js';
export {
  type ClientCredentials,
  createSandbox,
  type NewClientCredentials,
  type RunningSandbox,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
  version,
} from './sandbox.js';
export { ScenarioError } from './scenarios/library.js';
export { FixtureError } from './store/fixtures.js';
export {
  StateFileError,
  StateFileInUseError,
  StateLockPathError,
  StateTakenOverError,
  StoreWriteError,
} from './store/write-error.js';

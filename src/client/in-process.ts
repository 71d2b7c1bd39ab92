import { createClientContract } from '../contract/control/clients.js';
import { createSandboxContract } from '../contract/control/sandboxes.js';
import { API_PREFIX, CONTROL_PREFIX, sandboxPath } from '../contract/mounts.js';
import { contractCaller, type Transport } from './call.js';
import type { IsolatedParts, IsolateOptions, SandboxHandle } from './handle.js';
import { disposerOf, handleOverHttp, scenarioRulesOverHttp, withScenarioRules } from './over-http.js';

/** Every control of a handle: all of `SandboxHandle` but its URL, its clock, `isolate()` and `close()`. */
export type Controls = Omit<SandboxHandle, 'url' | 'clock' | 'isolate' | 'close'>;

/**
 * A world's handle in this process: what it holds directly (`P`: the world's app, store and clock), and every
 * control of the HTTP handle.
 */
export type InProcess<P> = P &
  Controls & {
    isolate(options?: IsolateOptions): Promise<InProcess<P> & IsolatedParts>;
    close(): Promise<void>;
  };

/** The process the worlds' handles share: its app, its control token, and the direct parts of each world. */
export interface InProcessApp<P> {
  /**
   * The app's own `request()`: a path from the process's root, answered in this process. `recorded` false: the call
   * is the test's own, answered but neither journaled nor given a request line.
   */
  request: (path: string, init: RequestInit, recorded: boolean) => Response | Promise<Response>;
  /** Sent as `x-sandbox-token` on every control call, as `connectSandbox()` sends it. */
  controlToken: string | undefined;
  /** What the handle of the isolated sandbox `id` holds directly. */
  partsOf: (id: string) => P;
}

/**
 * The handle of world `id` (null: the root) of this process: `parts` as they are, and every control the HTTP
 * handle's (`handleOverHttp`) over a transport that is the app's `request()` under the world's prefix, so that a
 * control has one implementation and the same answers and errors in process as over HTTP. `close` is the handle's.
 */
export function inProcessHandle<P extends object>(
  app: InProcessApp<P>,
  id: string | null,
  parts: P,
  close: () => Promise<void>,
): InProcess<P> {
  const prefix = id === null ? '' : sandboxPath(id);
  const where = id === null ? 'the sandbox in this process' : `isolated sandbox ${id} in this process`;
  const transport =
    (recorded: boolean): Transport =>
    (path, init) => {
      const headers = new Headers(init.headers);
      if (app.controlToken && path.startsWith(CONTROL_PREFIX))
        headers.set('x-sandbox-token', app.controlToken);
      return Promise.resolve(app.request(`${prefix}${path}`, { ...init, headers }, recorded));
    };
  // Its URL is the HTTP handle's name for it in errors, not a URL; its clock is the world's own, held directly.
  const {
    url: _url,
    clock: _clock,
    isolate: _isolate,
    close: _close,
    ...controls
  } = handleOverHttp(where, transport(true));
  // A test's own set-up and waiting (the credentials, a fresh client, money arriving, a drain, a new sandbox and its
  // deletion) is not what its app sent: answered, never in the journal, which holds the app's calls and the
  // controls that act as the bank would (a scenario, a reversal, a ledger read).
  const own = transport(false);
  const ownControl = contractCaller(own, where, 'control');
  const ownHandle = handleOverHttp(where, own);
  const addRules = scenarioRulesOverHttp(where, transport(true));
  return {
    ...parts,
    ...controls,
    credentials: ownHandle.credentials,
    newClient: async (options = {}) =>
      withScenarioRules(await ownControl.data(createClientContract, { body: options }), addRules),
    incomingPayment: ownHandle.incomingPayment,
    drain: ownHandle.drain,
    isolate: async (options = {}) => {
      // Made as over HTTP (`POST /__sandbox/sandboxes`: inside an isolated sandbox, the route refuses it).
      const made = await ownControl.data(createSandboxContract, { body: options });
      const dispose = disposerOf(ownControl, made.id);
      const handle = inProcessHandle(app, made.id, app.partsOf(made.id), dispose);
      const isolated: IsolatedParts = {
        id: made.id,
        apiUrl: `${sandboxPath(made.id)}${API_PREFIX}`,
        dispose,
      };
      return { ...handle, ...isolated };
    },
    close,
  };
}

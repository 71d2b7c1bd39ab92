import type { Deps } from '../deps.js';
import type { Engines } from '../engine/engines.js';
import { implementer } from '../http/route.js';
import type { ControlHooks } from './hooks.js';

/** What the control API gives its handlers: the bank's deps and engines, and the sandbox's own controls. */
export interface ControlRuntime {
  deps: Deps;
  engines: Engines;
  control: ControlHooks;
}

/** Joins a contract of the control API (`src/contract/control/`) to its handler. */
export const route = implementer<ControlRuntime>();

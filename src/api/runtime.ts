import type { Deps } from '../deps.js';
import type { Engines } from '../engine/engines.js';
import { implementer } from '../http/route.js';

/** What the bank's API gives its handlers: the shared deps and the background engines, nothing of the sandbox's own. */
export interface ApiRuntime {
  deps: Deps;
  engines: Engines;
}

/** Joins a contract of the bank's API (`src/contract/api/`) to its handler. */
export const route = implementer<ApiRuntime>();

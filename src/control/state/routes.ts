import { exportStateContract, importStateContract } from '../../contract/control/state.js';
import { DONE } from '../../contract/kit.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';
import { stateStream } from './export-stream.js';
import { importState } from './service.js';

/** `/state`: the whole state out, and back in. */
export const stateRoutes: Route<ControlRuntime>[] = [
  route(exportStateContract, ({ deps }) => ({
    response: new Response(stateStream(deps.store.exportState()), {
      headers: { 'content-type': 'application/json' },
    }),
  })),
  route(importStateContract, async ({ deps, engines, text }) => {
    await importState(deps, text);
    // What the imported state has due later runs at its moment; what the replaced one had is gone with it.
    engines.later.clear();
    engines.later.resume();
    return DONE;
  }),
];

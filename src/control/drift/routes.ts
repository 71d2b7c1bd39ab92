import { clearDriftContract, driftContract } from '../../contract/control/drift.js';
import { DONE } from '../../contract/kit.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';

/** `/drift`: with `--upstream`, where the real bank's answers differ from the routes the sandbox emulates. */
export const driftRoutes: Route<ControlRuntime>[] = [
  route(driftContract, ({ control }) => ({ data: control.drift.view() })),
  route(clearDriftContract, ({ control }) => {
    control.drift.clear();
    return DONE;
  }),
];

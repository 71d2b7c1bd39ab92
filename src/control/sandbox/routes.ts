import {
  drainContract,
  healthContract,
  metricsContract,
  resetContract,
} from '../../contract/control/sandbox.js';
import { DONE } from '../../contract/kit.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';
import { metricsNow } from './metrics.js';
import { drain, healthNow } from './service.js';

/** The sandbox as a whole: health, metrics, reset, drain (this API's document is the documents' door's). */
export const sandboxRoutes: Route<ControlRuntime>[] = [
  route(healthContract, ({ deps, control }) => {
    const now = healthNow(deps, control);
    return now.status === 'ok' ? { json: now } : { status: 503, json: now };
  }),
  route(metricsContract, ({ deps, engines, control, query }) => ({
    data: metricsNow(deps, control.requests, engines, query.gc),
  })),
  route(resetContract, async ({ c, control, query }) => {
    await control.reset();
    // After the state: a reset the disk refused leaves the journal as it was, as it leaves everything else. The
    // journal starts after the reset, so its own call is left out of it too.
    if (query.keep !== 'requests') {
      control.requests.clear();
      c.env.facts.journaled = false;
    }
    return DONE;
  }),
  route(drainContract, async ({ control, query }) => {
    await drain(control, query.timeoutMs);
    return DONE;
  }),
];

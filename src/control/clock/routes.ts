import { advanceClockContract, freezeClockContract, getClockContract } from '../../contract/control/clock.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';
import { advanceClock, freezeClock } from './service.js';

/** `/clock`: read, advance, freeze. */
export const clockRoutes: Route<ControlRuntime>[] = [
  route(getClockContract, ({ deps }) => ({ data: deps.clock.describe() })),
  route(advanceClockContract, async ({ deps, body }) => ({
    message: `Clock advanced by ${body.ms} ms`,
    data: await advanceClock(deps, body.ms),
  })),
  route(freezeClockContract, async ({ deps, body }) => ({
    message: body.frozen ? 'Clock frozen' : 'Clock running',
    data: await freezeClock(deps, body.frozen),
  })),
];

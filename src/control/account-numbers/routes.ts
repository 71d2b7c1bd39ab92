import { accountNumbersContract } from '../../contract/control/account-numbers.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';
import { accountNumbers } from './service.js';

/** `/account-numbers`: valid receivers for an app's transfers. */
export const accountNumberRoutes: Route<ControlRuntime>[] = [
  route(accountNumbersContract, ({ deps, query }) => ({ data: accountNumbers(deps, query) })),
];

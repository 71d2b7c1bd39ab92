import { addSubscription } from '../../bank/subscriptions/service.js';
import { addSubscriptionContract } from '../../contract/control/subscriptions.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';

/** `/businesses/{id}/subscriptions`: a plan for `GET /api/v1/clients/business/subscriptions` to list. */
export const subscriptionRoutes: Route<ControlRuntime>[] = [
  route(addSubscriptionContract, async ({ deps, params, body }) => ({
    status: 201,
    data: await addSubscription(deps, params.id, body),
  })),
];

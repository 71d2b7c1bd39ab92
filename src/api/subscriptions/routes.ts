import { listSubscriptions } from '../../bank/subscriptions/service.js';
import { listSubscriptionsContract } from '../../contract/api/subscriptions.js';
import type { Route } from '../../http/route.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/clients/business/subscriptions`: the business's subscription plans. */
export const subscriptionRoutes: Route<ApiRuntime>[] = [
  route(listSubscriptionsContract, ({ deps, business, query }) => ({
    page: listSubscriptions(deps, business, query),
  })),
];

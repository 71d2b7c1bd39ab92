import { createSubscription, listSubscriptions } from '../../bank/subscriptions/service.js';
import { createSubscriptionContract, listSubscriptionsContract } from '../../contract/api/subscriptions.js';
import type { Route } from '../../http/route.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/clients/business/subscriptions`: the business's subscription plans. */
export const subscriptionRoutes: Route<ApiRuntime>[] = [
  route(listSubscriptionsContract, ({ deps, business, query }) => ({
    page: listSubscriptions(deps, business, query),
  })),
  route(createSubscriptionContract, async ({ deps, actor, business, body }) => {
    await createSubscription(deps, actor(), business, body);
    return { status: 201 };
  }),
];

import type { Route } from '../../http/route.js';
import { defineRoute, page } from '../../http/route.js';
import { subscription, subscriptionQuery } from './schemas.js';
import { listSubscriptions } from './service.js';

/** `/clients/business/subscriptions`: the business's subscription plans. */
export const subscriptionRoutes: Route[] = [
  defineRoute({
    operationId: 'listSubscriptions',
    method: 'get',
    path: '/clients/business/subscriptions',
    summary: 'List subscriptions',
    description:
      'The business’s subscription plans, filtered by `packageName`, `interval`, `amount` (each exact, case-insensitive) and a `keyword` found in any of them. The fixtures give the approved businesses some; add more with `POST /__sandbox/businesses/{id}/subscriptions`.',
    tag: 'Subscriptions',
    auth: { scheme: 'A', business: 'header', area: 'business' },
    source: {
      docs: ['/api-reference/subscriptions/list'],
      sandbox: 'the order (as made) and how the filters compare',
    },
    query: subscriptionQuery,
    responses: { 200: page('Subscriptions retrieved successfully', subscription, 'A page of plans') },
    handle: ({ deps, business, query }) => ({ page: listSubscriptions(deps, business, query) }),
  }),
];

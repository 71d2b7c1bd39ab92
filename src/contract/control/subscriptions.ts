import { newSubscriptionBody, subscription } from '../api/subscriptions.js';
import { fixture } from '../examples.js';
import { contract, reply } from '../kit.js';
export const addSubscriptionContract = contract({
  operationId: 'addSubscription',
  method: 'post',
  path: '/businesses/{id}/subscriptions',
  summary: 'Add a subscription plan',
  description:
    'A plan of the business, listed by `GET /api/v1/clients/business/subscriptions`. `amount` is kobo (a JSON integer or a string of digits).',
  tag: 'Subscriptions',
  auth: { scheme: 'none' },
  params: { id: { description: 'the `id` of the business', example: fixture.a1 } },
  body: newSubscriptionBody,
  example: { packageName: 'Pro Plan', amount: 500000, interval: 'monthly' },
  responses: { 201: reply('Subscription added', subscription), 404: '`Business not found`' },
});

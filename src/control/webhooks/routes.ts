import { defineRoute, page, type Route, reply } from '../../http/route.js';
import { deliveriesQuery, delivery } from './schemas.js';
import { getDelivery, listDeliveries, redeliver } from './service.js';

const TAG = 'Webhooks';
const deliveryId = { description: 'the `id` of the delivery' };

/** `/webhooks/deliveries`: the delivery log, and a delivery sent again. */
export const webhookRoutes: Route[] = [
  defineRoute({
    operationId: 'listDeliveries',
    method: 'get',
    path: '/webhooks/deliveries',
    summary: 'Webhook deliveries',
    description:
      'Newest first, each with every attempt (time, status code, error, duration) and `headers`, the headers it is sent with (`AUTH-KEY` redacted to its last 4 characters, as the request journal redacts credentials; none when the client is gone). Times are ISO 8601 text, `nextAttemptAt` included.',
    tag: TAG,
    auth: { scheme: 'none' },
    query: deliveriesQuery,
    responses: { 200: page('Webhook deliveries', delivery) },
    handle: ({ deps, query }) => ({ page: listDeliveries(deps, query) }),
  }),
  defineRoute({
    operationId: 'getDelivery',
    method: 'get',
    path: '/webhooks/deliveries/{id}',
    summary: 'A webhook delivery',
    description:
      'With every attempt and the `headers` it is sent with, `AUTH-KEY` redacted (as in the list).',
    tag: TAG,
    auth: { scheme: 'none' },
    params: { id: deliveryId },
    responses: { 200: reply('Webhook delivery', delivery), 404: '`Delivery not found`' },
    handle: ({ deps, params }) => ({ data: getDelivery(deps, params.id) }),
  }),
  defineRoute({
    operationId: 'redeliver',
    method: 'post',
    path: '/webhooks/deliveries/{id}/redeliver',
    summary: 'Send a delivery again',
    description: 'To the client’s current webhook URL.',
    tag: TAG,
    auth: { scheme: 'none' },
    params: { id: deliveryId },
    responses: {
      200: reply('Redelivery queued', delivery),
      400: '`The client has no webhook URL set`',
      404: '`Delivery not found`',
    },
    handle: async ({ deps, engines, params }) => ({
      data: await redeliver(deps, engines.webhooks, params.id),
    }),
  }),
];

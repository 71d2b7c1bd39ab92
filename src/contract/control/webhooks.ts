import * as z from 'zod';
import { idText } from '../../domain/fields.js';
import { controlPageQuery } from '../../domain/pagination.js';
import { deliveryAttempt, deliveryRecord } from '../../domain/records.js';
import { deliveryStatus } from '../../domain/statuses.js';
import { contract, deferred, lazy, page, reply } from '../kit.js';
import { isoDate } from '../wire.js';

// The webhook deliveries: every notification sent, with every attempt.

export const deliveriesQuery = deferred(() =>
  controlPageQuery.extend({
    status: deliveryStatus.optional(),
    clientId: idText().optional(),
  }),
);
export type DeliveriesQuery = z.infer<ReturnType<typeof deliveriesQuery>>;

// What the routes answer.

/**
 * A delivery: its payload and headers as sent (the key redacted), and every attempt (time, status code, error,
 * duration). Its times are ISO 8601 text like every other time on the wire; the record keeps `nextAttemptAt` in ms
 * since the epoch.
 */
export const delivery = lazy('Delivery', () =>
  z.strictObject({
    ...deliveryRecord.shape,
    attempts: z.array(z.strictObject({ ...deliveryAttempt.shape, at: isoDate() })),
    nextAttemptAt: isoDate().nullable().describe('when the next attempt is due; null unless `pending`'),
    createdAt: isoDate(),
    headers: z
      .record(z.string(), z.string())
      .describe(
        'the headers the delivery is sent with (`content-type`, `AUTH-KEY`, `user-agent`; `content-length` is added as it goes), `AUTH-KEY` redacted as the request journal redacts credentials (its last 4 characters): the client’s current `webhookAuthKey`, which every attempt from now on sends. No `AUTH-KEY` when the client is gone',
      ),
  }),
);
export type DeliveryView = z.infer<ReturnType<typeof delivery>>;

const TAG = 'Webhooks';

export const deliveryId = {
  description:
    'the `id` of the delivery (`GET /__sandbox/webhooks/deliveries`): the fixtures hold none, so the example names one the first incoming payment would not make; use an `id` from the list',
  example: '00000000-0000-4000-8000-00000000d0e1',
};

export const listDeliveriesContract = contract({
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
});

export const getDeliveryContract = contract({
  operationId: 'getDelivery',
  method: 'get',
  path: '/webhooks/deliveries/{id}',
  summary: 'A webhook delivery',
  description: 'With every attempt and the `headers` it is sent with, `AUTH-KEY` redacted (as in the list).',
  tag: TAG,
  auth: { scheme: 'none' },
  params: { id: deliveryId },
  responses: { 200: reply('Webhook delivery', delivery), 404: '`Delivery not found`' },
});

export const redeliverContract = contract({
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
});

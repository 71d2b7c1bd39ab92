import * as z from 'zod';
import { idText } from '../../domain/fields.js';
import { controlPageQuery } from '../../domain/pagination.js';
import { deliveryAttempt, deliveryRecord } from '../../domain/records.js';
import { deliveryStatus } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';

// The webhook deliveries: every notification sent, with every attempt.

export const deliveriesQuery = controlPageQuery.extend({
  status: deliveryStatus.optional(),
  clientId: idText().optional(),
});
export type DeliveriesQuery = z.infer<typeof deliveriesQuery>;

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

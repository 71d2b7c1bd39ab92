import * as z from 'zod';
import { idText } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { deliveryStatus } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';
import { deliveryAttempt, deliveryRecord } from '../../store/records.js';

// The webhook deliveries: every notification sent, with every attempt.

export const deliveriesQuery = pageQuery.extend({
  status: deliveryStatus.optional(),
  clientId: idText().optional(),
});
export type DeliveriesQuery = z.infer<typeof deliveriesQuery>;

// What the routes answer.

/**
 * A delivery: its payload as sent, and every attempt (time, status code, error, duration). Its times are ISO 8601
 * text like every other time on the wire; the record keeps `nextAttemptAt` in ms since the epoch.
 */
export const delivery = lazy('Delivery', () =>
  z.strictObject({
    ...deliveryRecord.shape,
    attempts: z.array(z.strictObject({ ...deliveryAttempt.shape, at: isoDate() })),
    nextAttemptAt: isoDate().nullable().describe('when the next attempt is due; null unless `pending`'),
    createdAt: isoDate(),
  }),
);
export type DeliveryView = z.infer<ReturnType<typeof delivery>>;

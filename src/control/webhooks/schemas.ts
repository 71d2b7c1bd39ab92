import * as z from 'zod';
import { pageQuery } from '../../domain/pagination.js';
import { deliveryStatus } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { deliveryRecord } from '../../store/records.js';

// The webhook deliveries: every notification sent, with every attempt.

export const deliveriesQuery = pageQuery.extend({
  status: deliveryStatus.optional(),
  clientId: z.string().trim().min(1).optional(),
});
export type DeliveriesQuery = z.infer<typeof deliveriesQuery>;

// What the routes answer.

/** A delivery as it is kept: its payload as sent, and every attempt (time, status code, error, duration). */
export const delivery = lazy('Delivery', () => z.strictObject(deliveryRecord.shape));
export type DeliveryView = z.infer<ReturnType<typeof delivery>>;

import * as z from 'zod';
import { outboxType } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { outboxRecord } from '../../store/records.js';

// What the service "sent": member invitations and BVN one-time passwords.

export const outboxQuery = z.object({
  to: z.string().trim().min(1).optional(),
  type: outboxType.optional(),
});
export type OutboxQuery = z.infer<typeof outboxQuery>;

// What the route answers.

/** A message as it is kept; `data` holds what a test needs of it (the invitation token, the OTP). */
export const outboxMessage = lazy('OutboxMessage', () => z.strictObject(outboxRecord.shape));
export type OutboxMessageView = z.infer<ReturnType<typeof outboxMessage>>;

export const outbox = lazy('Outbox', () => z.array(outboxMessage()).describe('newest first'));

import * as z from 'zod';
import { longPageQuery } from '../../domain/pagination.js';
import { outboxRecord } from '../../domain/records.js';
import { outboxType } from '../../domain/statuses.js';
import { contract, deferred, lazy, page } from '../kit.js';

// What the service "sent": member invitations and BVN one-time passwords.

/** A page of messages (100 by default, at most 1000), to one address or of one type if asked. */
export const outboxQuery = deferred(() =>
  longPageQuery.extend({
    to: z.string().trim().min(1).optional(),
    type: outboxType.optional(),
  }),
);
export type OutboxQuery = z.infer<ReturnType<typeof outboxQuery>>;

// What the route answers.

/** A message as it is kept; `data` holds what a test needs of it (the invitation token, the OTP). */
export const outboxMessage = lazy('OutboxMessage', () => z.strictObject(outboxRecord.shape));
export type OutboxMessageView = z.infer<ReturnType<typeof outboxMessage>>;

export const outboxContract = contract({
  operationId: 'outbox',
  method: 'get',
  path: '/outbox',
  summary: 'Sent messages',
  description:
    'Member invitations and BVN one-time passwords the service "sent", newest first: a page of 100 by default (`page`, `limit` up to 1000).',
  tag: 'Sandbox',
  auth: { scheme: 'none' },
  query: outboxQuery,
  responses: { 200: page('Outbox', outboxMessage) },
});

import * as z from 'zod';
import { idText, text } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { disputeStatus } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';

export const disputeBody = z.object({
  transactionId: idText(),
  description: text(),
});

export const disputeQuery = pageQuery.extend({
  transactionId: idText().optional(),
  // Any text, as the audit log's filters: one that is no status matches nothing (the docs give no other rule).
  status: text()
    .optional()
    .describe(
      `${disputeStatus.options.map((s) => `\`${s}\``).join(', ')} (case-insensitive; another value matches nothing)`,
    ),
  keyword: text().optional(),
});
export type DisputeQuery = z.infer<typeof disputeQuery>;

// What the routes answer (the control API's resolve and reject too: a decided dispute looks the same).

export const dispute = lazy('Dispute', () =>
  z.strictObject({
    id: z.string(),
    transactionId: z.string(),
    description: z.string(),
    status: disputeStatus,
    dateCreated: isoDate().describe('when it was opened'),
  }),
);
export type DisputeView = z.infer<ReturnType<typeof dispute>>;

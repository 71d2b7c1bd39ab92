import * as z from 'zod';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';

// The request journal: the last requests answered.

export const requestsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1_000_000).default(100),
  method: z.string().trim().toUpperCase().optional(),
  status: z.coerce.number().int().min(100).max(599).optional(),
  path: z.string().trim().min(1).max(500).optional(),
});
export type RequestsQuery = z.infer<typeof requestsQuery>;

// What the route answers.

export const requestEntry = lazy('RequestEntry', () =>
  z.strictObject({
    time: isoDate(),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    durationMs: z.number().describe('to a tenth of a millisecond'),
    requestId: z.string(),
    warnings: z
      .array(z.string())
      .readonly()
      .describe(
        'where production would refuse what the sandbox accepted: the `x-sandbox-warning` headers sent',
      ),
  }),
);
export type RequestEntryView = z.infer<ReturnType<typeof requestEntry>>;

export const requestJournal = lazy('RequestJournal', () => z.array(requestEntry()).describe('newest first'));

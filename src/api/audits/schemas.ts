import * as z from 'zod';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';

// What the routes answer.

export const auditEntry = lazy('AuditEntry', () =>
  z.strictObject({
    id: z.string(),
    email: z.string(),
    user: z.string(),
    action: z.string(),
    type: z.string(),
    date: isoDate(),
    role: z.string(),
    ipAddress: z.string(),
  }),
);
export type AuditEntryView = z.infer<ReturnType<typeof auditEntry>>;

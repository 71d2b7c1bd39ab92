import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { auditAction, auditType } from '../../domain/statuses.js';
import { lazy } from '../../http/route.js';
import { isoDate } from '../../http/wire.js';

/** The audit log's filters (docs): each exact and case-insensitive; any text, an unknown one matches nothing. */
export const auditQuery = pageQuery.extend({
  role: text().optional().describe('the role of the acting user: `Admin`, `Manager`, `Viewer`'),
  action: text()
    .optional()
    .describe(`what was done; the sandbox writes ${auditAction.options.map((a) => `\`${a}\``).join(', ')}`),
  type: text()
    .optional()
    .describe(`the category; the sandbox writes ${auditType.options.map((t) => `\`${t}\``).join(', ')}`),
  email: text().optional().describe('the acting user’s email'),
});
export type AuditQuery = z.infer<typeof auditQuery>;

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

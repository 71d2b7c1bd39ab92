import type * as z from 'zod';
import { text } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { auditRecord } from '../../domain/records.js';
import { auditAction, auditType } from '../../domain/statuses.js';
import { fixture } from '../examples.js';
import { contract, deferred, lazy, page, reply } from '../kit.js';
import { isoDate } from '../wire.js';

/** The audit log's filters (docs): each exact and case-insensitive; any text, an unknown one matches nothing. */
export const auditQuery = deferred(() =>
  pageQuery.extend({
    role: text().optional().describe('the role of the acting user: `Admin`, `Manager`, `Viewer`'),
    action: text()
      .optional()
      .describe(`what was done; the sandbox writes ${auditAction.options.map((a) => `\`${a}\``).join(', ')}`),
    type: text()
      .optional()
      .describe(`the category; the sandbox writes ${auditType.options.map((t) => `\`${t}\``).join(', ')}`),
    email: text().optional().describe('the acting user’s email'),
  }),
);
export type AuditQuery = z.infer<ReturnType<typeof auditQuery>>;

// What the routes answer.

/** The fields of an audit entry the API shows, in its order: not which client or business it concerns. */
export const auditEntryFields = {
  id: true,
  email: true,
  user: true,
  action: true,
  type: true,
  date: true,
  role: true,
  ipAddress: true,
} as const;

export const auditEntry = lazy('AuditEntry', () =>
  auditRecord.pick(auditEntryFields).extend({ date: isoDate() }).strict(),
);
export type AuditEntryView = z.infer<ReturnType<typeof auditEntry>>;

const AUDITS = '/clients/business/audits';

const TAG = 'Audit logs';

const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;

export const listAuditLogsContract = contract({
  operationId: 'listAuditLogs',
  method: 'get',
  path: AUDITS,
  summary: 'List audit logs',
  description:
    'Newest first: every sign-in and change of the business and of its client. Filters `role`, `action`, `type` and `email`, each exact and case-insensitive. `action` is a short lower-case verb (`login`, `transfer`, `create`, …) and `type` a lower-case category (`auth`, `transaction`, …).',
  tag: TAG,
  auth: withBusiness,
  source: {
    spec: 'Audit log entry',
    docs: ['/api-reference/audit-logs/list'],
    sandbox:
      'the verbs and categories written (the docs show `login`, `transfer` and `transaction` as examples)',
  },
  query: auditQuery,
  responses: {
    200: page('Audit logs retrieved successfully', auditEntry, 'A page of audit log entries'),
  },
});

export const getAuditLogContract = contract({
  operationId: 'getAuditLog',
  method: 'get',
  path: `${AUDITS}/{auditId}`,
  summary: 'Get an audit log entry',
  tag: TAG,
  auth: withBusiness,
  source: { spec: 'Get audit log', docs: ['/api-reference/audit-logs/get'] },
  params: {
    auditId: {
      description: 'the `id` of the entry (the example is one the fixtures give A1)',
      example: fixture.audit,
    },
  },
  responses: {
    200: reply('Audit log retrieved successfully', auditEntry),
    404: '`Audit log not found` (another business’s entry too)',
  },
});

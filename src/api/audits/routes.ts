import type { Route } from '../../http/route.js';
import { defineRoute, page, reply } from '../../http/route.js';
import { auditEntry, auditQuery } from './schemas.js';
import { getAudit, listAudits } from './service.js';

const AUDITS = '/clients/business/audits';
const TAG = 'Audit logs';
const withBusiness = { scheme: 'A', business: 'header', area: 'business' } as const;

/** `/clients/business/audits`: the audit log, newest first. */
export const auditRoutes: Route[] = [
  defineRoute({
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
    handle: ({ deps, business, query }) => ({ page: listAudits(deps, business, query) }),
  }),
  defineRoute({
    operationId: 'getAuditLog',
    method: 'get',
    path: `${AUDITS}/{auditId}`,
    summary: 'Get an audit log entry',
    tag: TAG,
    auth: withBusiness,
    source: { spec: 'Get audit log', docs: ['/api-reference/audit-logs/get'] },
    params: { auditId: { description: 'the `id` of the entry' } },
    responses: {
      200: reply('Audit log retrieved successfully', auditEntry),
      404: '`Audit log not found` (another business’s entry too)',
    },
    handle: ({ deps, business, params }) => ({ data: getAudit(deps, business, params.auditId) }),
  }),
];

import { getAudit, listAudits } from '../../bank/audits/service.js';
import { getAuditLogContract, listAuditLogsContract } from '../../contract/api/audits.js';
import type { Route } from '../../http/route.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/clients/business/audits`: the audit log, newest first. */
export const auditRoutes: Route<ApiRuntime>[] = [
  route(listAuditLogsContract, ({ deps, business, query }) => ({ page: listAudits(deps, business, query) })),
  route(getAuditLogContract, ({ deps, business, params }) => ({
    data: getAudit(deps, business, params.auditId),
  })),
];

import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { pageQuery } from '../../domain/pagination.js';
import { type Auth, requiredBusiness } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { ok, okPage } from '../../http/envelope.js';
import { queryOf } from '../../http/validate.js';
import { getAudit, listAudits } from './service.js';

/** `/clients/business/audits`: the audit log, newest first. */
export function auditRoutes(deps: Deps, auth: Auth) {
  return new Hono<AppEnv>()
    .use(auth.schemeA({ business: 'required', area: 'business' }))
    .get('/', (c) =>
      okPage(
        c,
        'Audit logs retrieved successfully',
        listAudits(deps, requiredBusiness(c), queryOf(c, pageQuery)),
      ),
    )
    .get('/:auditId', (c) =>
      ok(c, 'Audit log retrieved successfully', getAudit(deps, requiredBusiness(c), c.req.param('auditId'))),
    );
}

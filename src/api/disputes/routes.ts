import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { type Auth, actorOf, requiredBusiness } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { ok, okPage } from '../../http/envelope.js';
import { jsonBody, queryOf } from '../../http/validate.js';
import { disputeBody, disputeQuery } from './schemas.js';
import { createDispute, getDispute, listDisputes } from './service.js';

/** `/clients/business/disputes`. */
export function disputeRoutes(deps: Deps, auth: Auth) {
  return new Hono<AppEnv>()
    .use(auth.schemeA({ business: 'required', area: 'business' }))
    .post('/', async (c) => {
      const input = await jsonBody(c, disputeBody);
      return ok(
        c,
        'Dispute created successfully',
        await createDispute(deps, actorOf(c), requiredBusiness(c), input),
        201,
      );
    })
    .get('/', (c) =>
      okPage(
        c,
        'Disputes retrieved successfully',
        listDisputes(deps, requiredBusiness(c), queryOf(c, disputeQuery)),
      ),
    )
    .get('/:disputeId', (c) =>
      ok(
        c,
        'Dispute retrieved successfully',
        getDispute(deps, requiredBusiness(c), c.req.param('disputeId')),
      ),
    );
}

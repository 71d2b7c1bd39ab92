import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { pageQuery } from '../../domain/pagination.js';
import { type Auth, actorOf, requiredBusiness } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { done, ok, okPage } from '../../http/envelope.js';
import { jsonBody, queryOf } from '../../http/validate.js';
import { payoutBody } from './schemas.js';
import { createPayout, deletePayout, listPayouts, updatePayout } from './service.js';

/** `/clients/business/payouts`: up to three payout accounts per business. */
export function payoutRoutes(deps: Deps, auth: Auth) {
  return new Hono<AppEnv>()
    .use(auth.schemeA({ business: 'required', area: 'business' }))
    .get('/', (c) =>
      okPage(
        c,
        'Payout accounts retrieved successfully',
        listPayouts(deps, requiredBusiness(c), queryOf(c, pageQuery)),
      ),
    )
    .post('/', async (c) => {
      const input = await jsonBody(c, payoutBody);
      return ok(
        c,
        'Payout account created successfully',
        await createPayout(deps, actorOf(c), requiredBusiness(c), input),
        201,
      );
    })
    .put('/:payoutAccountId', async (c) => {
      const input = await jsonBody(c, payoutBody);
      const id = c.req.param('payoutAccountId');
      return ok(
        c,
        'Payout account updated successfully',
        await updatePayout(deps, actorOf(c), requiredBusiness(c), id, input),
      );
    })
    .delete('/:payoutAccountId', async (c) => {
      await deletePayout(deps, actorOf(c), requiredBusiness(c), c.req.param('payoutAccountId'));
      return done(c, 'Account has been deleted');
    });
}

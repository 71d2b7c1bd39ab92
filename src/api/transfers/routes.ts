import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { type Auth, actorOf, requiredBusiness } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { ok } from '../../http/envelope.js';
import { chosenScenario } from '../../http/scenario.js';
import { jsonBody } from '../../http/validate.js';
import { transferBody } from './schemas.js';
import { sendTransfer } from './service.js';

/** `/clients/business/customers/funds`: single transfers (bulk transfers live beside them). */
export function transferRoutes(deps: Deps, auth: Auth) {
  const withBusiness = auth.schemeA({ business: 'required', area: 'business' });
  return new Hono<AppEnv>()
    .post('/transfer', withBusiness, async (c) => {
      const input = await jsonBody(c, transferBody);
      const data = await sendTransfer(
        deps,
        actorOf(c),
        requiredBusiness(c),
        input,
        'transfer',
        chosenScenario(c, deps),
      );
      return ok(c, 'Transfer successful', data);
    })
    .post('/anonymous-transfer', withBusiness, async (c) => {
      const input = await jsonBody(c, transferBody);
      const data = await sendTransfer(
        deps,
        actorOf(c),
        requiredBusiness(c),
        input,
        'anonymous_transfer',
        chosenScenario(c, deps),
      );
      return ok(c, 'Transfer successful', data);
    });
}

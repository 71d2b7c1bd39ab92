import { type Context, Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { type Auth, actorOf, requiredBusiness } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { ok } from '../../http/envelope.js';
import { chosenScenario } from '../../http/scenario.js';
import { jsonBody } from '../../http/validate.js';
import { transferBody } from './schemas.js';
import { sendTransfer, type TransferKind } from './service.js';

/** `/clients/business/customers/funds`: single transfers (bulk transfers live beside them). */
export function transferRoutes(deps: Deps, auth: Auth) {
  const withBusiness = auth.schemeA({ business: 'required', area: 'business' });
  // The customer and the anonymous transfer take the same body and answer alike; only the ledger kind differs.
  const send = (kind: TransferKind) => async (c: Context<AppEnv>) => {
    const input = await jsonBody(c, transferBody);
    const business = requiredBusiness(c);
    const data = await sendTransfer(deps, actorOf(c), business, input, kind, chosenScenario(c, deps));
    return ok(c, 'Transfer successful', data);
  };
  return new Hono<AppEnv>()
    .post('/transfer', withBusiness, send('transfer'))
    .post('/anonymous-transfer', withBusiness, send('anonymous_transfer'));
}

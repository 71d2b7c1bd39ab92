import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { type Auth, actorOf, requiredBusiness } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { ok } from '../../http/envelope.js';
import { jsonBody } from '../../http/validate.js';
import { virtualAccountBody } from './schemas.js';
import { createVirtualAccount } from './service.js';

/** `/clients/business/virtual-accounts`. */
export function virtualAccountRoutes(deps: Deps, auth: Auth) {
  return new Hono<AppEnv>().post('/', auth.schemeA({ business: 'required', area: 'business' }), async (c) => {
    const input = await jsonBody(c, virtualAccountBody);
    const data = await createVirtualAccount(deps, actorOf(c), requiredBusiness(c), input);
    return ok(c, 'Virtual account created successfully', data, 201);
  });
}

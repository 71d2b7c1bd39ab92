import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { type Auth, requiredBusiness } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { ok, okPage } from '../../http/envelope.js';
import { pageQuery } from '../../http/pagination.js';
import { jsonBody, queryOf } from '../../http/validate.js';
import { createBusinessBody } from './schemas.js';
import { accountDetails, createBusiness, listBusinesses, listCustomers } from './service.js';

/** `/clients/business`: the client's businesses, their account details and customers. */
export function businessRoutes(deps: Deps, auth: Auth) {
  const withBusiness = auth.schemeA({ business: 'required', area: 'business' });
  const clientWide = auth.schemeA({ business: 'optional', area: 'business' });
  return new Hono<AppEnv>()
    .get('/account-details', withBusiness, (c) =>
      ok(c, 'Account details retrieved successfully', accountDetails(requiredBusiness(c))),
    )
    .get('/customers', withBusiness, (c) => {
      const page = listCustomers(deps, requiredBusiness(c), queryOf(c, pageQuery));
      return okPage(c, 'Customers retrieved successfully', page);
    })
    .get('/', clientWide, (c) => {
      const page = listBusinesses(deps, c.var.caller.client, queryOf(c, pageQuery));
      return okPage(c, 'Businesses retrieved successfully', page);
    })
    .post('/', clientWide, async (c) => {
      const input = await jsonBody(c, createBusinessBody);
      return ok(
        c,
        'Business created successfully',
        await createBusiness(deps, c.var.caller.client, input),
        201,
      );
    });
}

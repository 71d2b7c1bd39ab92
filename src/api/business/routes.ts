import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../domain/errors.js';
import { pageQuery } from '../../domain/pagination.js';
import { type Auth, actorOf, requiredBusiness } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { done, ok, okPage } from '../../http/envelope.js';
import { header } from '../../http/headers.js';
import { jsonBody, queryOf } from '../../http/validate.js';
import { completeRegistration } from './registration.js';
import { createBusinessBody } from './schemas.js';
import { accountDetails, createBusiness, listBusinesses, listCustomers } from './service.js';

/** `/clients/business`: the client's businesses, their registration, account details and customers. */
export function businessRoutes(deps: Deps, auth: Auth) {
  const withBusiness = auth.schemeA({ business: 'required', area: 'business' });
  const clientWide = auth.schemeA({ business: 'optional', area: 'business' });
  // Registration names the business in the form, not in a header.
  const formNamesBusiness = auth.schemeA({ business: 'ignored', area: 'business' });
  return new Hono<AppEnv>()
    .get('/account-details', withBusiness, (c) =>
      ok(c, 'Account details retrieved successfully', accountDetails(requiredBusiness(c))),
    )
    .get('/customers', withBusiness, (c) =>
      okPage(
        c,
        'Customers retrieved successfully',
        listCustomers(deps, requiredBusiness(c), queryOf(c, pageQuery)),
      ),
    )
    .get('/', clientWide, (c) =>
      okPage(
        c,
        'Businesses retrieved successfully',
        listBusinesses(deps, c.var.caller.client, queryOf(c, pageQuery)),
      ),
    )
    .post('/', clientWide, async (c) => {
      const input = await jsonBody(c, createBusinessBody);
      const data = await createBusiness(deps, actorOf(c), c.var.caller.client, input);
      return ok(c, 'Business created successfully', data, 201);
    })
    .patch('/complete-registration', formNamesBusiness, async (c) => {
      if (!/^multipart\/form-data/i.test(header(c, 'content-type') ?? '')) {
        throw new ApiError(415, 'Content-Type must be multipart/form-data');
      }
      const form = await c.req.parseBody({ all: true }).catch(() => {
        throw new ApiError(400, 'Malformed multipart body');
      });
      const { user } = c.var.caller;
      if (!user) throw new ApiError(401, 'Authorization token is required');
      await completeRegistration(deps, actorOf(c), user, form, new URL(c.req.url).origin);
      return done(c, 'Business registration completed; awaiting approval');
    });
}

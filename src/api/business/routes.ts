import {
  accountDetailsOf,
  businessView,
  createBusiness,
  listBusinesses,
  listCustomers,
} from '../../bank/business/service.js';
import { completeRegistration, validateBvn } from '../../bank/registration/service.js';
import {
  completeBusinessRegistrationContract,
  createBusinessContract,
  getAccountDetailsContract,
  getBusinessDetailsContract,
  listBusinessesContract,
  listCustomersContract,
  validateBvnContract,
} from '../../contract/api/business.js';
import { DONE } from '../../contract/kit.js';
import { ApiError } from '../../domain/errors.js';
import type { Route } from '../../http/route.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/clients/business`: the client's businesses, their registration, account details and customers. */
export const businessRoutes: Route<ApiRuntime>[] = [
  route(getBusinessDetailsContract, ({ deps, business }) => ({ data: businessView(deps, business) })),
  route(getAccountDetailsContract, ({ business }) => ({ data: accountDetailsOf(business) })),
  route(listCustomersContract, ({ deps, business, query }) => ({
    page: listCustomers(deps, business, query),
  })),
  route(listBusinessesContract, ({ deps, caller, query }) => ({
    page: listBusinesses(deps, caller.client, query),
  })),
  route(createBusinessContract, async ({ deps, caller, actor, body }) => ({
    status: 201,
    data: await createBusiness(deps, actor(), caller.client, body),
  })),
  route(validateBvnContract, async ({ deps, caller, actor, body }) => ({
    data: await validateBvn(deps, actor(), caller.client, body),
  })),
  route(completeBusinessRegistrationContract, async ({ deps, c, caller, actor, body }) => {
    const { user } = caller;
    if (!user) throw new ApiError(401, 'Authorization token is required');
    // The files are served back under this sandbox's own paths (an isolated one's `/sandboxes/{id}` included).
    await completeRegistration(
      deps,
      actor(),
      user,
      body,
      `${new URL(c.req.url).origin}${c.env.world.prefix}`,
    );
    return DONE;
  }),
];

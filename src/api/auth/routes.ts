import { signInUser } from '../../bank/auth/service.js';
import { signInContract } from '../../contract/api/auth.js';
import { clientIp } from '../../http/auth.js';
import type { Route } from '../../http/route.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/auth`: sign-in, the only unauthenticated operation. */
export const authRoutes: Route<ApiRuntime>[] = [
  route(signInContract, async ({ deps, c, body }) => {
    const { view, caller } = await signInUser(deps, body.email, body.password, clientIp(c));
    // The journal names the client of a successful sign-in, as it does for every authenticated call.
    c.env.facts.caller = caller;
    return { data: view };
  }),
];

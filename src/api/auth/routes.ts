import { signInUser } from '../../bank/auth/service.js';
import { signInContract } from '../../contract/api/auth.js';
import { clientIp } from '../../http/auth.js';
import type { Route } from '../../http/route.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/auth`: sign-in, the only unauthenticated operation. */
export const authRoutes: Route<ApiRuntime>[] = [
  route(signInContract, async ({ deps, c, body }) => ({
    data: await signInUser(deps, body.email, body.password, clientIp(c)),
  })),
];

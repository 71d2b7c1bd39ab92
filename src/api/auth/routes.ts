import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { clientIp } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { ok } from '../../http/envelope.js';
import { jsonBody } from '../../http/validate.js';
import { signInBody } from './schemas.js';
import { signIn } from './service.js';

/** `/auth`: sign-in, the only unauthenticated operation. */
export function authRoutes(deps: Deps) {
  return new Hono<AppEnv>().post('/signin', async (c) => {
    const { email, password } = await jsonBody(c, signInBody);
    return ok(c, 'Sign in successful', await signIn(deps, email, password, clientIp(c)));
  });
}

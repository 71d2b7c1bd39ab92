import { clientIp } from '../../http/auth.js';
import type { Route } from '../../http/route.js';
import { defineRoute, reply } from '../../http/route.js';
import { fixture } from '../examples.js';
import { signIn, signInBody } from './schemas.js';
import { signInUser } from './service.js';

/** `/auth`: sign-in, the only unauthenticated operation. */
export const authRoutes: Route[] = [
  defineRoute({
    operationId: 'signIn',
    method: 'post',
    path: '/auth/signin',
    summary: 'Sign in',
    description:
      'Returns a JWT `accessToken` (HS256, `--token-ttl` seconds) and the businesses of the account.',
    tag: 'Auth',
    auth: { scheme: 'none' },
    body: signInBody,
    example: fixture.owner,
    responses: {
      200: reply('Sign in successful', signIn, 'Signed in'),
      401: '`Invalid email or password`',
    },
    handle: async ({ deps, c, body }) => ({
      data: await signInUser(deps, body.email, body.password, clientIp(c)),
    }),
  }),
];

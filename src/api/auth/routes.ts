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
      'The signing-in user, a JWT `accessToken` (HS256, `--token-ttl` seconds) and the account’s businesses (`id`, `businessName`, `isApproved`: send an `id` as the `businessId` header).',
    tag: 'Auth',
    auth: { scheme: 'none' },
    source: {
      spec: 'Sign in',
      docs: ['/api-reference/auth/signin'],
      sandbox: 'the token’s lifetime and claims; the 401 message',
    },
    body: signInBody,
    example: fixture.owner,
    responses: {
      200: reply('Login successful', signIn, 'Signed in'),
      401: '`Invalid email or password`',
    },
    handle: async ({ deps, c, body }) => ({
      data: await signInUser(deps, body.email, body.password, clientIp(c)),
    }),
  }),
];

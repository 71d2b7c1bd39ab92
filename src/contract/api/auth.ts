import * as z from 'zod';
import { MAX_TEXT, text } from '../../domain/fields.js';
import { fixture } from '../examples.js';
import { contract, deferred, lazy, reply } from '../kit.js';

export const signInBody = deferred(() =>
  z.object({
    email: text(),
    password: z.string().min(1).max(MAX_TEXT),
  }),
);

// What the route answers.

/** The signing-in user and the account's businesses, exactly as the docs show them. */
export const signIn = lazy('SignIn', () =>
  z.strictObject({
    id: z.string().describe('the user’s id'),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phoneNo: z.string(),
    accessToken: z.string(),
    businesses: z.array(
      z.strictObject({
        id: z.string().describe('send it as the `businessId` header'),
        businessName: z.string(),
        isApproved: z.boolean(),
      }),
    ),
  }),
);
export type SignInView = z.infer<ReturnType<typeof signIn>>;

export const signInContract = contract({
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
});

import * as z from 'zod';
import { MAX_TEXT, text } from '../../domain/fields.js';
import { lazy } from '../../http/route.js';

export const signInBody = z.object({
  email: text(),
  password: z.string().min(1).max(MAX_TEXT),
});

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

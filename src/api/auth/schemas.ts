import * as z from 'zod';
import { lazy } from '../../http/route.js';
import { business } from '../business/schemas.js';

export const signInBody = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(200),
});

// What the route answers.

export const signIn = lazy('SignIn', () =>
  z.strictObject({ accessToken: z.string(), businesses: z.array(business()) }),
);
export type SignInView = z.infer<ReturnType<typeof signIn>>;

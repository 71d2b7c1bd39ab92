import * as z from 'zod';
import { MAX_TEXT, text } from '../../domain/fields.js';
import { lazy } from '../../http/route.js';
import { business } from '../business/schemas.js';

export const signInBody = z.object({
  email: text(),
  password: z.string().min(1).max(MAX_TEXT),
});

// What the route answers.

export const signIn = lazy('SignIn', () =>
  z.strictObject({ accessToken: z.string(), businesses: z.array(business()) }),
);
export type SignInView = z.infer<ReturnType<typeof signIn>>;

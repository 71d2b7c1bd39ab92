import * as z from 'zod';

export const signInBody = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(200),
});

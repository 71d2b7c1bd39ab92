import * as z from 'zod';

export const virtualAccountBody = z.object({
  firstName: z.string().trim().min(1).max(50),
  lastName: z.string().trim().min(1).max(50),
  type: z.enum(['temporal', 'permanent']),
  reference: z.string().trim().min(1).max(64),
});

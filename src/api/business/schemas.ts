import * as z from 'zod';

export const createBusinessBody = z.object({
  businessName: z.string().trim().min(2).max(100),
  countryId: z.string().trim().min(1).max(10).optional(),
  isNewBusiness: z.boolean().optional(),
});

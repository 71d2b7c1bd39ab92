import * as z from 'zod';

export const inviteBody = z.object({
  email: z.email().max(320),
  memberRoleId: z.string().trim().min(1).max(64),
});

export const completeMemberBody = z.object({
  authorizationToken: z.string().trim().min(1).max(256),
  firstName: z.string().trim().min(1).max(50),
  lastName: z.string().trim().min(1).max(50),
  phoneNo: z
    .string()
    .trim()
    .regex(/^\+?\d{10,15}$/, 'must be a phone number of 10 to 15 digits'),
  password: z.string().min(8, 'must be at least 8 characters').max(200),
});

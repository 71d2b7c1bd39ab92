import * as z from 'zod';
import { lazy } from '../../http/route.js';

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
export type CompleteMemberInput = z.infer<typeof completeMemberBody>;

// What the routes answer.

export const memberRole = lazy('MemberRole', () => z.strictObject({ id: z.string(), name: z.string() }));
export type MemberRoleView = z.infer<ReturnType<typeof memberRole>>;

export const memberRoles = lazy('MemberRoles', () => z.array(memberRole()));

export const member = lazy('Member', () =>
  z.strictObject({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phoneNo: z.string(),
    isActive: z.boolean(),
    clientMemberRoleId: z.string(),
    clientMemberRole: memberRole(),
  }),
);
export type MemberView = z.infer<ReturnType<typeof member>>;

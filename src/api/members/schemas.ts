import * as z from 'zod';
import { idText, MAX_TEXT, text } from '../../domain/fields.js';
import { lazy } from '../../http/route.js';

export const inviteBody = z.object({
  email: z.email().max(320),
  memberRoleId: idText(),
});

export const completeMemberBody = z.object({
  authorizationToken: text(),
  firstName: text(),
  lastName: text(),
  // As people write it: `0803 123 4567`, `0803-123-4567`, `(0803)1234567`, `+234…`.
  phoneNo: text(),
  password: z.string().min(1).max(MAX_TEXT),
});
export type CompleteMemberInput = z.infer<typeof completeMemberBody>;

// What the routes answer.

export const memberRole = lazy('MemberRole', () => z.strictObject({ id: z.string(), name: z.string() }));
export type MemberRoleView = z.infer<ReturnType<typeof memberRole>>;

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

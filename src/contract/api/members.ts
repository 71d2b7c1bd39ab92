import * as z from 'zod';
import { idText, MAX_TEXT, text } from '../../domain/fields.js';
import { pageQuery } from '../../domain/pagination.js';
import { fixture } from '../examples.js';
import { contract, deferred, done, lazy, page } from '../kit.js';

/** The refusals of an update of a member, as the service answers them and the document shows them. */
export const MEMBER_NOT_FOUND = 'Member not found';
export const OWNER_FIXED = 'The owner’s role and status cannot be changed';
export const NOT_REGISTERED = 'The member has not completed registration yet';

export const inviteBody = deferred(() =>
  z.object({
    email: z.email().max(320),
    memberRoleId: idText(),
  }),
);

export const completeMemberBody = deferred(() =>
  z.object({
    authorizationToken: text(),
    firstName: text(),
    lastName: text(),
    // As people write it: `0803 123 4567`, `0803-123-4567`, `(0803)1234567`, `+234…`.
    phoneNo: text(),
    password: z.string().min(1).max(MAX_TEXT),
  }),
);
export type CompleteMemberInput = z.infer<ReturnType<typeof completeMemberBody>>;

/**
 * What an update may change, each field optional (`{}`, the docs' example, changes nothing). The docs' page marks
 * its body to-do: these fields are the sandbox's reading of "role, status, profile fields".
 */
export const updateMemberBody = deferred(() =>
  z.object({
    memberRoleId: idText().optional().describe('a role’s `id` (`GET /clients/members/roles`)'),
    isActive: z
      .boolean()
      .optional()
      .describe('false: the member can no longer sign in, nor use a token it has'),
    firstName: text().optional(),
    lastName: text().optional(),
    phoneNo: text().optional(),
  }),
);
export type UpdateMemberInput = z.infer<ReturnType<typeof updateMemberBody>>;

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

const MEMBERS = '/clients/members';

const TAG = 'Members';

const reader = { scheme: 'A', business: 'header', area: 'business' } as const;

export const listMemberRolesContract = contract({
  operationId: 'listMemberRoles',
  method: 'get',
  path: `${MEMBERS}/roles`,
  summary: 'List member roles',
  description: 'A page of the roles, like every list; pass an `id` as `memberRoleId`.',
  tag: TAG,
  auth: reader,
  source: {
    spec: 'List member roles',
    docs: ['/api-reference/members/invite'],
    sandbox: '`pagination`, as the spec says of all list endpoints (the docs’ page for it is not published)',
  },
  query: pageQuery,
  responses: {
    200: page('Member roles retrieved successfully', memberRole, 'A page of the roles'),
  },
});

export const listMembersContract = contract({
  operationId: 'listMembers',
  method: 'get',
  path: MEMBERS,
  summary: 'List members',
  tag: TAG,
  auth: reader,
  source: { spec: 'Other operations named (members list)', docs: ['/api-reference/members/list'] },
  query: pageQuery,
  responses: { 200: page('Members retrieved successfully', member, 'A page of the client’s members') },
});

export const inviteMemberContract = contract({
  operationId: 'inviteMember',
  method: 'post',
  path: MEMBERS,
  summary: 'Invite a member',
  description:
    'The invitation’s `authorizationToken` lands in `GET /__sandbox/outbox`; it is single use and expires after `--invitation-ttl` seconds.',
  tag: TAG,
  auth: { scheme: 'A', business: 'header', area: 'member-admin' },
  source: {
    spec: 'Other operations named (member invitation)',
    docs: ['/api-reference/members/invite'],
    sandbox: 'the token’s lifetime; an email already in use: 409',
  },
  body: inviteBody,
  example: { email: 'newcomer@adebayo.test', memberRoleId: fixture.viewerRole },
  responses: {
    201: done('Invitation sent successfully'),
    400: '`Invalid memberRoleId`',
    409: '`A user with this email already exists`',
  },
});

export const updateMemberContract = contract({
  operationId: 'updateMember',
  method: 'patch',
  path: `${MEMBERS}/{memberId}`,
  summary: 'Update a member',
  description:
    'Changes what the body names of a member of the client: the role, whether it is active, its names and phone number; `{}` (the docs’ example) changes nothing. A deactivated member can no longer sign in (401 `Invalid email or password`) and its tokens stop working. The docs’ page marks its body to-do: these fields are the sandbox’s reading of it.',
  tag: TAG,
  auth: { scheme: 'A', business: 'header', area: 'member-admin' },
  source: {
    docs: ['/api-reference/members/update'],
    sandbox:
      'the body’s fields (the page gives none); the owner’s role and status stay; an invitation not yet completed cannot be activated',
  },
  params: {
    memberId: {
      description: 'the member’s `id` (`GET /clients/members`; the example is client A’s Manager)',
      example: fixture.manager,
    },
  },
  body: updateMemberBody,
  example: {},
  responses: {
    200: done('Member updated successfully'),
    400: [
      '`Invalid memberRoleId`',
      `\`${OWNER_FIXED}\``,
      `\`${NOT_REGISTERED}\`: \`isActive: true\` before the invitation is completed`,
    ],
    404: `\`${MEMBER_NOT_FOUND}\` (unknown, or another client’s)`,
  },
});

export const completeMemberRegistrationContract = contract({
  operationId: 'completeMemberRegistration',
  method: 'patch',
  path: `${MEMBERS}/complete-registration`,
  summary: 'Complete member registration',
  description: 'Called by the invited member with the client’s `SECRET_KEY` only.',
  tag: TAG,
  // The invited member has no token yet; the service finds the client the secret belongs to.
  auth: { scheme: 'secretKey' },
  source: {
    spec: 'Complete member registration',
    docs: ['/api-reference/members/complete-registration'],
  },
  body: completeMemberBody,
  example: {
    authorizationToken: '<from the outbox>',
    firstName: 'Chidi',
    lastName: 'Eze',
    phoneNo: '+2348031234567',
    password: 'long-password',
  },
  responses: {
    200: done('Registration completed successfully'),
    400: '`Invalid or expired authorization token`',
  },
});

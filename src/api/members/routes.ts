import { pageQuery } from '../../domain/pagination.js';
import { clientIp } from '../../http/auth.js';
import { header } from '../../http/headers.js';
import type { Route } from '../../http/route.js';
import { DONE, defineRoute, done, page } from '../../http/route.js';
import { fixture } from '../examples.js';
import { completeMemberBody, inviteBody, member, memberRole } from './schemas.js';
import { completeMemberRegistration, inviteMember, listMembers, listRoles } from './service.js';

const MEMBERS = '/clients/members';
const TAG = 'Members';
const reader = { scheme: 'A', business: 'header', area: 'business' } as const;

/** `/clients/members`: roles, the member list, invitations and the invited member's registration. */
export const memberRoutes: Route[] = [
  defineRoute({
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
      sandbox:
        '`pagination`, as the spec says of all list endpoints (the docs’ page for it is not published)',
    },
    query: pageQuery,
    responses: {
      200: page('Member roles retrieved successfully', memberRole, 'A page of the roles'),
    },
    handle: ({ deps, query }) => ({ page: listRoles(deps, query) }),
  }),
  defineRoute({
    operationId: 'listMembers',
    method: 'get',
    path: MEMBERS,
    summary: 'List members',
    tag: TAG,
    auth: reader,
    source: { spec: 'Other operations named (members list)', docs: ['/api-reference/members/list'] },
    query: pageQuery,
    responses: { 200: page('Members retrieved successfully', member, 'A page of the client’s members') },
    handle: ({ deps, caller, query }) => ({ page: listMembers(deps, caller.client, query) }),
  }),
  defineRoute({
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
    handle: async ({ deps, caller, actor, body }) => {
      await inviteMember(deps, actor(), caller.client, body);
      return { status: 201 };
    },
  }),
  defineRoute({
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
    handle: async ({ deps, c, body }) => {
      // authenticate() refused a request without it; '' matches no client.
      const secret = header(c, 'secret_key') ?? '';
      await completeMemberRegistration(deps, secret, clientIp(c), body);
      return DONE;
    },
  }),
];

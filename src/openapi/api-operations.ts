import * as z from 'zod';
import { bulkListQuery, createBulkBody, processBody, reprocessBody } from '../api/bulk/schemas.js';
import { completeMemberBody, inviteBody } from '../api/members/schemas.js';
import { pageQuery } from '../domain/pagination.js';
import { done, fixture, type Operation, page, reply } from './operation.js';
import * as out from './responses.js';

const NO_PAYMENT_ACCOUNT = '`No payment account for this business` (not approved yet)';
const BULK = '/clients/business/customers/funds/bulk-transfer';
const bulkTransferId = {
  description: 'the `id` of the batch',
  example: '5f0c6c1e-8a43-4d35-9b1e-2b7f0a9c4d11',
};

/** The emulated bank: every route under `/api/v1`. */
export const apiOperations: Operation[] = [
  {
    operationId: 'listMemberRoles',
    method: 'get',
    path: '/clients/members/roles',
    summary: 'List member roles',
    tag: 'Members',
    security: 'A',
    businessIdHeader: 'optional',
    responses: { 200: reply('The roles; pass an `id` as `memberRoleId`', z.array(out.memberRole)) },
  },
  {
    operationId: 'listMembers',
    method: 'get',
    path: '/clients/members',
    summary: 'List members',
    tag: 'Members',
    security: 'A',
    businessIdHeader: 'optional',
    query: pageQuery,
    responses: { 200: page('A page of the client’s members', out.member) },
  },
  {
    operationId: 'inviteMember',
    method: 'post',
    path: '/clients/members',
    summary: 'Invite a member',
    description:
      'The invitation’s `authorizationToken` lands in `GET /__sandbox/outbox`; it is single use and expires after `--invitation-ttl` seconds.',
    tag: 'Members',
    security: 'A',
    businessIdHeader: 'optional',
    adminOnly: true,
    body: inviteBody,
    example: { email: 'newcomer@adebayo.test', memberRoleId: fixture.viewerRole },
    responses: {
      201: reply('`Member invited successfully`', out.member),
      400: '`Invalid memberRoleId`',
      409: '`A user with this email already exists`',
    },
  },
  {
    operationId: 'completeMemberRegistration',
    method: 'patch',
    path: '/clients/members/complete-registration',
    summary: 'Complete member registration',
    description: 'Called by the invited member with the client’s `SECRET_KEY` only.',
    tag: 'Members',
    security: 'secretKey',
    body: completeMemberBody,
    example: {
      authorizationToken: '<from the outbox>',
      firstName: 'Chidi',
      lastName: 'Eze',
      phoneNo: '+2348031234567',
      password: 'long-password',
    },
    responses: {
      200: done('`Registration completed successfully`'),
      400: '`Invalid or expired authorization token`',
    },
  },
];

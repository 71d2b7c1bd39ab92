import {
  type CompleteMemberInput,
  MEMBER_NOT_FOUND,
  type MemberRoleView,
  type MemberView,
  NOT_REGISTERED,
  OWNER_FIXED,
  type UpdateMemberInput,
} from '../../contract/api/members.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { capAtEnd, hasExpired, isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { canonicalId } from '../../domain/ids.js';
import { type PageQuery, type Pagination, paginate } from '../../domain/pagination.js';
import type { ClientRecord, UserRecord } from '../../domain/records.js';
import { isClientSecret } from '../../domain/secrets.js';
import { recordAudit } from '../audits/service.js';

const INVALID_TOKEN = 'Invalid or expired authorization token';

function memberView(deps: Deps, u: UserRecord): MemberView {
  const role = deps.store.get('roles', u.roleId);
  return {
    id: u.id,
    firstName: u.firstName,
    lastName: u.lastName,
    email: u.email,
    phoneNo: u.phoneNo,
    isActive: u.isActive,
    clientMemberRoleId: u.roleId,
    clientMemberRole: { id: u.roleId, name: role?.name ?? '' },
  };
}

/** The three roles, a page of them like every list; a member is invited with one's `id`. */
export function listRoles(deps: Deps, query: PageQuery): { data: MemberRoleView[]; pagination: Pagination } {
  return paginate(deps.store.all('roles'), query, (r) => ({ id: r.id, name: r.name }));
}

export function listMembers(
  deps: Deps,
  client: ClientRecord,
  query: PageQuery,
): { data: MemberView[]; pagination: Pagination } {
  return paginate(deps.store.where('users', 'clientId', client.id), query, (u) => memberView(deps, u));
}

/**
 * Invites a member: an inactive user with the role, and an invitation whose `authorizationToken` is "emailed"
 * (it lands in the outbox) and expires after the configured lifetime.
 */
export async function inviteMember(
  deps: Deps,
  actor: Actor,
  client: ClientRecord,
  input: { email: string; memberRoleId: string },
): Promise<void> {
  const email = input.email.toLowerCase();
  const role = deps.store.get('roles', input.memberRoleId);
  if (!role) throw new ApiError(400, 'Invalid memberRoleId');
  await deps.store.mutate((tx) => {
    if (tx.where('users', 'email', email).length > 0)
      throw new ApiError(409, 'A user with this email already exists');
    const now = deps.clock.now();
    const createdAt = isoAt(deps.clock);
    const record: UserRecord = {
      id: tx.random().uuid(),
      clientId: client.id,
      email,
      password: '',
      firstName: '',
      lastName: '',
      phoneNo: '',
      roleId: role.id,
      isOwner: false,
      isActive: false,
      createdAt,
    };
    const token = tx.random().hex(48);
    tx.put('users', record);
    tx.put('invitations', {
      id: tx.random().uuid(),
      clientId: client.id,
      userId: record.id,
      token,
      // Cut short at the end of time, where it then never expires (`hasExpired`).
      expiresAt: capAtEnd(now + deps.config.invitationTtl * 1000),
      usedAt: null,
      createdAt,
    });
    tx.put('outbox', {
      id: tx.random().uuid(),
      clientId: client.id,
      type: 'member_invitation',
      to: email,
      subject: `You have been invited to ${client.name}`,
      body: `You have been invited to join ${client.name} as ${role.name}. Complete your registration with this authorization token: ${token}`,
      data: { authorizationToken: token, role: role.name, clientName: client.name },
      createdAt,
    });
    recordAudit(tx, deps, actor, {
      businessId: null,
      type: 'member',
      action: 'invite',
    });
  });
}

/**
 * The invited member completes registration with the emailed token (single use, expiring) and the client's
 * `SECRET_KEY`; afterwards the member signs in with the role it was given.
 */
export async function completeMemberRegistration(
  deps: Deps,
  secretKey: string,
  ipAddress: string,
  input: CompleteMemberInput,
): Promise<void> {
  const now = deps.clock.now();
  const client = deps.store.all('clients').find((c) => isClientSecret(c, secretKey, now));
  if (!client) throw new ApiError(401, 'Invalid SECRET_KEY');
  await deps.store.mutate((tx) => {
    const invitation = tx.where('invitations', 'token', input.authorizationToken)[0];
    // Another client's invitation answers exactly like an unknown one.
    if (!invitation || invitation.clientId !== client.id) throw new ApiError(400, INVALID_TOKEN);
    if (invitation.usedAt !== null || hasExpired(invitation.expiresAt, now))
      throw new ApiError(400, INVALID_TOKEN);
    const user = tx.get('users', invitation.userId);
    if (!user) throw new ApiError(400, INVALID_TOKEN);
    const active: UserRecord = {
      ...user,
      firstName: input.firstName,
      lastName: input.lastName,
      phoneNo: input.phoneNo,
      password: input.password,
      isActive: true,
    };
    tx.put('users', active);
    tx.put('invitations', { ...invitation, usedAt: isoAt(deps.clock) });
    const role = tx.get('roles', user.roleId)?.name ?? 'Viewer';
    recordAudit(
      tx,
      deps,
      {
        clientId: client.id,
        email: user.email,
        name: `${input.firstName} ${input.lastName}`,
        role,
        ipAddress,
      },
      { businessId: null, type: 'member', action: 'register' },
    );
  });
}

/**
 * Changes what `input` names of a member of `client` (`{}` changes nothing, and answers the same). The owner keeps
 * its role and stays active: a client without an active Admin could not manage itself. An invited member becomes
 * active by completing its registration, not here: it has no password yet.
 */
export async function updateMember(
  deps: Deps,
  actor: Actor,
  client: ClientRecord,
  memberId: string,
  input: UpdateMemberInput,
): Promise<void> {
  if (input.memberRoleId !== undefined && !deps.store.get('roles', input.memberRoleId))
    throw new ApiError(400, 'Invalid memberRoleId');
  await deps.store.mutate((tx) => {
    const user = tx.get('users', canonicalId(memberId));
    // Another client's member answers exactly like an unknown one.
    if (!user || user.clientId !== client.id) throw new ApiError(404, MEMBER_NOT_FOUND);
    const roleId = input.memberRoleId ?? user.roleId;
    const isActive = input.isActive ?? user.isActive;
    if (user.isOwner && (roleId !== user.roleId || isActive !== user.isActive))
      throw new ApiError(400, OWNER_FIXED);
    if (isActive && !user.isActive && user.password === '') throw new ApiError(400, NOT_REGISTERED);
    tx.put('users', {
      ...user,
      roleId,
      isActive,
      firstName: input.firstName ?? user.firstName,
      lastName: input.lastName ?? user.lastName,
      phoneNo: input.phoneNo ?? user.phoneNo,
    });
    recordAudit(tx, deps, actor, { businessId: null, type: 'member', action: 'update' });
  });
}

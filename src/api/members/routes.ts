import {
  completeMemberRegistration,
  inviteMember,
  listMembers,
  listRoles,
  updateMember,
} from '../../bank/members/service.js';
import {
  completeMemberRegistrationContract,
  inviteMemberContract,
  listMemberRolesContract,
  listMembersContract,
  updateMemberContract,
} from '../../contract/api/members.js';
import { DONE } from '../../contract/kit.js';
import { clientIp } from '../../http/auth.js';
import { header } from '../../http/headers.js';
import type { Route } from '../../http/route.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/clients/members`: roles, the member list, invitations and the invited member's registration. */
export const memberRoutes: Route<ApiRuntime>[] = [
  route(listMemberRolesContract, ({ deps, query }) => ({ page: listRoles(deps, query) })),
  route(listMembersContract, ({ deps, caller, query }) => ({
    page: listMembers(deps, caller.client, query),
  })),
  route(inviteMemberContract, async ({ deps, caller, actor, body }) => {
    await inviteMember(deps, actor(), caller.client, body);
    return { status: 201 };
  }),
  route(completeMemberRegistrationContract, async ({ deps, c, body }) => {
    // authenticate() refused a request without it; '' matches no client.
    const secret = header(c, 'secret_key') ?? '';
    await completeMemberRegistration(deps, secret, clientIp(c), body);
    return DONE;
  }),
  // After complete-registration: a path of its own, which `{memberId}` would otherwise take first.
  route(updateMemberContract, async ({ deps, caller, actor, params, body }) => {
    await updateMember(deps, actor(), caller.client, params.memberId, body);
    return DONE;
  }),
];

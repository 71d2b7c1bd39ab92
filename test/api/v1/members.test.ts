import { beforeAll, describe, expect, it } from 'vitest';
import roles from '../../../fixtures/roles.json' with { type: 'json' };
import { auditEntry } from '../../../src/contract/api/audits.js';
import { member, memberRole } from '../../../src/contract/api/members.js';
import { pageOf } from '../../support/answers.js';
import { onePage, pageAt } from '../../support/pagination.js';
import { A, B, call, schemeA, tokenFor, useSandbox } from '../../support/sandbox.js';

const ROLES = '/api/v1/clients/members/roles';
const byName = <T extends { name: string }>(list: readonly T[]) =>
  [...list].sort((a, b) => a.name.localeCompare(b.name));

// Which credentials the role list refuses, with what status and message: route-auth.test.ts, for every route.
describe('member roles', () => {
  const sandbox = useSandbox();
  let headers: Record<string, string>;
  beforeAll(async () => {
    headers = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
  });

  it('lists Admin, Manager and Viewer with the fixture ids, as a page', async () => {
    const res = await call(sandbox, 'GET', ROLES, { headers });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(res.body.message).toBe('Member roles retrieved successfully');
    const { data, pagination } = pageOf(res, memberRole);
    for (const role of data) expect(Object.keys(role).sort()).toEqual(['id', 'name']);
    expect(byName(data)).toEqual(byName(roles));
    expect(data.map((r) => r.name).sort()).toEqual(['Admin', 'Manager', 'Viewer']);
    expect(pagination).toEqual(onePage(3, 10));
  });

  it('pages like every list: limit=2 gives two and a next page, page 2 the third', async () => {
    const first = pageOf(await call(sandbox, 'GET', `${ROLES}?limit=2`, { headers }), memberRole);
    expect(first.data).toHaveLength(2);
    expect(first.pagination).toEqual(pageAt(1, { totalCount: 3, limit: 2, lastPage: 2 }));
    const second = pageOf(await call(sandbox, 'GET', `${ROLES}?page=2&limit=2`, { headers }), memberRole);
    expect(second.data).toHaveLength(1);
    expect(second.pagination).toMatchObject({ hasNextPage: false, hasPreviousPage: true, previousPage: 1 });
    expect(byName([...first.data, ...second.data])).toEqual(byName(roles));
  });

  it.each(['page=0', 'limit=0', 'limit=abc'])('answers 400 to %s', async (query) => {
    const res = await call(sandbox, 'GET', `${ROLES}?${query}`, { headers });
    expect(res.status).toBe(400);
    expect(res.body.status).toBe(false);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: query.split('=')[0] })]);
  });

  it('is the same for every role and every client', async () => {
    const expected = [...roles].sort((a, b) => a.id.localeCompare(b.id));
    const callers: [{ email: string; password: string }, string, string][] = [
      [A.manager, A.secretKey, A.a1.id],
      [A.viewer, A.secretKey, A.a1.id],
      [B.owner, B.secretKey, B.b1.id],
    ];
    for (const [user, secret, businessId] of callers) {
      const token = await tokenFor(sandbox, user);
      const res = await call(sandbox, 'GET', ROLES, { headers: schemeA(token, secret, businessId) });
      expect(res.status, user.email).toBe(200);
      const { data } = pageOf(res, memberRole);
      expect([...data].sort((a, b) => a.id.localeCompare(b.id))).toEqual(expected);
    }
  });
});

describe('update a member', () => {
  const sandbox = useSandbox();
  let owner: Record<string, string>;
  const MEMBERS = '/api/v1/clients/members';
  const roleId = (name: string) => roles.find((r) => r.name === name)?.id ?? '';
  beforeAll(async () => {
    owner = schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
  });
  const members = async () =>
    pageOf(await call(sandbox, 'GET', `${MEMBERS}?limit=100`, { headers: owner }), member).data;
  const memberOf = async (email: string) => {
    const found = (await members()).find((m) => m.email === email);
    if (!found) throw new Error(`no member ${email}`);
    return found;
  };
  const update = async (id: string, body: Record<string, unknown>, headers = owner) =>
    call(sandbox, 'PATCH', `${MEMBERS}/${id}`, { headers, body });

  it("answers the docs' example {} with the docs' message and no data, and changes nothing", async () => {
    const before = await members();
    const { id } = await memberOf(A.manager.email);
    const res = await update(id, {});
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ status: true, message: 'Member updated successfully' });
    expect(await members()).toEqual(before);
  });

  it('changes the role, the names and the phone number the body names, and nothing else', async () => {
    const before = await memberOf(A.manager.email);
    const res = await update(before.id, {
      memberRoleId: roleId('Viewer'),
      firstName: 'Kemi',
      phoneNo: '+2348039999999',
    });
    expect(res.status).toBe(200);
    expect(await memberOf(A.manager.email)).toEqual({
      ...before,
      firstName: 'Kemi',
      phoneNo: '+2348039999999',
      clientMemberRoleId: roleId('Viewer'),
      clientMemberRole: { id: roleId('Viewer'), name: 'Viewer' },
    });
    // The new role holds at once: a Viewer's token may no longer change anything.
    const token = await tokenFor(sandbox, A.manager);
    const refused = await call(sandbox, 'POST', '/api/v1/clients/business/subscriptions', {
      headers: schemeA(token, A.secretKey, A.a1.id),
      body: { amount: 100 },
    });
    expect(refused.status).toBe(403);
    expect(
      (await update(before.id, { memberRoleId: roleId('Manager'), firstName: before.firstName })).status,
    ).toBe(200);
  });

  it('deactivates a member: it can no longer sign in, nor use the token it had; reactivated, it can', async () => {
    const { id } = await memberOf(A.viewer.email);
    const token = await tokenFor(sandbox, A.viewer);
    const viewer = schemeA(token, A.secretKey, A.a1.id);
    expect((await call(sandbox, 'GET', MEMBERS, { headers: viewer })).status).toBe(200);
    expect((await update(id, { isActive: false })).status).toBe(200);
    expect((await memberOf(A.viewer.email)).isActive).toBe(false);
    const signIn = await call(sandbox, 'POST', '/api/v1/auth/signin', {
      body: { email: A.viewer.email, password: A.viewer.password },
    });
    expect(signIn.status).toBe(401);
    expect(signIn.body).toEqual({ status: false, message: 'Invalid email or password', data: null });
    expect((await call(sandbox, 'GET', MEMBERS, { headers: viewer })).status).toBe(401);
    expect((await update(id, { isActive: true })).status).toBe(200);
    expect((await tokenFor(sandbox, A.viewer)).length).toBeGreaterThan(0);
  });

  it("keeps the owner's role and status: 400, and nothing changes; its names may change", async () => {
    const ownerMember = await memberOf(A.owner.email);
    for (const body of [{ isActive: false }, { memberRoleId: roleId('Viewer') }]) {
      const res = await update(ownerMember.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({
        status: false,
        message: 'The owner’s role and status cannot be changed',
        data: null,
      });
    }
    expect(await memberOf(A.owner.email)).toEqual(ownerMember);
    // Its own role and status, sent as they are, change nothing: no refusal.
    expect((await update(ownerMember.id, { isActive: true, memberRoleId: roleId('Admin') })).status).toBe(
      200,
    );
  });

  it('does not activate an invitation not yet completed: it has no password', async () => {
    const invited = await call(sandbox, 'POST', MEMBERS, {
      headers: owner,
      body: { email: 'pending@adebayo.test', memberRoleId: roleId('Viewer') },
    });
    expect(invited.status).toBe(201);
    const { id } = await memberOf('pending@adebayo.test');
    const res = await update(id, { isActive: true });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('The member has not completed registration yet');
    expect((await memberOf('pending@adebayo.test')).isActive).toBe(false);
    // Its names may be set meanwhile.
    expect((await update(id, { firstName: 'Pending' })).status).toBe(200);
  });

  it.each([
    [
      'an unknown memberRoleId',
      { memberRoleId: '00000000-0000-4000-8000-000000000000' },
      'Invalid memberRoleId',
    ],
    ['isActive as text', { isActive: 'false' }, 'isActive is invalid: must be true or false'],
    ['an empty firstName', { firstName: '' }, 'firstName is invalid: must not be empty'],
    ['a phoneNo as a number', { phoneNo: 8031234567 }, 'phoneNo is invalid: must be text'],
  ])('answers 400 to %s and changes nothing', async (_label, body, message) => {
    const before = await members();
    const { id } = await memberOf(A.manager.email);
    const res = await update(id, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: false, message, data: null });
    expect(await members()).toEqual(before);
  });

  it("answers 404 to an unknown id and to another client's member", async () => {
    const bOwner = schemeA(await tokenFor(sandbox, B.owner), B.secretKey, B.b1.id);
    const bMembers = pageOf(await call(sandbox, 'GET', MEMBERS, { headers: bOwner }), member).data;
    const [bMember] = bMembers;
    if (!bMember) throw new Error('client B has no member');
    for (const id of ['00000000-0000-4000-8000-000000000000', bMember.id]) {
      const res = await update(id, { firstName: 'Intruder' });
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ status: false, message: 'Member not found', data: null });
    }
    expect(pageOf(await call(sandbox, 'GET', MEMBERS, { headers: bOwner }), member).data).toEqual(bMembers);
  });

  it('is for the Admin alone (member management), and writes an update entry to the audit log', async () => {
    const { id } = await memberOf(A.viewer.email);
    const manager = schemeA(await tokenFor(sandbox, A.manager), A.secretKey, A.a1.id);
    expect((await update(id, {}, manager)).status).toBe(403);
    expect((await update(id, { lastName: 'Audited' })).status).toBe(200);
    const audits = await call(sandbox, 'GET', '/api/v1/clients/business/audits?type=member&action=update', {
      headers: owner,
    });
    expect(pageOf(audits, auditEntry).data[0]).toMatchObject({
      action: 'update',
      type: 'member',
      email: A.owner.email,
    });
  });
});

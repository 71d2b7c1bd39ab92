import { beforeAll, describe, expect, it } from 'vitest';
import roles from '../../../fixtures/roles.json' with { type: 'json' };
import { memberRole } from '../../../src/contract/api/members.js';
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

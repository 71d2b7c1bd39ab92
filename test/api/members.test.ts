import { beforeAll, describe, expect, it } from 'vitest';
import roles from '../../fixtures/roles.json' with { type: 'json' };
import { memberRoles } from '../../src/api/members/schemas.js';
import type { Sandbox } from '../../src/sandbox.js';
import { dataOf } from '../support/answers.js';
import { A, B, call, memorySandbox, schemeA, tokenFor } from '../support/sandbox.js';

const ROLES = '/api/v1/clients/members/roles';

// Which credentials the role list refuses, with what status and message: route-auth.test.ts, for every route.
describe('member roles', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await memorySandbox();
  });

  it('lists Admin, Manager and Viewer with the fixture ids', async () => {
    const token = await tokenFor(sandbox, A.owner);
    const res = await call(sandbox, 'GET', ROLES, { headers: schemeA(token, A.secretKey, A.a1.id) });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(true);
    expect(typeof res.body.message).toBe('string');
    const data = dataOf(res, memberRoles);
    for (const role of data) expect(Object.keys(role).sort()).toEqual(['id', 'name']);
    expect([...data].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [...roles].sort((a, b) => a.name.localeCompare(b.name)),
    );
    expect(data.map((r) => r.name).sort()).toEqual(['Admin', 'Manager', 'Viewer']);
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
      const data = dataOf(res, memberRoles);
      expect([...data].sort((a, b) => a.id.localeCompare(b.id))).toEqual(expected);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { isValidNuban } from '../../src/domain/nuban.js';
import { currentStateDocument } from '../../src/domain/records.js';
import { embeddedFixturesDir, loadFixtures } from '../../src/store/fixtures.js';
import { buildInitialState } from '../../src/store/seed.js';

describe('fixtures and seeding', async () => {
  const fixtures = await loadFixtures(embeddedFixturesDir);

  it('the same seed gives the same state, byte for byte; another seed other customers', async () => {
    const a = JSON.stringify(await buildInitialState(fixtures, 1));
    const b = JSON.stringify(await buildInitialState(fixtures, 1));
    const c = JSON.stringify(await buildInitialState(fixtures, 2));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('holds what the contract promises', async () => {
    const state = await buildInitialState(fixtures, 1);
    expect(currentStateDocument.safeParse(state).success).toBe(true);
    const { clients, users, businesses, customers, roles } = state.collections;
    expect(clients).toHaveLength(2);
    expect(roles.map((r) => r.name).sort()).toEqual(['Admin', 'Manager', 'Viewer']);
    const roleOf = (id: string) => roles.find((r) => r.id === id)?.name;
    const [a, b] = clients;
    expect(users.filter((u) => u.clientId === a?.id).map((u) => roleOf(u.roleId))).toEqual([
      'Admin',
      'Manager',
      'Viewer',
    ]);
    const [a1, a2] = businesses.filter((x) => x.clientId === a?.id);
    expect(a1).toMatchObject({ isApproved: true, balance: 500_000_000 });
    expect(a1?.account).not.toBeNull();
    expect(a2).toMatchObject({ isApproved: false, account: null });
    const b1 = businesses.find((x) => x.clientId === b?.id);
    expect(b1?.isApproved).toBe(true);
    expect(b1?.balance).toBeGreaterThan(0);
    const a1Customers = customers.filter((x) => x.businessId === a1?.id);
    expect(a1Customers.length).toBeGreaterThanOrEqual(25);
    for (const cu of a1Customers) {
      expect(isValidNuban(fixtures.banks.homeBankCode, cu.nuban)).toBe(true);
      expect(cu.dateCreated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(fixtures.states).toHaveLength(37);
  });
});

import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../src/contract/examples.js';
import { isValidNuban } from '../../src/domain/nuban.js';
import { currentStateDocument } from '../../src/domain/records.js';
import { embeddedFixturesDir, FixtureError, loadFixtures } from '../../src/store/fixtures.js';
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

  it("gives client A the history the documents' examples name, and A1's balance after it, which its ledger explains", async () => {
    const { collections } = await buildInitialState(fixtures, 1);
    const a1 = collections.businesses.find((b) => b.id === fixture.a1);
    const ledger = collections.transactions.filter((t) => t.businessId === fixture.a1);
    expect(ledger.map((t) => t.id)).toEqual([fixture.disputedPayment, fixture.payment]);
    expect(a1?.balance).toBe(500_000_000);
    expect(a1?.balance).toBe(
      (a1?.openingBalance ?? 0) + ledger.reduce((sum, t) => sum + t.amount - t.charge, 0),
    );
    expect(ledger.at(-1)?.balanceAfter).toBe(a1?.balance);
    expect(ledger.every((t) => t.virtualAccountNumber === fixture.virtualAccount)).toBe(true);
    expect(collections.virtualAccounts.map((v) => v.accountNumber)).toEqual([fixture.virtualAccount]);
    expect(isValidNuban(fixtures.banks.homeBankCode, fixture.virtualAccount)).toBe(true);
    expect(collections.disputes).toEqual([
      expect.objectContaining({
        id: fixture.dispute,
        transactionId: fixture.disputedPayment,
        status: 'open',
      }),
    ]);
    expect(collections.payouts.map((p) => [p.id, p.clientId])).toEqual([[fixture.payout, fixture.clientA]]);
    expect(collections.audits.map((a) => a.id)).toContain(fixture.audit);
    expect(collections.bulkTransfers).toEqual([
      expect.objectContaining({ id: fixture.batch, status: 'failed', totalItems: 1, failedItems: 1 }),
    ]);
    expect(collections.bulkItems).toEqual([
      expect.objectContaining({ id: fixture.batchItem, bulkTransferId: fixture.batch, status: 'failed' }),
    ]);
  });

  it('lists only billers that are bank codes: the docs example’s 076 among them, a stray code refused by name', async () => {
    const banks = new Set(fixtures.banks.banks.map((b) => b.code));
    expect(fixtures.billers).toContain('076');
    expect(fixtures.billers.filter((code) => !banks.has(code))).toEqual([]);
    const dir = await mkdtemp(join(tmpdir(), 'fixtures-'));
    try {
      await cp(embeddedFixturesDir, dir, { recursive: true });
      await writeFile(join(dir, 'billers.json'), JSON.stringify(['044', '999']));
      const refused = loadFixtures(dir);
      await expect(refused).rejects.toThrow(FixtureError);
      await expect(refused).rejects.toThrow(
        `${join(dir, 'billers.json')}: 1: 999 is not a bank code of banks.json`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

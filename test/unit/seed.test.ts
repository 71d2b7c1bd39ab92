import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import { fixture } from '../../src/contract/examples.js';
import { isValidNuban } from '../../src/domain/nuban.js';
import { currentStateDocument } from '../../src/domain/records.js';
import { embeddedFixturesDir, FixtureError, type Fixtures, loadFixtures } from '../../src/store/fixtures.js';
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

  /** A copy of the embedded fixtures whose clients.json `change` alters, removed once the test finishes. */
  async function folderWith(
    { onTestFinished }: TestContext,
    change: (clients: Fixtures['clients']) => void,
  ): Promise<{ dir: string; file: string }> {
    const dir = await mkdtemp(join(tmpdir(), 'fixtures-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    await cp(embeddedFixturesDir, dir, { recursive: true });
    const file = join(dir, 'clients.json');
    const clients = JSON.parse(await readFile(file, 'utf8')) as Fixtures['clients'];
    change(clients);
    await writeFile(file, JSON.stringify(clients));
    return { dir, file };
  }

  /** Client A's first business, A1, whose history the fixtures hold. */
  const a1Of = (clients: Fixtures['clients']) => {
    const a1 = clients[0]?.businesses[0];
    if (!a1) throw new Error('the fixtures have no business A1');
    return a1;
  };

  it.for<[string, (clients: Fixtures['clients']) => void, string]>([
    [
      'payments that credit more than the balance after them',
      (clients) => {
        a1Of(clients).balance = 100;
      },
      `0.businesses.0.balance: 100 is less than business ${fixture.a1}'s payments credit (1741250 kobo after charges): the balance is the one after them`,
    ],
    [
      'an audit entry by someone who is no user of its client',
      (clients) => {
        const audit = clients[0]?.audits[2];
        if (audit) audit.email = 'stranger@example.com';
      },
      `0.audits.2.email: stranger@example.com is no user of client ${fixture.clientA} (its owner or members)`,
    ],
    [
      'a payment to an account the business has no virtual account of',
      (clients) => {
        const payment = a1Of(clients).payments[1];
        if (payment) payment.accountNumber = '9000000028';
      },
      `0.businesses.0.payments.1.accountNumber: 9000000028 is not one of business ${fixture.a1}'s virtualAccounts`,
    ],
    [
      'a dispute on no payment of its business',
      (clients) => {
        const dispute = a1Of(clients).disputes[0];
        if (dispute) dispute.transactionId = 'SBX-NO-SUCH-PAYMENT';
      },
      `0.businesses.0.disputes.0.transactionId: SBX-NO-SUCH-PAYMENT is not the transactionReference of one of business ${fixture.a1}'s payments`,
    ],
  ])('refuses a history with %s, naming the file and the record', async ([, change, message], context) => {
    const { dir, file } = await folderWith(context, change);
    const refused = loadFixtures(dir);
    await expect(refused).rejects.toThrow(FixtureError);
    await expect(refused).rejects.toThrow(`fixture ${file}: ${message}`);
  });

  it('refuses, as a FixtureError, such a history in fixtures that did not come through loadFixtures', async () => {
    const overdrawn = structuredClone(fixtures);
    a1Of(overdrawn.clients).balance = 100;
    const stranger = structuredClone(fixtures);
    const audit = stranger.clients[0]?.audits[0];
    if (audit) audit.email = 'stranger@example.com';
    for (const [bad, message] of [
      [overdrawn, `fixture clients.json: business ${fixture.a1}: its payments credit more than its balance`],
      [stranger, `is no user of client ${fixture.clientA}`],
    ] as const) {
      const refused = buildInitialState(bad, 1);
      await expect(refused).rejects.toThrow(FixtureError);
      await expect(refused).rejects.toThrow(message);
    }
  });
});

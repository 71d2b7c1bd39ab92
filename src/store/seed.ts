import { REAL_TIME } from '../domain/clock.js';
import { incomingCharge } from '../domain/fees.js';
import { makeNuban } from '../domain/nuban.js';
import { Random, seedState } from '../domain/random.js';
import type {
  AuditRecord,
  BulkItemRecord,
  BulkTransferRecord,
  BusinessRecord,
  CustomerRecord,
  DisputeRecord,
  PayoutRecord,
  StateDocument,
  SubscriptionRecord,
  TransactionRecord,
  UserRecord,
  VirtualAccountRecord,
} from '../domain/records.js';
import { FixtureError, type Fixtures } from './fixtures.js';

type ClientFixture = Fixtures['clients'][number];
type BusinessFixture = ClientFixture['businesses'][number];

/** What a business's history in the fixtures adds to the state: the records of its accounts, payments, disputes, batches. */
interface History {
  virtualAccounts: VirtualAccountRecord[];
  transactions: TransactionRecord[];
  disputes: DisputeRecord[];
  bulkTransfers: BulkTransferRecord[];
  bulkItems: BulkItemRecord[];
}

/**
 * The records of a business's history in the fixtures, and its opening balance: the payments received are the
 * ledger's first entries (each credits amount less the incoming charge), so the fixture's `balance` is the balance
 * after them, and the opening balance is what it was before. They were notified before the state began: the
 * delivery log starts empty.
 */
function historyOf(
  fixtures: Fixtures,
  client: ClientFixture,
  b: BusinessFixture,
  into: History,
): { openingBalance: number } {
  for (const v of b.virtualAccounts) {
    into.virtualAccounts.push({
      id: v.id,
      clientId: client.id,
      businessId: b.id,
      accountNumber: v.accountNumber,
      accountName: `${v.firstName} ${v.lastName}`,
      firstName: v.firstName,
      lastName: v.lastName,
      type: v.type,
      clientRef: v.reference,
      systemRef: v.systemRef,
      createdAt: v.createdAt,
      expiresAt: null,
      reservedAmount: null,
      usedBy: null,
    });
  }
  const credits = b.payments.map((p) => p.amount - incomingCharge(p.amount, fixtures.fees));
  let balance = b.balance - credits.reduce((sum, credit) => sum + credit, 0);
  // `loadFixtures` refuses such a folder first, naming the record's place in the file; kept for fixtures made
  // another way, and a FixtureError so that the CLI still exits 2 with one line.
  if (balance < 0)
    throw new FixtureError(
      `fixture clients.json: business ${b.id}: its payments credit more than its balance`,
    );
  const openingBalance = balance;
  b.payments.forEach((p, i) => {
    const charge = incomingCharge(p.amount, fixtures.fees);
    balance += credits[i] ?? 0;
    into.transactions.push({
      id: p.transactionReference,
      businessId: b.id,
      kind: 'incoming_payment',
      direction: 'credit',
      status: 'successful',
      amount: p.amount,
      charge,
      balanceAfter: balance,
      retrievalReference: null,
      narration: p.narration,
      counterparty: {
        accountNumber: p.payerAccountNumber,
        bankCode: p.payerBankCode,
        accountName: p.accountName,
      },
      errorCode: '',
      errorMessage: '',
      providerReference: null,
      fingerprint: null,
      requestId: null,
      virtualAccountNumber: p.accountNumber,
      createdAt: p.at,
    });
  });
  for (const d of b.disputes)
    into.disputes.push({ ...d, businessId: b.id, status: 'open', resolvedAt: null });
  for (const batch of b.bulkTransfers) {
    into.bulkTransfers.push({
      id: batch.id,
      clientId: client.id,
      businessId: b.id,
      bulkReference: batch.bulkReference,
      batchName: batch.batchName,
      ordinal: 0,
      totalItems: batch.items.length,
      completedItems: 0,
      failedItems: batch.items.length,
      status: 'failed',
      failureReason: null,
      jobId: null,
      requestId: null,
      createdAt: batch.createdAt,
    });
    batch.items.forEach((item, itemIndex) => {
      into.bulkItems.push({
        ...item,
        bulkTransferId: batch.id,
        itemIndex,
        originalTransactionReference: null,
        status: 'failed',
        providerReference: '',
        reprocessCount: 0,
      });
    });
  }
  return { openingBalance };
}

/** Customers are dated inside this fixed window, so the seed alone decides the dates. */
const CUSTOMER_DATES = { from: '2024-01-01T00:00:00.000Z', to: '2025-12-31T23:59:59.000Z' };

/**
 * The initial state built from the fixtures and the seed. Everything that is not in the fixture files
 * (customers, the token key, the generator state) is drawn from the seed, so the same files and seed give the
 * same state, byte for byte.
 */
export async function buildInitialState(fixtures: Fixtures, seed: number): Promise<StateDocument> {
  // Loaded only when a state is built (first start, reset): faker is the heaviest module we use, and its
  // Nigerian-English build (which falls back to English) is a tenth of the whole package with every locale.
  const { faker } = await import('@faker-js/faker/locale/en_NG');
  faker.seed(seed);
  const random = new Random(seedState(seed));
  const roleId = (name: string): string => {
    const role = fixtures.roles.find((r) => r.name === name);
    if (!role) throw new Error(`no role named ${name}`);
    return role.id;
  };

  const users: UserRecord[] = [];
  const businesses: BusinessRecord[] = [];
  const customers: CustomerRecord[] = [];
  const subscriptions: SubscriptionRecord[] = [];
  const payouts: PayoutRecord[] = [];
  const audits: AuditRecord[] = [];
  const history: History = {
    virtualAccounts: [],
    transactions: [],
    disputes: [],
    bulkTransfers: [],
    bulkItems: [],
  };
  for (const client of fixtures.clients) {
    const people = [
      { ...client.owner, role: 'Admin' as const, isOwner: true },
      ...client.members.map((m) => ({ ...m, isOwner: false })),
    ];
    for (const p of people) {
      users.push({
        id: p.id,
        clientId: client.id,
        email: p.email.toLowerCase(),
        password: p.password,
        firstName: p.firstName,
        lastName: p.lastName,
        phoneNo: p.phoneNo,
        roleId: roleId(p.role),
        isOwner: p.isOwner,
        isActive: true,
        createdAt: client.createdAt,
      });
    }
    for (const p of client.payouts) payouts.push({ ...p, clientId: client.id, createdAt: client.createdAt });
    for (const a of client.audits) {
      const user = people.find((u) => u.email.toLowerCase() === a.email.toLowerCase());
      if (!user)
        throw new FixtureError(
          `fixture clients.json: audit ${a.id}: ${a.email} is no user of client ${client.id}`,
        );
      audits.push({
        ...a,
        clientId: client.id,
        email: user.email.toLowerCase(),
        user: `${user.firstName} ${user.lastName}`,
        role: user.role,
      });
    }
    for (const b of client.businesses) {
      const { openingBalance } = historyOf(fixtures, client, b, history);
      businesses.push({
        id: b.id,
        clientId: client.id,
        businessName: b.businessName,
        bvn: b.bvn,
        photoIdUrl: '',
        businessDocumentsUrls: [],
        isApproved: b.isApproved,
        residentialAddress: b.residentialAddress,
        stateId: b.stateId,
        countryId: 'NG',
        isNewBusiness: false,
        createdAt: client.createdAt,
        account:
          b.isApproved && b.accountNumber
            ? {
                accountNumber: b.accountNumber,
                accountType: b.accountType ?? 'current',
                customerId: b.customerId ?? '',
              }
            : null,
        openingBalance,
        balance: b.balance,
      });
      for (const plan of b.subscriptions) {
        subscriptions.push({ ...plan, clientId: client.id, businessId: b.id, createdAt: client.createdAt });
      }
      for (let i = 0; i < b.customers; i++) {
        const firstName = faker.person.firstName();
        const lastName = faker.person.lastName();
        customers.push({
          id: faker.string.uuid(),
          businessId: b.id,
          name: `${firstName} ${lastName}`,
          phoneNo: `+234${faker.helpers.arrayElement(['803', '806', '813', '816', '703', '706', '903', '906', '810', '802', '808', '812', '701', '902', '805', '807', '815', '905', '809', '817', '818', '908', '909'])}${faker.string.numeric(7)}`,
          email: faker.internet.email({ firstName, lastName }).toLowerCase(),
          dateCreated: faker.date.between(CUSTOMER_DATES).toISOString(),
          nuban: makeNuban(fixtures.banks.homeBankCode, faker.string.numeric(9)),
        });
      }
    }
  }

  const jwtSecret = random.hex(64);
  return {
    version: 1,
    collections: {
      // A fresh state runs on real time (a reset brings the clock back to now).
      meta: [{ id: 'meta', seed, jwtSecret, clock: { ...REAL_TIME } }],
      roles: fixtures.roles.map((r) => ({ id: r.id, name: r.name })),
      clients: fixtures.clients.map((c) => ({
        id: c.id,
        name: c.name,
        email: c.owner.email.toLowerCase(),
        publicKey: c.publicKey,
        secretKey: c.secretKey,
        retiredSecrets: [],
        webhookUrl: null,
        webhookAuthKey: c.webhookAuthKey,
        billers: [],
        createdAt: c.createdAt,
      })),
      users,
      businesses,
      customers,
      transactions: history.transactions,
      payouts,
      disputes: history.disputes,
      audits,
      invitations: [],
      outbox: [],
      virtualAccounts: history.virtualAccounts,
      subscriptions,
      bulkTransfers: history.bulkTransfers,
      bulkItems: history.bulkItems,
      deliveries: [],
      scheduled: [],
    },
  };
}

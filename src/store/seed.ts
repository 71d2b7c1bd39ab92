import { REAL_TIME } from '../domain/clock.js';
import { makeNuban } from '../domain/nuban.js';
import { Random, seedState } from '../domain/random.js';
import type {
  BusinessRecord,
  CustomerRecord,
  StateDocument,
  SubscriptionRecord,
  UserRecord,
} from '../domain/records.js';
import type { Fixtures } from './fixtures.js';

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
    for (const b of client.businesses) {
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
        openingBalance: b.balance,
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
      transactions: [],
      payouts: [],
      disputes: [],
      audits: [],
      invitations: [],
      outbox: [],
      virtualAccounts: [],
      subscriptions,
      bulkTransfers: [],
      bulkItems: [],
      deliveries: [],
    },
  };
}

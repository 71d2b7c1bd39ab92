import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { incomingCharge } from '../domain/fees.js';
import { roleName } from '../domain/roles.js';
import { keepName, SandboxError } from '../errors.js';
import { nearestFolder } from './nearest-folder.js';

/**
 * The fixtures folder shipped with the package (the default of `--fixtures`): the nearest `fixtures/` above this
 * module, which is `src/store/` when run from source and `dist/` when bundled.
 */
export const embeddedFixturesDir =
  nearestFolder(import.meta.url, 'fixtures', 'banks.json', 4) ??
  join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

const digits = (n: number) => z.string().regex(new RegExp(`^\\d{${n}}$`), `must be ${n} digits`);
const bankCode = z.string().regex(/^\d{3}$|^\d{6}$/, 'must be a 3- or 6-digit bank code');

const userFixture = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.email(),
  password: z.string().min(1),
  phoneNo: z.string(),
});

const fixtureSchemas = {
  banks: z.object({
    homeBankCode: bankCode,
    banks: z.array(z.object({ code: bankCode, name: z.string() })).min(1),
  }),
  billers: z.array(bankCode),
  fees: z.object({
    /** Outgoing transfer fee tiers in kobo, ascending; `upTo: null` is the last tier. */
    transfer: z
      .array(z.object({ upTo: z.number().int().positive().nullable(), fee: z.number().int().nonnegative() }))
      .min(1),
    /** Incoming payment charge: a rate in basis points, capped, in kobo. */
    incoming: z.object({
      rateBasisPoints: z.number().int().nonnegative(),
      cap: z.number().int().nonnegative(),
    }),
  }),
  roles: z.array(z.object({ id: z.string(), name: roleName })).length(3),
  /**
   * The BVN register's known people (`POST /clients/business/validate-bvn`); any other BVN names a person drawn
   * from the seed. Optional: a fixtures folder written before it existed has none.
   */
  bvns: z
    .array(
      z.object({
        bvn: digits(11),
        firstName: z.string().min(1),
        lastName: z.string().min(1),
        otherNames: z.string(),
        phoneNumber: z.string().min(1),
        dob: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD'),
      }),
    )
    .default([]),
  /**
   * NIBSS response codes and their messages: what the `narration-codes` scenario fails a transfer with when its
   * narration holds `#sandbox:CODE`. Optional: a fixtures folder written before it existed has none.
   */
  nibss: z
    .array(
      z.object({
        code: z.string().regex(/^\d{2}$/, 'must be 2 digits'),
        message: z.string().min(1).max(200),
      }),
    )
    .max(100)
    .default([]),
  states: z.array(z.object({ id: z.string(), name: z.string() })).min(1),
  clients: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      publicKey: z.string().regex(/^pk_sandbox_[0-9a-f]{32}$/),
      secretKey: z.string().regex(/^sk_sandbox_[0-9a-f]{32}$/),
      webhookAuthKey: z.string().min(16),
      createdAt: z.iso.datetime(),
      owner: userFixture,
      members: z.array(userFixture.extend({ role: roleName })),
      /** Its payout accounts (the client's, whichever business shows them); none when left out. */
      payouts: z
        .array(
          z.object({
            id: z.string(),
            accountName: z.string().min(1),
            accountNumber: digits(10),
            bankCode,
            bankName: z.string().min(1),
          }),
        )
        .default([]),
      /** Audit entries of the records above, written by one of its users (`email`); none when left out. */
      audits: z
        .array(
          z.object({
            id: z.string(),
            businessId: z.string().nullable(),
            email: z.email(),
            action: z.string().min(1),
            type: z.string().min(1),
            date: z.iso.datetime(),
            ipAddress: z.string(),
          }),
        )
        .default([]),
      businesses: z.array(
        z.object({
          id: z.string(),
          businessName: z.string(),
          isApproved: z.boolean(),
          accountNumber: digits(10).optional(),
          customerId: z.string().optional(),
          accountType: z.string().optional(),
          balance: z.number().int().nonnegative(),
          bvn: z.string(),
          residentialAddress: z.string(),
          stateId: z.string(),
          /** How many customers to generate with the seeded faker. */
          customers: z.number().int().nonnegative(),
          /**
           * Virtual accounts it has, and payments they received before the state began (the ledger's first
           * entries, each with a webhook delivery, `skipped` as the client has no webhook URL): the suspense
           * account's history, and a `transactionId` the documents' examples name. `balance` is the balance after
           * them; the opening balance is what it was before.
           */
          virtualAccounts: z
            .array(
              z.object({
                id: z.string(),
                accountNumber: digits(10),
                firstName: z.string().min(1),
                lastName: z.string().min(1),
                type: z.enum(['permanent', 'temporal']),
                reference: z.string().min(1),
                systemRef: z.string().min(1),
                createdAt: z.iso.datetime(),
              }),
            )
            .default([]),
          payments: z
            .array(
              z.object({
                transactionReference: z.string().min(1),
                accountNumber: digits(10),
                amount: z.number().int().positive(),
                accountName: z.string().min(1),
                payerAccountNumber: digits(10),
                payerBankCode: bankCode,
                narration: z.string().min(1),
                at: z.iso.datetime(),
              }),
            )
            .default([]),
          /** Open disputes on its payments. */
          disputes: z
            .array(
              z.object({
                id: z.string(),
                transactionId: z.string(),
                description: z.string().min(1),
                dateCreated: z.iso.datetime(),
              }),
            )
            .default([]),
          /** Batches already run: each item `failed` (no money moved), so the batch is `failed`. */
          bulkTransfers: z
            .array(
              z.object({
                id: z.string(),
                bulkReference: z.string(),
                batchName: z.string().min(1),
                createdAt: z.iso.datetime(),
                items: z
                  .array(
                    z.object({
                      id: z.string(),
                      amount: z.number().int().positive(),
                      receiverAccountNumber: digits(10),
                      receiverBankCode: bankCode,
                      retrievalReference: z.string().min(1),
                      narration: z.string().min(1),
                      transactionReference: z.string().min(1),
                      errorCode: z.string().min(1),
                      errorMessage: z.string().min(1),
                      processedAt: z.iso.datetime(),
                    }),
                  )
                  .min(1),
              }),
            )
            .default([]),
          /** Its subscription plans (`GET /clients/business/subscriptions`); none when left out. */
          subscriptions: z
            .array(
              z.object({
                id: z.string(),
                packageName: z.string().min(1),
                amount: z.number().int().nonnegative(),
                interval: z.string().min(1),
              }),
            )
            .default([]),
        }),
      ),
    }),
  ),
};

export type Fixtures = { [K in keyof typeof fixtureSchemas]: z.infer<(typeof fixtureSchemas)[K]> };

/** Whether an id names a state of `fixtures` (to bring an earlier version's state ids up to date). */
export function isFixtureState(fixtures: Pick<Fixtures, 'states'>): (id: string) => boolean {
  const ids = new Set(fixtures.states.map((s) => s.id));
  return (id) => ids.has(id);
}

/** A fixture file that cannot be read or does not hold (named with the bad field): 400. */
export class FixtureError extends SandboxError {
  static {
    keepName(FixtureError, 'FixtureError');
  }

  constructor(message: string) {
    super(message, 400);
  }
}

/** The fixture files a folder may leave out (added since folders of one's own were first written). */
const OPTIONAL = new Set(['bvns', 'nibss']);

/** Reads and validates every fixture file of `dir`; a bad file fails with its name and the bad field. */
export async function loadFixtures(dir: string): Promise<Fixtures> {
  const out = {} as Record<string, unknown>;
  for (const [name, schema] of Object.entries(fixtureSchemas)) {
    const file = join(dir, `${name}.json`);
    let raw: unknown;
    try {
      raw = OPTIONAL.has(name) && !existsSync(file) ? undefined : JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new FixtureError(`fixture ${file}: ${(error as Error).message}`);
    }
    // Read once, at start-up: without compiling each schema's fast path first (zod's JIT), which costs more than
    // the one parse it would speed up.
    const parsed = schema.safeParse(raw, { jitless: true });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new FixtureError(`fixture ${file}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`);
    }
    out[name] = parsed.data;
  }
  const fixtures = out as Fixtures;
  // A biller is a bank a transfer can reach (contract, section 3): one the bank list lacks could be enabled and
  // then not paid.
  const banks = new Set(fixtures.banks.banks.map((b) => b.code));
  const stray = fixtures.billers.findIndex((code) => !banks.has(code));
  if (stray >= 0)
    throw new FixtureError(
      `fixture ${join(dir, 'billers.json')}: ${stray}: ${fixtures.billers[stray]} is not a bank code of banks.json`,
    );
  checkHistory(fixtures, join(dir, 'clients.json'));
  return fixtures;
}

/**
 * What the schemas cannot see across the records of `clients.json`: a business's payments credit no more than its
 * balance (which is the balance after them), each lands on one of that business's virtual accounts, each dispute
 * names a payment of its business, and each audit entry's email is a user of its client. A folder of one's own that
 * breaks one is refused at start-up, naming the file and the record, rather than built into a state the API would
 * contradict (a dispute on no transaction, money on no account, a negative opening balance).
 */
function checkHistory(fixtures: Fixtures, file: string): void {
  const refuse = (path: (string | number)[], message: string) => {
    throw new FixtureError(`fixture ${file}: ${path.join('.')}: ${message}`);
  };
  fixtures.clients.forEach((client, c) => {
    const users = new Set([client.owner, ...client.members].map((u) => u.email.toLowerCase()));
    client.audits.forEach((audit, i) => {
      if (!users.has(audit.email.toLowerCase()))
        refuse(
          [c, 'audits', i, 'email'],
          `${audit.email} is no user of client ${client.id} (its owner or members)`,
        );
    });
    client.businesses.forEach((b, n) => {
      const at = [c, 'businesses', n];
      const credited = b.payments.reduce(
        (sum, p) => sum + p.amount - incomingCharge(p.amount, fixtures.fees),
        0,
      );
      if (credited > b.balance)
        refuse(
          [...at, 'balance'],
          `${b.balance} is less than business ${b.id}'s payments credit (${credited} kobo after charges): the balance is the one after them`,
        );
      const accounts = new Set(b.virtualAccounts.map((v) => v.accountNumber));
      b.payments.forEach((p, i) => {
        if (!accounts.has(p.accountNumber))
          refuse(
            [...at, 'payments', i, 'accountNumber'],
            `${p.accountNumber} is not one of business ${b.id}'s virtualAccounts`,
          );
      });
      const payments = new Set(b.payments.map((p) => p.transactionReference));
      b.disputes.forEach((d, i) => {
        if (!payments.has(d.transactionId))
          refuse(
            [...at, 'disputes', i, 'transactionId'],
            `${d.transactionId} is not the transactionReference of one of business ${b.id}'s payments`,
          );
      });
    });
  });
}

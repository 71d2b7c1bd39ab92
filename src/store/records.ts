import * as z from 'zod';

/**
 * Every persisted record, defined once. The zod schemas validate state imports (`PUT /__sandbox/state`) and
 * give the record types; services build records of these types and never mutate them after `put`.
 */
export const clientRecord = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  publicKey: z.string(),
  secretKey: z.string(),
  /** Secrets replaced by a rotation, each valid until `validUntil` (ms since epoch). */
  retiredSecrets: z.array(z.object({ key: z.string(), validUntil: z.number() })),
  webhookUrl: z.string().nullable(),
  webhookAuthKey: z.string(),
  billers: z.array(z.string()),
  createdAt: z.string(),
});

export const userRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  /** Stored lowercase: sign-in matches emails case-insensitively. */
  email: z.string(),
  password: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phoneNo: z.string(),
  roleId: z.string(),
  isOwner: z.boolean(),
  isActive: z.boolean(),
  createdAt: z.string(),
});

export const accountRecord = z.object({
  accountNumber: z.string(),
  accountType: z.string(),
  customerId: z.string(),
});

export const businessRecord = z.object({
  id: z.string(),
  clientId: z.string(),
  businessName: z.string(),
  bvn: z.string(),
  photoIdUrl: z.string(),
  businessDocumentsUrls: z.array(z.string()),
  isApproved: z.boolean(),
  residentialAddress: z.string(),
  stateId: z.string(),
  countryId: z.string(),
  isNewBusiness: z.boolean(),
  createdAt: z.string(),
  /** The payment account; null until the business is approved. */
  account: accountRecord.nullable(),
  /** Available balance in kobo. */
  balance: z.number().int().nonnegative(),
});

export const customerRecord = z.object({
  id: z.string(),
  businessId: z.string(),
  name: z.string(),
  phoneNo: z.string(),
  email: z.string(),
  dateCreated: z.string(),
  nuban: z.string(),
});

export const roleRecord = z.object({ id: z.string(), name: z.string() });

export const metaRecord = z.object({
  id: z.literal('meta'),
  seed: z.number().int(),
  /** State of the seeded generator, so identifiers keep coming from one sequence across restarts. */
  random: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /** HS256 key of the access tokens; kept in the state so tokens survive a restart. */
  jwtSecret: z.string(),
});

export const collectionSchemas = {
  meta: metaRecord,
  roles: roleRecord,
  clients: clientRecord,
  users: userRecord,
  businesses: businessRecord,
  customers: customerRecord,
} as const;

export type ClientRecord = z.infer<typeof clientRecord>;
export type UserRecord = z.infer<typeof userRecord>;
export type AccountRecord = z.infer<typeof accountRecord>;
export type BusinessRecord = z.infer<typeof businessRecord>;
export type CustomerRecord = z.infer<typeof customerRecord>;
export type RoleRecord = z.infer<typeof roleRecord>;
export type MetaRecord = z.infer<typeof metaRecord>;

export type Collections = { [K in keyof typeof collectionSchemas]: z.infer<(typeof collectionSchemas)[K]> };
export type CollectionName = keyof Collections;
export const collectionNames = Object.keys(collectionSchemas) as CollectionName[];

/** Fields looked up by value; the store keeps an index for each, in memory only. */
export const indexedFields: { [K in CollectionName]?: readonly (keyof Collections[K] & string)[] } = {
  clients: ['publicKey'],
  users: ['email', 'clientId'],
  businesses: ['clientId'],
  customers: ['businessId'],
};

/** The whole state as exported, imported and written to the snapshot file. */
export const stateDocument = z.object({
  version: z.literal(1),
  collections: z.object(
    Object.fromEntries(collectionNames.map((name) => [name, z.array(collectionSchemas[name])])) as {
      [K in CollectionName]: z.ZodArray<(typeof collectionSchemas)[K]>;
    },
  ),
});
export type StateDocument = z.infer<typeof stateDocument>;

import * as z from 'zod';
import { virtualAccount } from '../../api/virtual-accounts/schemas.js';
import { longPageQuery } from '../../domain/pagination.js';
import { roleName } from '../../domain/roles.js';
import { lazy } from '../../http/route.js';
import { isoDate, kobo, pagination } from '../../http/wire.js';

// The clients, their logins and keys.

export const newClientBody = z.object({
  name: z.string().trim().min(2).max(100).optional(),
  /** Balance of its approved business, kobo (default 500 000 000). */
  balance: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /** Members to add beside the owner (who is Admin). */
  members: z.array(roleName).max(20).optional(),
  webhookUrl: z.url().max(2048).optional(),
});
export type NewClient = z.infer<typeof newClientBody>;

// What the routes answer.

export const clientCredentials = lazy('ClientCredentials', () =>
  z.strictObject({
    clientId: z.string(),
    name: z.string(),
    email: z.string(),
    password: z.string(),
    publicKey: z.string(),
    secretKey: z.string(),
    webhookAuthKey: z.string(),
    businesses: z.array(
      z.strictObject({
        id: z.string(),
        businessName: z.string(),
        isApproved: z.boolean(),
        accountNumber: z.string().nullable(),
        accountBalance: kobo(),
      }),
    ),
    members: z.array(z.strictObject({ email: z.string(), password: z.string(), role: z.string() })),
  }),
);
export type ClientCredentialsView = z.infer<ReturnType<typeof clientCredentials>>;

/** What `POST /__sandbox/clients` answers: one `credentials` entry and a permanent virtual account, ready to pay into. */
export const newClientCredentials = lazy('NewClientCredentials', () =>
  clientCredentials().extend({
    virtualAccount: virtualAccount().describe(
      'a permanent virtual account of the new business: `POST /__sandbox/incoming-payments` pays into its `accountNumber`',
    ),
  }),
);
export type NewClientCredentialsView = z.infer<ReturnType<typeof newClientCredentials>>;

/** A page of the clients (100 by default, at most 1000), in the order they were made: the fixtures' first. */
export const credentialsQuery = longPageQuery;

export const credentials = lazy('Credentials', () =>
  z.strictObject({
    clients: z.array(clientCredentials()).describe('a page of the clients, the fixtures’ first'),
    pagination: pagination().describe('of `clients`'),
  }),
);
export type CredentialsView = z.infer<ReturnType<typeof credentials>>;

export const rotatedSecret = lazy('RotatedSecret', () =>
  z.strictObject({
    clientId: z.string(),
    secretKey: z.string(),
    previousSecretValidUntil: isoDate().describe('until then the old key still works (`--secret-grace`)'),
  }),
);
export type RotatedSecretView = z.infer<ReturnType<typeof rotatedSecret>>;

import * as z from 'zod';
import { longPageQuery } from '../../domain/pagination.js';
import { roleName } from '../../domain/roles.js';
import { WEBHOOK_URL_WARNINGS } from '../api/settings.js';
import { virtualAccount } from '../api/virtual-accounts.js';
import { fixture } from '../examples.js';
import { contract, deferred, lazy, reply } from '../kit.js';
import { isoDate, kobo, pagination } from '../wire.js';

// The clients, their logins and keys.

export const newClientBody = deferred(() =>
  z.object({
    name: z.string().trim().min(2).max(100).optional(),
    /** Balance of its approved business, kobo (default 500 000 000). */
    balance: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    /** Members to add beside the owner (who is Admin). */
    members: z.array(roleName).max(20).optional(),
    /**
     * Any http or https URL: a tester's CI names its receiver as it likes (a host alias, a cluster's service name),
     * where the bank's own setting takes plain http to local names only.
     */
    webhookUrl: z
      .url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' })
      .max(2048)
      .optional(),
  }),
);
export type NewClient = z.infer<ReturnType<typeof newClientBody>>;

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

const TAG = 'Sandbox';

export const credentialsContract = contract({
  operationId: 'credentials',
  method: 'get',
  path: '/credentials',
  summary: 'Credentials',
  description:
    'Every client’s logins, keys, businesses and members, from the live state: a page of 100 clients by default (`page`, `limit` up to 1000), the fixtures’ first, with `pagination` in `data`.',
  tag: TAG,
  auth: { scheme: 'none' },
  query: credentialsQuery,
  responses: { 200: reply('Sandbox credentials', credentials) },
});

export const createClientContract = contract({
  operationId: 'createClient',
  method: 'post',
  path: '/clients',
  summary: 'Create an isolated client',
  description:
    'A client of its own (keys, owner, an approved funded business, members) for one parallel test worker, with a permanent virtual account of its business ready for `POST /__sandbox/incoming-payments`.',
  tag: TAG,
  auth: { scheme: 'none' },
  body: newClientBody,
  example: { name: 'Worker 1', balance: 500000000, members: ['Manager', 'Viewer'] },
  warns: WEBHOOK_URL_WARNINGS,
  responses: {
    201: reply(
      'Client created',
      newClientCredentials,
      '`Client created`: shaped like one `credentials` entry, plus `virtualAccount`',
    ),
    400: '`webhookUrl must not point at the sandbox itself (port … of this machine): …`',
  },
});

export const rotateSecretContract = contract({
  operationId: 'rotateSecret',
  method: 'post',
  path: '/clients/{id}/rotate-secret',
  summary: 'Rotate a client’s secret key',
  description: 'The old key keeps working for `--secret-grace` seconds, then answers 401.',
  tag: TAG,
  auth: { scheme: 'none' },
  params: { id: { description: 'the `id` of the client', example: fixture.clientA } },
  responses: { 200: reply('Secret key rotated', rotatedSecret), 404: '`Client not found`' },
});

import * as z from 'zod';
import { text } from '../../domain/fields.js';
import { isLocalReceiverHost } from '../../domain/stricter-in-production.js';
import { contract, deferred, done, lazy, reply } from '../kit.js';
import { BANK_CODE_DOC } from './transfers.js';

/** The hosts a plain-http webhook URL may name, as the 400 says them. */
const PLAIN_HTTP_HOSTS =
  'localhost, *.localhost, *.local, *.internal (host.docker.internal, host.containers.internal, host.testcontainers.internal), a loopback or private IP address or a single-label name';

export const webhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && isLocalReceiverHost(url.hostname);
  }, `must be an absolute https URL; plain http only to ${PLAIN_HTTP_HOSTS}`)
  // The refinement is invisible to JSON Schema: the document says it in words.
  .meta({
    format: 'uri',
    description:
      'an absolute `https` URL; plain `http` only to `localhost`, a name ending in `.localhost`, `.local` or `.internal` (`host.docker.internal`, `host.containers.internal`, `host.testcontainers.internal`), a loopback or private-range IP address, or a single-label name (a compose service); never the sandbox itself (its own port on a loopback or local address)',
  });

export const updateWebhookBody = deferred(() => z.object({ webhookUrl }));

export const configureBillersBody = deferred(() =>
  z.object({
    billers: z
      .array(
        text()
          // Documented only: the service answers an unknown code with its own 400 (`Invalid biller code: …`). A
          // string of digits, never an enum of the fixtures' billers (contract, section 3).
          .meta({
            ...BANK_CODE_DOC,
            description: 'a bank code `GET /clients/settings/billers` lists (the fixtures’ `billers.json`)',
          }),
      )
      .max(200),
  }),
);

// What the routes answer.

export const apiKeys = lazy('ApiKeys', () =>
  z.strictObject({ publicKey: z.string(), secretKey: z.string() }),
);
export type ApiKeysView = z.infer<ReturnType<typeof apiKeys>>;

export const billers = lazy('Billers', () => z.strictObject({ billers: z.array(z.string()) }));
export type BillersView = z.infer<ReturnType<typeof billers>>;

const SETTINGS = '/clients/settings';

const TAG = 'Settings';

/** Admin only; standard headers, `businessId` included (the spec's), though the settings are the client's. */
const admin = { scheme: 'A', business: 'header', area: 'settings' } as const;

/** What production refuses in a webhook URL the sandbox accepts. */
export const WEBHOOK_URL_WARNINGS = [
  'a plain `http` URL: production accepts only `https`',
  'a host production cannot reach (loopback, RFC 1918, link-local, `.local`, a single-label name): production accepts only a public host',
] as const;

export const getApiKeysContract = contract({
  operationId: 'getApiKeys',
  method: 'get',
  path: `${SETTINGS}/get-keys`,
  summary: 'Get API keys',
  tag: TAG,
  auth: { ...admin, currentKeyOnly: true },
  source: { spec: 'Get API keys', docs: ['/api-reference/settings/get-keys'] },
  responses: { 200: reply('Keys retrieved successfully', apiKeys, 'The client’s keys') },
});

export const updateWebhookUrlContract = contract({
  operationId: 'updateWebhookUrl',
  method: 'patch',
  path: `${SETTINGS}/update-webhook-url`,
  summary: 'Update the webhook URL',
  description:
    'An absolute `https` URL; plain `http` is accepted to `localhost`, names ending in `.localhost`, `.local` or `.internal` (`host.docker.internal`, `host.containers.internal` for Podman, `host.testcontainers.internal` for Testcontainers), loopback and private-range IP addresses, and single-label host names such as a compose service; any other `http` URL is 400. A URL that points at the sandbox itself (its own port on a loopback or local address) is refused.',
  tag: TAG,
  auth: admin,
  source: {
    spec: 'Update webhook URL',
    docs: ['/api-reference/settings/webhook'],
    sandbox: 'plain `http` for local receivers, with `x-sandbox-warning`; never the sandbox itself',
  },
  body: updateWebhookBody,
  example: { webhookUrl: 'http://localhost:3000/hooks/bank' },
  warns: WEBHOOK_URL_WARNINGS,
  responses: {
    200: done('Webhook Url updated successfully'),
    400: '`webhookUrl must not point at the sandbox itself (port … of this machine): …`',
  },
});

export const listBillersContract = contract({
  operationId: 'listBillers',
  method: 'get',
  path: `${SETTINGS}/billers`,
  summary: 'List billers',
  description: 'The bank codes that may be enabled with configure billers.',
  tag: TAG,
  auth: admin,
  source: { spec: 'Other operations named (list billers)', docs: ['/api-reference/settings/billers'] },
  responses: { 200: reply('Billers retrieved successfully', billers, 'The billers') },
});

export const configureBillersContract = contract({
  operationId: 'configureBillers',
  method: 'post',
  path: `${SETTINGS}/configure-billers`,
  summary: 'Configure billers',
  description: 'Replaces the enabled set.',
  tag: TAG,
  auth: admin,
  source: {
    spec: 'Configure billers',
    docs: ['/api-reference/settings/configure-billers'],
    sandbox: 'the list replaces the enabled set (neither the spec nor the docs say)',
  },
  body: configureBillersBody,
  example: { billers: ['044', '058'] },
  responses: { 200: done('Billers has been updated'), 400: '`Invalid biller code: …`' },
});

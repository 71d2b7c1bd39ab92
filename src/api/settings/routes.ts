import { webhookUrlWarnings } from '../../domain/stricter-in-production.js';
import type { Route } from '../../http/route.js';
import { DONE, defineRoute, done, reply } from '../../http/route.js';
import { warn } from '../../http/warnings.js';
import { apiKeys, billers, configureBillersBody, updateWebhookBody } from './schemas.js';
import { availableBillers, configureBillers, keysOf, updateWebhookUrl } from './service.js';

const SETTINGS = '/clients/settings';
const TAG = 'Settings';
/** Admin only; standard headers, `businessId` included (the spec's), though the settings are the client's. */
const admin = { scheme: 'A', business: 'header', area: 'settings' } as const;

/** What production refuses in a webhook URL the sandbox accepts. */
export const WEBHOOK_URL_WARNINGS = [
  'a plain `http` URL: production accepts only `https`',
  'a host production cannot reach (loopback, RFC 1918, link-local, `.local`, a single-label name): production accepts only a public host',
] as const;

/** `/clients/settings`: API keys, webhook URL, billers. Admin only. */
export const settingsRoutes: Route[] = [
  defineRoute({
    operationId: 'getApiKeys',
    method: 'get',
    path: `${SETTINGS}/get-keys`,
    summary: 'Get API keys',
    tag: TAG,
    auth: { ...admin, currentKeyOnly: true },
    source: { spec: 'Get API keys', docs: ['/api-reference/settings/get-keys'] },
    responses: { 200: reply('Keys retrieved successfully', apiKeys, 'The client’s keys') },
    handle: ({ caller }) => ({ data: keysOf(caller.client) }),
  }),
  defineRoute({
    operationId: 'updateWebhookUrl',
    method: 'patch',
    path: `${SETTINGS}/update-webhook-url`,
    summary: 'Update the webhook URL',
    description:
      'An absolute `https` URL; plain `http` is accepted for `localhost`, loopback addresses, `host.docker.internal` and single-label host names such as a compose service. A URL that points at the sandbox itself (its own port on a loopback or local address) is refused.',
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
    handle: async ({ deps, c, caller, actor, body }) => {
      warn(c, ...webhookUrlWarnings(body.webhookUrl));
      await updateWebhookUrl(deps, actor(), caller.client, body.webhookUrl);
      return DONE;
    },
  }),
  defineRoute({
    operationId: 'listBillers',
    method: 'get',
    path: `${SETTINGS}/billers`,
    summary: 'List billers',
    description: 'The bank codes that may be enabled with configure billers.',
    tag: TAG,
    auth: admin,
    source: { spec: 'Other operations named (list billers)', docs: ['/api-reference/settings/billers'] },
    responses: { 200: reply('Billers retrieved successfully', billers, 'The billers') },
    handle: ({ deps }) => ({ data: { billers: availableBillers(deps) } }),
  }),
  defineRoute({
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
    handle: async ({ deps, caller, actor, body }) => {
      await configureBillers(deps, actor(), caller.client, body.billers);
      return DONE;
    },
  }),
];

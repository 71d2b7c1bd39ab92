import type { Route } from '../../http/route.js';
import { DONE, defineRoute, done, reply } from '../../http/route.js';
import { apiKeys, billers, configureBillersBody, updateWebhookBody } from './schemas.js';
import { availableBillers, configureBillers, keysOf, updateWebhookUrl } from './service.js';

const SETTINGS = '/clients/settings';
const TAG = 'Settings';
/** Admin only; standard headers, `businessId` included (the spec's), though the settings are the client's. */
const admin = { scheme: 'A', business: 'header', area: 'settings' } as const;

/** `/clients/settings`: API keys, webhook URL, billers. Admin only. */
export const settingsRoutes: Route[] = [
  defineRoute({
    operationId: 'getApiKeys',
    method: 'get',
    path: `${SETTINGS}/get-keys`,
    summary: 'Get API keys',
    tag: TAG,
    auth: admin,
    responses: { 200: reply('API keys retrieved successfully', apiKeys, 'The client’s keys') },
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
    body: updateWebhookBody,
    example: { webhookUrl: 'http://localhost:3000/hooks/bank' },
    responses: {
      200: done('Webhook URL updated successfully'),
      400: '`webhookUrl must not point at the sandbox itself (port … of this machine): …`',
    },
    handle: async ({ deps, caller, actor, body }) => {
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
    body: configureBillersBody,
    example: { billers: ['044', '058'] },
    responses: { 200: done('Billers has been updated'), 400: '`Invalid biller code: …`' },
    handle: async ({ deps, caller, actor, body }) => {
      await configureBillers(deps, actor(), caller.client, body.billers);
      return DONE;
    },
  }),
];

import { fixture } from '../../api/examples.js';
import { WEBHOOK_URL_WARNINGS } from '../../api/settings/routes.js';
import { webhookUrlWarnings } from '../../domain/stricter-in-production.js';
import { defineRoute, type Route, reply } from '../../http/route.js';
import { warn } from '../../http/warnings.js';
import { credentialsPage } from './credentials.js';
import {
  credentials,
  credentialsQuery,
  newClientBody,
  newClientCredentials,
  rotatedSecret,
} from './schemas.js';
import { rotateSecret } from './secrets.js';
import { createClient } from './tenants.js';

const TAG = 'Sandbox';

/** The clients: their logins and keys, a fresh isolated one, a new secret key. */
export const clientRoutes: Route[] = [
  defineRoute({
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
    handle: ({ deps, query }) => ({ data: credentialsPage(deps.store, query) }),
  }),
  defineRoute({
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
    handle: async ({ deps, c, body }) => {
      if (body.webhookUrl !== undefined) warn(c, ...webhookUrlWarnings(body.webhookUrl));
      return { status: 201, data: await createClient(deps, body) };
    },
  }),
  defineRoute({
    operationId: 'rotateSecret',
    method: 'post',
    path: '/clients/{id}/rotate-secret',
    summary: 'Rotate a client’s secret key',
    description: 'The old key keeps working for `--secret-grace` seconds, then answers 401.',
    tag: TAG,
    auth: { scheme: 'none' },
    params: { id: { description: 'the `id` of the client', example: fixture.clientA } },
    responses: { 200: reply('Secret key rotated', rotatedSecret), 404: '`Client not found`' },
    handle: async ({ deps, params }) => ({ data: await rotateSecret(deps, params.id) }),
  }),
];

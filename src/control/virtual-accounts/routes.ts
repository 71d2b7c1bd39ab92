import { defineRoute, page, type Route } from '../../http/route.js';
import { virtualAccount, virtualAccountsQuery } from './schemas.js';
import { listVirtualAccounts } from './service.js';

/** `/virtual-accounts`: where `POST /incoming-payments` can send money. */
export const virtualAccountRoutes: Route[] = [
  defineRoute({
    operationId: 'listVirtualAccounts',
    method: 'get',
    path: '/virtual-accounts',
    summary: 'Virtual accounts of every client',
    description:
      'Newest first: where `POST /incoming-payments` can send money. `expiresAt` is ISO 8601 text, null for a permanent account.',
    tag: 'Webhooks',
    auth: { scheme: 'none' },
    query: virtualAccountsQuery,
    responses: { 200: page('Virtual accounts', virtualAccount) },
    handle: ({ deps, query }) => ({ page: listVirtualAccounts(deps, query) }),
  }),
];

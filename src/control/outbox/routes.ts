import { defineRoute, page, type Route } from '../../http/route.js';
import { outboxMessage, outboxQuery } from './schemas.js';
import { listOutbox } from './service.js';

/** `/outbox`: the messages the service "sent". */
export const outboxRoutes: Route[] = [
  defineRoute({
    operationId: 'outbox',
    method: 'get',
    path: '/outbox',
    summary: 'Sent messages',
    description:
      'Member invitations and BVN one-time passwords the service "sent", newest first: a page of 100 by default (`page`, `limit` up to 1000).',
    tag: 'Sandbox',
    auth: { scheme: 'none' },
    query: outboxQuery,
    responses: { 200: page('Outbox', outboxMessage) },
    handle: ({ deps, query }) => ({ page: listOutbox(deps, query) }),
  }),
];

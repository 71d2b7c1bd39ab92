import { defineRoute, type Route, reply } from '../../http/route.js';
import { outbox, outboxQuery } from './schemas.js';
import { listOutbox } from './service.js';

/** `/outbox`: the messages the service "sent". */
export const outboxRoutes: Route[] = [
  defineRoute({
    operationId: 'outbox',
    method: 'get',
    path: '/outbox',
    summary: 'Sent messages',
    description: 'Member invitations and BVN one-time passwords the service "sent", newest first.',
    tag: 'Sandbox',
    auth: { scheme: 'none' },
    query: outboxQuery,
    responses: { 200: reply('Outbox', outbox) },
    handle: ({ deps, query }) => ({ data: listOutbox(deps, query) }),
  }),
];

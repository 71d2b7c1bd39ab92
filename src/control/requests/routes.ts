import { defineRoute, type Route, reply } from '../../http/route.js';
import { requestJournal, requestsQuery } from './schemas.js';
import { findRequests } from './service.js';

/** `/requests`: the request journal. */
export const requestRoutes: Route[] = [
  defineRoute({
    operationId: 'requests',
    method: 'get',
    path: '/requests',
    summary: 'Request journal',
    description:
      'The last requests answered (method, path, status, duration, request id, the `x-sandbox-warning` texts sent), newest first; `path` matches a part of the path.',
    tag: 'Sandbox',
    auth: { scheme: 'none' },
    query: requestsQuery,
    responses: { 200: reply('Request journal, newest first', requestJournal) },
    handle: ({ control, query }) => ({ data: findRequests(control.requests, query) }),
  }),
];

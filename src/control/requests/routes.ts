import { defineRoute, page, type Route, raw, reply } from '../../http/route.js';
import {
  CURL_DESCRIPTION,
  deletedRequests,
  harDocument,
  requestEntry,
  requestEntryWithCurl,
  requestSearch,
  requestsQuery,
  requestVerification,
  verificationResult,
} from './schemas.js';
import { filterOfQuery, findRequests, getRequest, harOf, searchOf, verifyRequests } from './service.js';

const TAG = 'Sandbox';

const FILTERS =
  '`method` (any case), `path` (a part of it), `status` (`400` or a class, `4xx`), `clientId` and `businessId` (what the credentials resolved to), `requestId` (the `x-request-id` the sandbox answered with, exactly: the `requestId` of a ledger entry or a batch finds the request that made it)';
const NOT_JOURNALED =
  'Calls to the journal’s own routes (`/__sandbox/requests…`) are not journaled: a verification never counts itself.';
const BAD_STATUS =
  '`status is invalid: must be a status code (400) or a class of them (4xx)`, or another bad filter';

/** `/requests`: the request journal. */
export const requestRoutes: Route[] = [
  defineRoute({
    operationId: 'requests',
    method: 'get',
    path: '/requests',
    summary: 'Request journal',
    description: `The last requests answered, newest first, each with its request (headers with credentials redacted, the JSON body), its answer (status, message, JSON body up to \`--journal-body-limit\`), the client and business the credentials resolved to, the scenario rule that fired and the duration. Filters: ${FILTERS}, and \`body.<dotted.path>=value\` on the request body (\`body.amount=1000\` matches the number 1000; a name over a list looks into each element). Paginated (\`page\`, \`limit\` up to 1000, default 100). ${NOT_JOURNALED}`,
    tag: TAG,
    auth: { scheme: 'none' },
    query: requestsQuery,
    responses: {
      200: page('Request journal', requestEntry, 'newest first'),
      400: BAD_STATUS,
    },
    handle: ({ control, query }) => ({ page: findRequests(control.requests, filterOfQuery(query), query) }),
  }),
  defineRoute({
    operationId: 'searchRequests',
    method: 'post',
    path: '/requests/search',
    summary: 'Search the request journal',
    description: `The filters of \`GET /__sandbox/requests\` in a JSON body (${FILTERS}), with \`body\` a JSON subset the request body must contain: an object matches one holding each of its fields (at any depth, extra fields ignored), a list one holding a match for each of its elements (in any order: WireMock's \`equalToJson\` with \`ignoreArrayOrder\` and \`ignoreExtraElements\`), anything else an equal value. Paginated like the list. ${NOT_JOURNALED}`,
    tag: TAG,
    auth: { scheme: 'none' },
    body: requestSearch,
    example: { method: 'POST', path: '/funds/transfer', body: { retrievalReference: 'ref-2026-0001' } },
    responses: {
      200: page('Request journal', requestEntry, 'newest first'),
      400: BAD_STATUS,
    },
    handle: ({ control, body }) => {
      const { filter, page } = searchOf(body);
      return { page: findRequests(control.requests, filter, page) };
    },
  }),
  defineRoute({
    operationId: 'verifyRequests',
    method: 'post',
    path: '/requests/verify',
    summary: 'Verify the app sent a request',
    description: `The search's filters and how many requests must match them: \`exactly\`, or \`atLeast\` and/or \`atMost\` (none given: at least 1). 200 with the count when it holds; 409 when it does not, with the count and the nearest entries: the 5 that meet the most criteria (each filter given is a criterion, each field of a \`body\` subset another), newest first among equals, each with the criteria it misses (\`unmatched\`). ${NOT_JOURNALED}`,
    tag: TAG,
    auth: { scheme: 'none' },
    body: requestVerification,
    example: { method: 'POST', path: '/api/v1/clients/business/customers/funds/transfer', atLeast: 1 },
    responses: {
      200: reply('Verified', verificationResult),
      400: [
        BAD_STATUS,
        '`exactly is invalid: cannot be combined with atLeast or atMost`',
        '`atLeast is invalid: must not be more than atMost`',
      ],
      409: '`Expected at least 1 request matching POST /api/v1/…/transfer, found 0`: `data` holds `count`, `expected` and `nearest`',
    },
    handle: ({ control, body }) => ({ data: verifyRequests(control.requests, body) }),
  }),
  defineRoute({
    operationId: 'requestsHar',
    method: 'get',
    path: '/requests.har',
    summary: 'Request journal as HAR',
    description: `The journal (the list's filters; not paginated) as an HTTP Archive (HAR 1.2), newest first, with the same redactions: open it in a browser's developer tools or any HAR viewer. Bodies past \`--journal-body-limit\` and answers that are not JSON carry their size only. ${NOT_JOURNALED}`,
    tag: TAG,
    auth: { scheme: 'none' },
    query: requestsQuery,
    responses: { 200: raw('HAR 1.2', harDocument), 400: BAD_STATUS },
    handle: ({ control, query }) => ({
      json: harOf(control.requests, filterOfQuery(query), control.version),
    }),
  }),
  defineRoute({
    operationId: 'getRequest',
    method: 'get',
    path: '/requests/{id}',
    summary: 'One request of the journal',
    description: `The entry as the list shows it, and \`curl\`: ${CURL_DESCRIPTION} ${NOT_JOURNALED}`,
    tag: TAG,
    auth: { scheme: 'none' },
    params: { id: { description: 'the entry’s `id`', example: '1' } },
    responses: {
      200: reply('Request', requestEntryWithCurl),
      404: '`Request not found: …`: the entry has left the journal (or never was)',
    },
    handle: ({ control, params }) => ({ data: getRequest(control.requests, params.id) }),
  }),
  defineRoute({
    operationId: 'clearRequests',
    method: 'delete',
    path: '/requests',
    summary: 'Empty the request journal',
    description: 'Answers how many entries went. Ids go on from where they were.',
    tag: TAG,
    auth: { scheme: 'none' },
    responses: { 200: reply('Request journal emptied', deletedRequests) },
    handle: ({ control }) => ({ data: { deleted: control.requests.clear() } }),
  }),
];

import * as z from 'zod';
import { contract, deferred, lazy, page, raw, reply } from '../kit.js';
import { faultKind } from '../scenarios.js';
import { isoDate } from '../wire.js';

// The request journal: the last requests answered, what they carried and what they got.

/** `400`, or a class of statuses: `4xx`. */
const STATUS = /^[1-5](?:\d\d|xx)$/i;
const STATUS_MESSAGE = 'must be a status code (400) or a class of them (4xx)';

const statusText = () =>
  z
    .string()
    .trim()
    .regex(STATUS, STATUS_MESSAGE)
    .toLowerCase()
    .describe('a status (`400`) or a class (`4xx`)');

/** The journal's own limit on a page: the journal holds `--journal-size` entries (1000 by default). */
export const MAX_PAGE = 1000;

/** What every journal route filters on (the request body aside, which each takes in its own form). */
const filterFields = () => ({
  method: z.string().trim().min(1).max(20).toUpperCase().optional().describe('any case'),
  path: z.string().trim().min(1).max(500).optional().describe('a part of the path'),
  clientId: z.string().trim().min(1).max(200).optional().describe('the client the credentials resolved to'),
  businessId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe('the business of the `businessId` header'),
  requestId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'the `x-request-id` the sandbox answered with (a ledger entry’s or a batch’s `requestId`), exactly',
    ),
});

const pageFields = () => ({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(100),
});

/**
 * `GET /__sandbox/requests` and `GET /__sandbox/requests.har`: the filters as query parameters, and
 * `body.<dotted.path>=value` parameters matching the request body (any other parameter is ignored, as on the other
 * lists).
 */
export const requestsQuery = deferred(() =>
  z.object({ ...pageFields(), ...filterFields(), status: statusText().optional() }).catchall(z.string()),
);
export type RequestsQuery = z.infer<ReturnType<typeof requestsQuery>>;

const bodySubset = () =>
  z
    .unknown()
    .optional()
    .describe(
      'a JSON subset the request body must contain: an object matches an object holding each of its fields (at any depth, extra fields ignored); a list matches a list holding a match for each of its elements, in any order; anything else matches an equal value',
    );

/** A status given in JSON: the number `400`, or the text `"400"` or `"4xx"`. */
const statusInBody = () =>
  z.preprocess((v) => (typeof v === 'number' ? String(v) : v), statusText()).optional();

/** One status (`400`) or a class (`'4xx'`). */
export type StatusFilter = number | `${1 | 2 | 3 | 4 | 5}xx`;

/** Which requests of the journal, as a client gives them (search, verify, `requests()`): each field given must match. */
export interface RequestFilter {
  /** `GET`, `POST`, …, in any case. */
  method?: string;
  /** A part of the path: `/funds/transfer`. */
  path?: string;
  /** One status (`400`) or a class (`'4xx'`). */
  status?: StatusFilter;
  /** The client the credentials resolved to. */
  clientId?: string;
  /** The business the credentials resolved to. */
  businessId?: string;
  /** The `x-request-id` the sandbox answered with, exactly (a ledger entry's or a batch's `requestId`). */
  requestId?: string;
  /** A JSON subset the request body must contain (see `bodySubset`): `{ retrievalReference: 'abc' }`. */
  body?: unknown;
}

/** `POST /__sandbox/requests/search`'s body as a client gives it: the filters and a page. */
export interface RequestSearchInput extends RequestFilter {
  /** Which page, from 1 (newest first). */
  page?: number;
  /** Entries per page (default 100). */
  limit?: number;
}

/** `POST /__sandbox/requests/search`. */
export const requestSearch = deferred(() =>
  z.strictObject({
    ...filterFields(),
    status: statusInBody(),
    body: bodySubset(),
    page: z.number().int().min(1).default(1),
    limit: z.number().int().min(1).max(MAX_PAGE).default(100),
  }),
);
export type RequestSearch = z.infer<ReturnType<typeof requestSearch>>;

const count = () => z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** `POST /__sandbox/requests/verify`: the filters and how many requests must match them (at least 1 if unsaid). */
export const requestVerification = deferred(() =>
  z
    .strictObject({
      ...filterFields(),
      status: statusInBody(),
      body: bodySubset(),
      exactly: count().optional(),
      atLeast: count().optional(),
      atMost: count().optional(),
    })
    .superRefine((v, ctx) => {
      if (v.exactly !== undefined && (v.atLeast !== undefined || v.atMost !== undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['exactly'],
          message: 'cannot be combined with atLeast or atMost',
        });
      if (v.atLeast !== undefined && v.atMost !== undefined && v.atLeast > v.atMost)
        ctx.addIssue({ code: 'custom', path: ['atLeast'], message: 'must not be more than atMost' });
    }),
);
/** `POST /__sandbox/requests/verify`'s body as a client gives it: the filters and the count expected (`exactly`, or
 * `atLeast` and/or `atMost`; none: at least 1). */
export interface RequestVerification extends RequestFilter {
  exactly?: number;
  atLeast?: number;
  atMost?: number;
}
export type ParsedVerification = z.infer<ReturnType<typeof requestVerification>>;

// What the routes answer.

const headerMap = () => z.record(z.string(), z.string());

export const requestEntry = lazy('RequestEntry', () =>
  z.strictObject({
    id: z.string().describe('unique in the journal, increasing: `GET /__sandbox/requests/{id}`'),
    time: isoDate().describe('when the answer was ready'),
    method: z.string(),
    path: z.string(),
    query: z
      .record(z.string(), z.string())
      .describe('the query string, one value per parameter (the first); secret ones redacted'),
    status: z.number().int(),
    durationMs: z.number().describe('to a tenth of a millisecond'),
    requestId: z.string(),
    warnings: z
      .array(z.string())
      .readonly()
      .describe(
        'where production would refuse what the sandbox accepted: the `x-sandbox-warning` headers sent',
      ),
    clientId: z.string().nullable().describe('the client the credentials resolved to; null when none did'),
    businessId: z.string().nullable().describe('the business of the `businessId` header, once accepted'),
    scenario: z
      .strictObject({
        name: z.string(),
        rule: z
          .number()
          .int()
          .describe('0-based, among the rules in force (`GET /__sandbox/scenario`: overrides first)'),
      })
      .nullable()
      .describe(
        'the scenario rule that fired for this request (an `http`, `transfer` or `error` rule), if one did; where an `error` rule changed the status of an answer another rule gave, the `error` rule',
      ),
    fault: faultKind
      .nullable()
      .describe(
        'the transport fault a scenario rule broke the connection with (`effect.fault`), if one did; with `reset`, `empty` or `garbage` over a connection no answer was sent: `status` is 0, and `response` has no body',
      ),
    upstream: z
      .boolean()
      .describe(
        'the request went to the upstream (`--upstream`) as it was sent, and the answer is the upstream’s: no scenario, auth or state of the sandbox applied',
      ),
    committed: z
      .strictObject({ status: z.number().int(), body: z.unknown() })
      .optional()
      .describe(
        'only where a scenario rule lost the answer after the commit (`after: "commit"`): the answer the call committed to, its status and JSON body (secret fields redacted), while `status` and `response` are what went on the wire (0 for a fault that sent nothing)',
      ),
    request: z.strictObject({
      headers: headerMap().describe('lower-case names; credentials redacted to their last 4 characters'),
      body: z
        .unknown()
        .describe(
          'the JSON body as sent, secret fields redacted; null when there was none, it was not JSON (a form), it was never read, or it passed `--journal-body-limit`',
        ),
      bodySize: z
        .number()
        .int()
        .nullable()
        .describe('bytes; null when unknown (no Content-Length, never read)'),
      contentType: z.string().nullable(),
      truncated: z.boolean().describe('the body passed `--journal-body-limit` and was not kept'),
    }),
    response: z.strictObject({
      status: z.number().int(),
      message: z.string().nullable().describe('the envelope’s `message`; null for another kind of answer'),
      body: z
        .unknown()
        .describe(
          'the JSON answer as sent, secret fields redacted; null for a page, an event stream, a file, one past `--journal-body-limit`, or no answer at all (a transport fault that sends none)',
        ),
      bodySize: z
        .number()
        .int()
        .nullable()
        .describe('bytes; null when unknown (an event stream) or no answer was sent'),
      contentType: z.string().nullable(),
      truncated: z.boolean().describe('the answer passed `--journal-body-limit` and was not kept'),
    }),
  }),
);
export type RequestEntryView = z.infer<ReturnType<typeof requestEntry>>;

/** What a credential header's shell variable is called, and what the body is: said once, for the schema and the route. */
export const CURL_DESCRIPTION =
  "a one-line POSIX shell command that sends the request again as the journal recorded it: `curl -X METHOD 'url with query' -H 'name: value' … --data-raw '<body>'`, every word single-quoted. A credential header (one the journal redacts) has a shell variable in place of the secret, named after the header upper-cased with `-` as `_`, and only that variable double-quoted (`-H 'secret_key: '\"$SECRET_KEY\"`, `-H 'authorization: Bearer '\"$AUTHORIZATION\"`: a scheme word stays, single-quoted, so a `!` or `$` in it is never expanded, not even by interactive bash's history): set those to the real secrets before running it. The body is the recorded JSON as the journal shows it, so a secret field (a password) is sent as `****`; no `--data-raw` when there was no JSON body kept. `host`, `content-length`, `connection`, `transfer-encoding`, `accept-encoding`, `keep-alive` and the other connection headers are left out: curl sets its own. Secret query parameters are redacted in the URL too.";

export const requestEntryWithCurl = lazy('RequestEntryWithCurl', () =>
  requestEntry().extend({ curl: z.string().describe(CURL_DESCRIPTION) }),
);
export type RequestEntryWithCurlView = z.infer<ReturnType<typeof requestEntryWithCurl>>;

export const verificationResult = lazy('RequestVerificationResult', () =>
  z.strictObject({
    count: z.number().int().describe('requests in the journal that match'),
    expected: z
      .strictObject({
        exactly: z.number().int().optional(),
        atLeast: z.number().int().optional(),
        atMost: z.number().int().optional(),
      })
      .describe('the count asked for (`atLeast: 1` when none was)'),
  }),
);
export type VerificationResultView = z.infer<ReturnType<typeof verificationResult>>;

export const deletedRequests = lazy('DeletedRequests', () =>
  z.strictObject({ deleted: z.number().int().describe('entries removed') }),
);

/** HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the fields the export writes. */
export const harDocument = lazy('Har', () => {
  const pair = z.strictObject({ name: z.string(), value: z.string() });
  return z.strictObject({
    log: z.strictObject({
      version: z.literal('1.2'),
      creator: z.strictObject({ name: z.string(), version: z.string() }),
      entries: z.array(
        z.strictObject({
          startedDateTime: isoDate(),
          time: z.number(),
          request: z.strictObject({
            method: z.string(),
            url: z.string(),
            httpVersion: z.string(),
            cookies: z.array(pair),
            headers: z.array(pair),
            queryString: z.array(pair),
            postData: z.strictObject({ mimeType: z.string(), text: z.string() }).optional(),
            headersSize: z.number().int(),
            bodySize: z.number().int(),
          }),
          response: z.strictObject({
            status: z.number().int(),
            statusText: z.string(),
            httpVersion: z.string(),
            cookies: z.array(pair),
            headers: z.array(pair),
            content: z.strictObject({
              size: z.number().int(),
              mimeType: z.string(),
              text: z.string().optional(),
            }),
            redirectURL: z.string(),
            headersSize: z.number().int(),
            bodySize: z.number().int(),
          }),
          cache: z.strictObject({}),
          timings: z.strictObject({ send: z.number(), wait: z.number(), receive: z.number() }),
          _id: z.string().describe('the entry’s `id` in the journal'),
          _requestId: z.string(),
          _upstream: z
            .literal(true)
            .optional()
            .describe('the request went to the upstream (`--upstream`) and the answer is the upstream’s'),
          _fault: faultKind
            .optional()
            .describe(
              'the transport fault a scenario rule broke the connection with; with `reset`, `empty` or `garbage`, `status` is 0 as HAR has it for no answer',
            ),
        }),
      ),
    }),
  });
});
export type HarView = z.infer<ReturnType<typeof harDocument>>;

const TAG = 'Sandbox';

export const FILTERS =
  '`method` (any case), `path` (a part of it), `status` (`400` or a class, `4xx`), `clientId` and `businessId` (what the credentials resolved to), `requestId` (the `x-request-id` the sandbox answered with, exactly: the `requestId` of a ledger entry or a batch finds the request that made it)';

export const NOT_JOURNALED =
  'Calls to the journal’s own routes (`/__sandbox/requests…`) are not journaled: a verification never counts itself.';

export const BAD_STATUS =
  '`status is invalid: must be a status code (400) or a class of them (4xx)`, or another bad filter';

export const requestsContract = contract({
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
});

export const searchRequestsContract = contract({
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
});

export const verifyRequestsContract = contract({
  operationId: 'verifyRequests',
  method: 'post',
  path: '/requests/verify',
  summary: 'Verify the app sent a request',
  description: `The search's filters and how many requests must match them: \`exactly\`, or \`atLeast\` and/or \`atMost\` (none given: at least 1). 200 with the count when it holds; 409 when it does not, with the count and the nearest entries: the 5 that meet the most criteria (each filter given is a criterion, each field of a \`body\` subset another), newest first among equals, each with the criteria it misses (\`unmatched\`). The message says the same in words, as WireMock prints near misses: its first line the count, then a line per nearest entry (\`#id METHOD /path → status\`) with each condition it misses, what it wanted and what the entry had (\`body.amount: wanted 1000, was 500\`). ${NOT_JOURNALED}`,
  tag: TAG,
  auth: { scheme: 'none' },
  body: requestVerification,
  // The app never sent a transfer to the account the default scenario fails: holds on a fresh sandbox.
  example: {
    method: 'POST',
    path: '/api/v1/clients/business/customers/funds/transfer',
    body: { receiverAccountNumber: '0000000051' },
    exactly: 0,
  },
  responses: {
    200: reply('Verified', verificationResult),
    400: [
      BAD_STATUS,
      '`exactly is invalid: cannot be combined with atLeast or atMost`',
      '`atLeast is invalid: must not be more than atMost`',
    ],
    409: '`Expected at least 1 request matching POST /api/v1/…/transfer, found 0`, then a line per nearest entry and what it misses: `data` holds `count`, `expected` and `nearest`',
  },
});

export const requestsHarContract = contract({
  operationId: 'requestsHar',
  method: 'get',
  path: '/requests.har',
  summary: 'Request journal as HAR',
  description: `The journal (the list's filters; not paginated) as an HTTP Archive (HAR 1.2), newest first, with the same redactions: open it in a browser's developer tools or any HAR viewer. Bodies past \`--journal-body-limit\` and answers that are not JSON carry their size only. ${NOT_JOURNALED}`,
  tag: TAG,
  auth: { scheme: 'none' },
  query: requestsQuery,
  responses: { 200: raw('HAR 1.2', harDocument), 400: BAD_STATUS },
});

export const getRequestContract = contract({
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
});

export const clearRequestsContract = contract({
  operationId: 'clearRequests',
  method: 'delete',
  path: '/requests',
  summary: 'Empty the request journal',
  description: 'Answers how many entries went. Ids go on from where they were.',
  tag: TAG,
  auth: { scheme: 'none' },
  responses: { 200: reply('Request journal emptied', deletedRequests) },
});

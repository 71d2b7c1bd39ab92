import type { RequestEntry } from '../../src/http/request-log.js';

/** A journal entry as the front (src/http/front.ts) builds one, with no headers or bodies: the fields given win. */
export function journalEntry(fields: Partial<RequestEntry> = {}): RequestEntry {
  return {
    seq: 0,
    time: '2026-01-01T00:00:00.000Z',
    method: 'GET',
    path: '/',
    status: 200,
    durationMs: 0,
    requestId: 'r',
    warnings: [],
    url: `http://localhost${fields.path ?? '/'}`,
    clientId: null,
    businessId: null,
    scenario: null,
    fault: null,
    upstream: false,
    committed: null,
    headers: null,
    requestBody: null,
    requestSize: null,
    requestTruncated: false,
    answer: null,
    answerSize: null,
    answerType: null,
    answerMessage: null,
    truncated: false,
    cost: 1024,
    ...fields,
  };
}

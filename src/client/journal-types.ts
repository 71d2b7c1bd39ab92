// Stand-ins for the request journal's types (`RequestFilter`, `RequestVerification` of
// `src/control/requests/schemas.ts`), shaped as `GET /__sandbox/requests`, `POST .../requests/search` and
// `POST .../requests/verify` take and answer them. Once those exist, these become re-exports of them, as
// `RequestEntryView` already is.

/** `400` for one status, `'4xx'` for a class. */
export type StatusFilter = number | `${1 | 2 | 3 | 4 | 5}xx`;

/** Which requests of the journal: every field given must match. */
export interface RequestFilter {
  /** `GET`, `POST`, … */
  method?: string;
  /** A part of the path: `/funds/transfer`. */
  path?: string;
  /** One status (`400`) or a class (`'4xx'`). */
  status?: StatusFilter;
  /** The client auth resolved. */
  clientId?: string;
  /** The business auth resolved. */
  businessId?: string;
  /** A subset of the request's JSON body: `{ retrievalReference: 'abc' }`. */
  body?: Record<string, unknown>;
  /** Which page, from 1 (newest first). */
  page?: number;
  /** Entries per page. */
  limit?: number;
}

/** Filters and the count expected of them: exactly one of `exactly`, `atLeast`, `atMost`. */
export type RequestVerification = Omit<RequestFilter, 'page' | 'limit'> &
  ({ exactly: number } | { atLeast: number } | { atMost: number });

/** One request of the journal, as `GET /__sandbox/requests` lists it: the journal's own type. */
export type { RequestEntryView } from '../control/requests/schemas.js';

/** What a verification that holds answers (200). */
export interface VerificationView {
  count: number;
  [key: string]: unknown;
}

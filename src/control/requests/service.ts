import type { RequestEntry, RequestJournal } from '../../http/request-log.js';
import type { RequestsQuery } from './schemas.js';

/** The journal's entries, newest first, of one method, status or part of a path if asked; at most `limit`. */
export function findRequests(journal: RequestJournal, q: RequestsQuery): RequestEntry[] {
  const matching = journal
    .entries()
    .filter(
      (r) =>
        (q.method === undefined || r.method === q.method) &&
        (q.status === undefined || r.status === q.status) &&
        (q.path === undefined || r.path.includes(q.path)),
    );
  return matching.slice(0, q.limit);
}

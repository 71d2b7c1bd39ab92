import type { OutboxQuery } from '../../contract/control/outbox.js';
import type { Deps } from '../../deps.js';
import { type Pagination, paginate } from '../../domain/pagination.js';
import type { OutboxRecord } from '../../domain/records.js';

/** A page of the messages sent, newest first, to one address or of one type if asked. */
export function listOutbox(
  deps: Pick<Deps, 'store'>,
  query: OutboxQuery,
): { data: OutboxRecord[]; pagination: Pagination } {
  const { to, type } = query;
  const sent = deps.store
    .all('outbox')
    .filter((m) => (to === undefined || m.to === to.toLowerCase()) && (type === undefined || m.type === type))
    .reverse();
  return paginate(sent, query, (m) => m);
}

import type { Deps } from '../../deps.js';
import type { OutboxRecord } from '../../store/records.js';
import type { OutboxQuery } from './schemas.js';

/** The messages sent, newest first, to one address or of one type if asked. */
export function listOutbox(deps: Pick<Deps, 'store'>, { to, type }: OutboxQuery): OutboxRecord[] {
  return deps.store
    .all('outbox')
    .filter((m) => (to === undefined || m.to === to.toLowerCase()) && (type === undefined || m.type === type))
    .reverse();
}

import { type AuditEntryView, type AuditQuery, auditEntryFields } from '../../contract/api/audits.js';
import type { Deps } from '../../deps.js';
import type { Actor } from '../../domain/actor.js';
import { isoAt } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { type Pagination, paginate } from '../../domain/pagination.js';
import { project } from '../../domain/projection.js';
import type { AuditRecord, BusinessRecord } from '../../domain/records.js';
import type { AuditAction, AuditType } from '../../domain/statuses.js';
import type { Tx } from '../../store/store.js';

/** Writes an audit entry in the caller's mutation, so it exists exactly when the action does. */
export function recordAudit(
  tx: Tx,
  deps: Pick<Deps, 'clock'>,
  actor: Actor,
  entry: { action: AuditAction; type: AuditType; businessId: string | null },
): void {
  tx.put('audits', {
    id: tx.random().uuid(),
    clientId: actor.clientId,
    businessId: entry.businessId,
    email: actor.email,
    user: actor.name,
    action: entry.action,
    type: entry.type,
    date: isoAt(deps.clock),
    role: actor.role,
    ipAddress: actor.ipAddress,
  });
}

const view = (a: AuditRecord): AuditEntryView => project(a, auditEntryFields);

/** Entries a business may see: its own and its client's client-wide ones. */
function visible(a: AuditRecord, business: BusinessRecord): boolean {
  return a.clientId === business.clientId && (a.businessId === null || a.businessId === business.id);
}

/** The filters of the audit log, each exact and case-insensitive (the docs give no other rule). */
const FILTERS = ['role', 'action', 'type', 'email'] as const;

/** Newest first, filtered by `role`, `action`, `type` and `email`. */
export function listAudits(
  deps: Deps,
  business: BusinessRecord,
  query: AuditQuery,
): { data: AuditEntryView[]; pagination: Pagination } {
  const wanted = FILTERS.flatMap((field) => {
    const value = query[field];
    return value === undefined ? [] : [[field, value.toLowerCase()] as const];
  });
  const entries = deps.store
    .where('audits', 'clientId', business.clientId)
    .filter((a) => visible(a, business) && wanted.every(([field, value]) => a[field].toLowerCase() === value))
    .reverse();
  return paginate(entries, query, view);
}

export function getAudit(deps: Deps, business: BusinessRecord, id: string): AuditEntryView {
  const entry = deps.store.get('audits', id);
  if (!entry || !visible(entry, business)) throw new ApiError(404, 'Audit log not found');
  return view(entry);
}

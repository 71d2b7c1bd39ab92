import type { BulkStatus } from './statuses.js';

/**
 * Where a batch settles once none of its items is `pending` or `processing`: `completed` when every item went
 * through, `failed` when none did, `partially_completed` otherwise. Null while items are still open.
 */
export function settledStatus(total: number, completed: number, failed: number): BulkStatus | null {
  if (completed + failed < total) return null;
  if (failed === 0) return 'completed';
  if (completed === 0) return 'failed';
  return 'partially_completed';
}

/** How a batch answers a process (or reprocess) call, before any balance check. */
export type ClaimDecision = 'claim' | 'already-processing' | 'already-completed';

/**
 * The spec's table: `processing` answers 200 and queues nothing; `completed` is refused with 400; any other
 * state (`pending`, `failed`, `partially_completed`) is claimed.
 */
export function claimDecision(status: BulkStatus): ClaimDecision {
  if (status === 'processing') return 'already-processing';
  if (status === 'completed') return 'already-completed';
  return 'claim';
}

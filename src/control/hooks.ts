import type { RequestJournal } from '../http/request-log.js';
import type { DriftReport } from '../upstream/drift.js';

/** What the control API needs from the running sandbox beyond the shared deps. */
export interface ControlHooks {
  version: string;
  startedAt: number;
  reset: () => Promise<void>;
  /**
   * Resolves once the background queues are idle and every change is on disk; rejects with a
   * `DrainTimeoutError` naming what is still waiting after `timeoutMs`.
   */
  drain: (options: { timeoutMs: number }) => Promise<void>;
  /** The last requests answered. */
  requests: RequestJournal;
  /** With `--upstream`, where the upstream's answers differ from the routes (an empty report without it). */
  drift: DriftReport;
}

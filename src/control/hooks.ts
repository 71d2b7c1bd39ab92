import type { NewSandbox, SandboxSummaryView } from '../contract/control/sandboxes.js';
import type { RequestJournal } from '../http/request-log.js';
import type { DriftReport } from '../upstream/drift.js';

/** An isolated sandbox as `GET /__sandbox/sandboxes` lists it: what its contract says. */
export type SandboxSummary = SandboxSummaryView;

/** What `POST /__sandbox/sandboxes` answers. */
export interface SandboxCreated {
  id: string;
  createdAt: string;
  /** The paths of its two doors; the route makes them URLs with the request's origin. */
  apiPath: string;
  controlPath: string;
  persistent: false;
}

/**
 * The registry of isolated sandboxes, as the control API drives it (`src/worlds/registry.ts`). Each refusal is an
 * `ApiError`: a bad field 400 naming it, an id in use 409, one more than the limit 429, an unknown id 404.
 */
export interface SandboxesHooks {
  create(input: NewSandbox): Promise<SandboxCreated>;
  list(): SandboxSummary[];
  remove(id: string): void;
  /** Changes with every creation and removal: what the dashboard's picker watches. */
  readonly version: number;
}

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
  /** The isolated sandboxes of the process (made, listed and deleted at the root only). */
  sandboxes: SandboxesHooks;
  /** This sandbox's id; null for the root. */
  sandboxId: string | null;
}

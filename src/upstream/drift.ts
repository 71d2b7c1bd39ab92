import type { RouteContract } from '../contract/kit.js';
import { maskedText } from '../domain/redact.js';
import type { Finding } from './check.js';

// The drift report: per route of the bank's API, how many calls went to the upstream, which statuses came back,
// and each finding once, counted, with the request id of the first call that showed it. Bounded: at most
// `MAX_DRIFT_ROUTES` routes of `MAX_FINDINGS_PER_ROUTE` findings, and each text from outside (a path the app sent,
// what a finding saw) masked and cut by `maskedText` as it comes in.

/** The routes the report keeps apart at most; calls to further unknown paths are counted together. */
export const MAX_DRIFT_ROUTES = 1000;
/** The findings one route keeps at most (an upstream whose answers change shape at every call stops here). */
export const MAX_FINDINGS_PER_ROUTE = 200;
/** Where the calls to unknown paths past `MAX_DRIFT_ROUTES` are counted. */
export const MORE_PATHS = '(more paths)';

export interface DriftFinding extends Finding {
  count: number;
  /** The `x-request-id` of the first call that showed it (the request journal has that call). */
  requestId: string;
}

export interface DriftRoute {
  method: string;
  /** The route's template (`/clients/business/audits/{auditId}`), or the path itself for one the sandbox lacks. */
  path: string;
  calls: number;
  statuses: Record<string, number>;
  findings: DriftFinding[];
}

export interface DriftView {
  /** The upstream's base URL, without userinfo or query. */
  upstream: string | null;
  routes: DriftRoute[];
}

/** One forwarded call, as the proxy saw it. */
export interface ForwardedCall {
  method: string;
  path: string;
  /** The sandbox's route for the call, or undefined where it emulates none. */
  route: RouteContract | undefined;
  /** The upstream's status, or undefined when it never answered. */
  status: number | undefined;
  findings: readonly Finding[];
  requestId: string;
}

interface Entry {
  route: DriftRoute;
  findings: Map<string, DriftFinding>;
}

export class DriftReport {
  private readonly routes = new Map<string, Entry>();
  /** Moves on every change: the dashboard renders its panel again when it does. */
  version = 0;

  constructor(readonly upstream: string | null) {}

  record(call: ForwardedCall): void {
    this.version += 1;
    const method = call.method.toUpperCase();
    const entry = this.entry(maskedText(method), call.route?.path ?? maskedText(call.path));
    entry.route.calls += 1;
    if (call.status !== undefined) {
      const key = String(call.status);
      entry.route.statuses[key] = (entry.route.statuses[key] ?? 0) + 1;
    }
    for (const finding of call.findings) {
      // Apart per documented answer: a success's message and an error's are two findings at `message`.
      const key = `${finding.kind} ${finding.at} ${finding.expected}`;
      const known = entry.findings.get(key);
      if (known) known.count += 1;
      else if (entry.findings.size < MAX_FINDINGS_PER_ROUTE)
        entry.findings.set(key, {
          ...finding,
          seen: maskedText(finding.seen),
          count: 1,
          requestId: call.requestId,
        });
    }
  }

  private entry(method: string, path: string): Entry {
    let key = `${method} ${path}`;
    let entry = this.routes.get(key);
    if (entry) return entry;
    if (this.routes.size >= MAX_DRIFT_ROUTES) {
      key = `${method} ${MORE_PATHS}`;
      path = MORE_PATHS;
      entry = this.routes.get(key);
      if (entry) return entry;
    }
    entry = { route: { method, path, calls: 0, statuses: {}, findings: [] }, findings: new Map() };
    this.routes.set(key, entry);
    return entry;
  }

  /** The report, routes in the order they were first called. */
  view(): DriftView {
    return {
      upstream: this.upstream,
      routes: [...this.routes.values()].map(({ route, findings }) => ({
        ...route,
        statuses: { ...route.statuses },
        findings: [...findings.values()].map((f) => ({ ...f })),
      })),
    };
  }

  /** How many findings the report holds, over every route. */
  get findingCount(): number {
    let count = 0;
    for (const { findings } of this.routes.values()) count += findings.size;
    return count;
  }

  clear(): void {
    this.version += 1;
    this.routes.clear();
  }
}

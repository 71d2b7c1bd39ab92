import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiContracts } from '../../../src/contract/api/index.js';
import { driftReport } from '../../../src/contract/control/drift.js';
import { API_PREFIX } from '../../../src/contract/mounts.js';
import { systemClock } from '../../../src/domain/clock.js';
import type { AppEnv } from '../../../src/http/env.js';
import { type RunningSandbox, type Sandbox, startSandbox } from '../../../src/sandbox.js';
import { dataOf } from '../../support/answers.js';
import { call, memorySandbox } from '../../support/sandbox.js';
import { runTour, startTour, type Tour } from '../../support/tour.js';

// A sandbox whose --upstream is another sandbox of the same build: the bank's API answered by the upstream through
// the proxy must match the routes the proxy emulates, so a flow that touches every /api/v1 route reports no drift.
// The tour's control calls (approvals, the outbox, drains, the state) go straight to the upstream, whose state the
// API steps change.

describe('--upstream set to a sandbox of the same build', () => {
  let upstream: RunningSandbox;
  let proxy: Sandbox;
  let t: Tour;

  beforeAll(async () => {
    upstream = await startSandbox(
      { inMemory: true, port: 0, quiet: true, log: () => undefined, webhookAttempts: 1 },
      systemClock,
    );
    proxy = await memorySandbox({ upstream: `${upstream.url}${API_PREFIX}` });
    // The tour's sandbox: its /api/v1 calls go through the proxy, everything else to the upstream.
    const app = Object.create(upstream.app) as Hono<AppEnv>;
    app.request = (input, init, env, executionCtx) =>
      (String(input).startsWith(API_PREFIX) ? proxy.app : upstream.app).request(
        input,
        init,
        env,
        executionCtx,
      );
    const tourSandbox: Sandbox = { ...upstream, app };
    t = await startTour(tourSandbox);
  });
  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
  });

  it('every /api/v1 route, called through the proxy for a success and an error, reports no finding', async () => {
    // The control steps too: the API steps after them read what they set up (an approval, an invitation).
    await runTour(t);
    const report = dataOf(await call(proxy, 'GET', '/__sandbox/drift'), driftReport);
    expect(report.upstream).toBe(`${upstream.url}${API_PREFIX}`);
    expect(
      report.routes.flatMap((r) => r.findings.map((f) => ({ route: `${r.method} ${r.path}`, ...f }))),
    ).toEqual([]);
    // Every route of the bank's API went through the proxy.
    const called = new Set(report.routes.map((r) => `${r.method} ${r.path}`));
    const missing = apiContracts.filter((c) => !called.has(`${c.method.toUpperCase()} ${c.path}`));
    expect(missing.map((c) => c.operationId)).toEqual([]);
  });
});

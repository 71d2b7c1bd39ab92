import { Hono } from 'hono';
import * as z from 'zod';
import { claimAnswer } from '../api/bulk/routes.js';
import { ALREADY_PROCESSING, batchView, fullView, QUEUED, reprocessBulk } from '../api/bulk/service.js';
import { approveBusiness } from '../api/business/service.js';
import { decideDispute } from '../api/disputes/service.js';
import { dashboardRoutes } from '../dashboard/routes.js';
import type { Deps } from '../deps.js';
import { operator } from '../domain/actor.js';
import { ApiError } from '../domain/errors.js';
import { pageQuery, paginate } from '../domain/pagination.js';
import { parseInput } from '../domain/parse.js';
import type { BulkProcessor } from '../engine/bulk-processor.js';
import type { WebhookDispatcher } from '../engine/webhook-dispatcher.js';
import type { AppEnv } from '../http/env.js';
import { done, ok, okPage } from '../http/envelope.js';
import type { RequestJournal } from '../http/request-log.js';
import { jsonBody, jsonText, queryOf } from '../http/validate.js';
import { ScenarioError } from '../scenarios/library.js';
import { type Scenario, scenario } from '../scenarios/schema.js';
import { credentials } from './clients/credentials.js';
import { rotateSecret } from './clients/secrets.js';
import { createClient, newClientBody } from './clients/tenants.js';
import type { ControlHooks } from './hooks.js';
import { receivePayment, redeliver } from './incoming-payments/service.js';
import { ledgerOf, setBalance } from './money/service.js';
import { metrics } from './sandbox/metrics.js';
import { DrainTimeoutError } from './sandbox/waiting.js';
import {
  advanceBody,
  balanceBody,
  batchesQuery,
  deliveriesQuery,
  drainQuery,
  freezeBody,
  incomingPaymentBody,
  metricsQuery,
  outboxQuery,
  overrideBody,
  reprocessItemBody,
  requestsQuery,
  scenarioByName,
} from './schemas.js';
import { importState } from './state/service.js';
import { readStateDocument } from './state/state-reader.js';

export type { ControlHooks };

/** `PUT /scenario` takes `{name}` of a ready scenario, or a whole scenario object. */
function chooseScenario(deps: Deps, body: unknown): Scenario {
  const byName = scenarioByName.safeParse(body);
  if (byName.success) {
    const ready = deps.scenarios.library.get(byName.data.name);
    if (!ready) throw new ApiError(404, `No ready scenario named "${byName.data.name}"`);
    return ready;
  }
  try {
    return deps.scenarios.library.resolve(parseInput(scenario, body));
  } catch (error) {
    if (error instanceof ScenarioError) throw new ApiError(400, error.message);
    throw error;
  }
}

/** `/__sandbox`: the control API for tests and people. */
export function controlRoutes(
  deps: Deps,
  hooks: ControlHooks,
  engines: { bulk: BulkProcessor; webhooks: WebhookDispatcher },
) {
  const app = new Hono<AppEnv>();
  return app
    .get('/health', (c) => {
      const uptimeSeconds = Math.floor((Date.now() - hooks.startedAt) / 1000);
      const health = deps.store.writeHealth();
      if (health.writable) return c.json({ status: 'ok', version: hooks.version, uptimeSeconds });
      // 503, so that Docker's HEALTHCHECK and a compose `service_healthy` see it.
      const since = new Date(health.since).toISOString();
      return c.json(
        { status: 'degraded', version: hooks.version, uptimeSeconds, reason: health.message, since },
        503,
      );
    })
    .get('/metrics', (c) =>
      ok(c, 'Sandbox metrics', metrics(deps, hooks.requests, engines, queryOf(c, metricsQuery).gc)),
    )
    .get('/credentials', (c) => ok(c, 'Sandbox credentials', { clients: credentials(deps.store) }))
    .post('/reset', async (c) => {
      await hooks.reset();
      return done(c, 'Sandbox reset to the fixtures');
    })
    .post('/drain', async (c) => {
      const { timeoutMs } = queryOf(c, drainQuery);
      try {
        await hooks.drain({ timeoutMs });
      } catch (error) {
        if (error instanceof DrainTimeoutError)
          throw new ApiError(408, error.message, undefined, undefined, error.waiting);
        throw error;
      }
      return done(c, 'Queues are idle');
    })
    .get('/state', (c) => c.json(deps.store.exportState()))
    .put('/state', async (c) => {
      await importState(deps, await readStateDocument(await jsonText(c)));
      return done(c, 'State imported');
    })
    .put('/businesses/:id/balance', async (c) => {
      const { balance } = await jsonBody(c, balanceBody);
      return ok(c, 'Balance updated', await setBalance(deps, c.req.param('id'), balance));
    })
    .post('/businesses/:id/approve', async (c) =>
      ok(c, 'Business approved; payment account open', await approveBusiness(deps, c.req.param('id'))),
    )
    .get('/businesses/:id/ledger', (c) => ok(c, 'Ledger', ledgerOf(deps, c.req.param('id'))))
    .get('/outbox', (c) => {
      const { to, type } = queryOf(c, outboxQuery);
      const messages = deps.store
        .all('outbox')
        .filter(
          (m) => (to === undefined || m.to === to.toLowerCase()) && (type === undefined || m.type === type),
        )
        .reverse();
      return ok(c, 'Outbox', messages);
    })
    .post('/disputes/:id/resolve', async (c) =>
      ok(c, 'Dispute resolved', await decideDispute(deps, c.req.param('id'), 'resolved')),
    )
    .post('/disputes/:id/reject', async (c) =>
      ok(c, 'Dispute rejected', await decideDispute(deps, c.req.param('id'), 'rejected')),
    )
    .post('/incoming-payments', async (c) => {
      const input = await jsonBody(c, incomingPaymentBody);
      return ok(c, 'Payment received', await receivePayment(deps, engines.webhooks, input), 201);
    })
    .get('/webhooks/deliveries', (c) => {
      const query = queryOf(c, deliveriesQuery);
      const matching = deps.store
        .all('deliveries')
        .filter(
          (d) =>
            (query.status === undefined || d.status === query.status) &&
            (query.clientId === undefined || d.clientId === query.clientId),
        )
        .reverse();
      return okPage(c, 'Webhook deliveries', paginate(matching, query));
    })
    .get('/webhooks/deliveries/:id', (c) => {
      const delivery = deps.store.get('deliveries', c.req.param('id'));
      if (!delivery) throw new ApiError(404, 'Delivery not found');
      return ok(c, 'Webhook delivery', delivery);
    })
    .post('/webhooks/deliveries/:id/redeliver', async (c) =>
      ok(c, 'Redelivery queued', await redeliver(deps, engines.webhooks, c.req.param('id'))),
    )
    .get('/bulk-transfers', (c) => {
      const query = queryOf(c, batchesQuery);
      const matching = deps.store
        .all('bulkTransfers')
        .filter(
          (b) =>
            (query.status === undefined || b.status === query.status) &&
            (query.clientId === undefined || b.clientId === query.clientId),
        )
        .reverse();
      const page = paginate(matching, query);
      return okPage(c, 'Bulk transfers', {
        data: page.data.map((b) => ({ ...batchView(b), clientId: b.clientId })),
        pagination: page.pagination,
      });
    })
    .get('/bulk-transfers/:id', (c) => {
      const batch = deps.store.get('bulkTransfers', c.req.param('id'));
      if (!batch) throw new ApiError(404, 'Bulk transfer not found');
      return ok(c, 'Bulk transfer', { ...fullView(deps, batch), clientId: batch.clientId });
    })
    .post('/bulk-transfers/:id/reprocess', async (c) => {
      const { itemId } = await jsonBody(c, reprocessItemBody);
      const batch = deps.store.get('bulkTransfers', c.req.param('id'));
      const business = batch && deps.store.get('businesses', batch.businessId);
      if (!batch || !business) throw new ApiError(404, 'Bulk transfer not found');
      const outcome = await reprocessBulk(
        deps,
        engines.bulk,
        operator(batch.clientId),
        business,
        batch.id,
        itemId,
      );
      const answer = claimAnswer(batch.id, outcome);
      return 'status' in answer ? ok(c, QUEUED, answer.data, 202) : ok(c, ALREADY_PROCESSING, answer.data);
    })
    .get('/virtual-accounts', (c) => {
      const query = queryOf(c, pageQuery);
      return okPage(c, 'Virtual accounts', paginate(deps.store.all('virtualAccounts').reverse(), query));
    })
    .post('/clients', async (c) =>
      ok(c, 'Client created', await createClient(deps, await jsonBody(c, newClientBody)), 201),
    )
    .get('/requests', (c) => {
      const q = queryOf(c, requestsQuery);
      const matching = hooks.requests
        .entries()
        .filter(
          (r) =>
            (q.method === undefined || r.method === q.method) &&
            (q.status === undefined || r.status === q.status) &&
            (q.path === undefined || r.path.includes(q.path)),
        );
      return ok(c, 'Request journal, newest first', matching.slice(0, q.limit));
    })
    .get('/clock', (c) => ok(c, 'Sandbox clock', deps.clock.describe()))
    .post('/clock/advance', async (c) => {
      const { ms } = await jsonBody(c, advanceBody);
      try {
        await deps.clock.advance(ms);
      } catch (error) {
        // Refused before anything moved: past the range of a Date.
        if (error instanceof RangeError)
          throw new ApiError(400, error.message, [{ field: 'ms', message: error.message }]);
        throw error;
      }
      return ok(c, `Clock advanced by ${ms} ms`, deps.clock.describe());
    })
    .post('/clock/freeze', async (c) => {
      const { frozen } = await jsonBody(c, freezeBody);
      await deps.clock.freeze(frozen);
      return ok(c, frozen ? 'Clock frozen' : 'Clock running', deps.clock.describe());
    })
    .get('/scenario', (c) => ok(c, 'Active scenario', deps.scenarios.describe()))
    .get('/scenarios', (c) => ok(c, 'Ready scenarios', deps.scenarios.library.list()))
    .put('/scenario', async (c) => {
      deps.scenarios.set(chooseScenario(deps, await jsonBody(c, z.unknown())));
      return ok(c, 'Scenario active', deps.scenarios.describe());
    })
    .post('/scenario/rules', async (c) => {
      const { rules } = await jsonBody(c, overrideBody);
      deps.scenarios.use(rules);
      return ok(c, 'Rules put in front of the active scenario', deps.scenarios.describe());
    })
    .delete('/scenario', (c) => {
      deps.scenarios.reset();
      return ok(c, 'Start-up scenario active', deps.scenarios.describe());
    })
    .post('/clients/:id/rotate-secret', async (c) =>
      ok(c, 'Secret key rotated', await rotateSecret(deps, c.req.param('id'))),
    )
    .route('/ui', dashboardRoutes(deps, hooks.requests));
}

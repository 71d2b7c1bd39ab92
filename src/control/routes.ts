import { Hono } from 'hono';
import * as z from 'zod';
import { approveBusiness } from '../api/business/service.js';
import { decideDispute } from '../api/disputes/service.js';
import type { Deps } from '../deps.js';
import { secureEqual } from '../domain/secure-compare.js';
import type { AppEnv } from '../http/env.js';
import { ApiError, done, ok } from '../http/envelope.js';
import { header } from '../http/headers.js';
import { jsonBody, queryOf } from '../http/validate.js';
import { credentials } from './credentials.js';
import { ledgerOf, setBalance } from './money.js';
import { rotateSecret } from './secrets.js';
import { importState } from './state.js';

const balanceBody = z.object({ balance: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });
const outboxQuery = z.object({
  to: z.string().trim().min(1).optional(),
  type: z.enum(['member_invitation', 'bvn_otp']).optional(),
});

/** What the control API needs from the running sandbox beyond the shared deps. */
export interface ControlHooks {
  version: string;
  startedAt: number;
  reset: () => Promise<void>;
  /** Resolves once the background queues are idle and every change is on disk. */
  drain: () => Promise<void>;
}

const drainQuery = z.object({ timeoutMs: z.coerce.number().int().min(1).max(600_000).default(30_000) });

/** `/__sandbox`: the control API for tests and people. */
export function controlRoutes(deps: Deps, hooks: ControlHooks) {
  const app = new Hono<AppEnv>();
  const token = deps.config.controlToken;
  if (token) {
    app.use(async (c, next) => {
      const given = header(c, 'x-sandbox-token');
      if (!given || !secureEqual(given, token))
        throw new ApiError(401, 'x-sandbox-token is missing or wrong');
      await next();
    });
  }
  return app
    .get('/health', (c) =>
      c.json({
        status: 'ok',
        version: hooks.version,
        uptimeSeconds: Math.floor((Date.now() - hooks.startedAt) / 1000),
      }),
    )
    .get('/credentials', (c) => ok(c, 'Sandbox credentials', { clients: credentials(deps.store) }))
    .post('/reset', async (c) => {
      await hooks.reset();
      return done(c, 'Sandbox reset to the fixtures');
    })
    .post('/drain', async (c) => {
      const { timeoutMs } = queryOf(c, drainQuery);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const idle = await Promise.race([hooks.drain().then(() => true as const), timedOut]);
      clearTimeout(timer);
      if (!idle) throw new ApiError(408, `The queues were still busy after ${timeoutMs} ms`);
      return done(c, 'Queues are idle');
    })
    .get('/state', (c) => c.json(deps.store.exportState()))
    .put('/state', async (c) => {
      await importState(deps, await jsonBody(c, z.unknown()));
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
    .post('/clients/:id/rotate-secret', async (c) =>
      ok(c, 'Secret key rotated', await rotateSecret(deps, c.req.param('id'))),
    );
}

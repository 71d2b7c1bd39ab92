import { Hono } from 'hono';
import type { Deps } from '../../deps.js';
import { type Auth, actorOf } from '../../http/auth.js';
import type { AppEnv } from '../../http/env.js';
import { done, ok } from '../../http/envelope.js';
import { jsonBody } from '../../http/validate.js';
import { configureBillersBody, updateWebhookBody } from './schemas.js';
import { apiKeys, availableBillers, configureBillers, updateWebhookUrl } from './service.js';

/** `/clients/settings`: API keys, webhook URL, billers. Admin only. */
export function settingsRoutes(deps: Deps, auth: Auth) {
  const admin = auth.schemeA({ business: 'optional', area: 'settings' });
  return new Hono<AppEnv>()
    .use(admin)
    .get('/get-keys', (c) => ok(c, 'API keys retrieved successfully', apiKeys(c.var.caller.client)))
    .patch('/update-webhook-url', async (c) => {
      const { webhookUrl } = await jsonBody(c, updateWebhookBody);
      await updateWebhookUrl(deps, actorOf(c), c.var.caller.client, webhookUrl);
      return done(c, 'Webhook URL updated successfully');
    })
    .get('/billers', (c) => ok(c, 'Billers retrieved successfully', { billers: availableBillers(deps) }))
    .post('/configure-billers', async (c) => {
      const { billers } = await jsonBody(c, configureBillersBody);
      await configureBillers(deps, actorOf(c), c.var.caller.client, billers);
      return done(c, 'Billers has been updated');
    });
}

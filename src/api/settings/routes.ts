import { availableBillers, configureBillers, keysOf, updateWebhookUrl } from '../../bank/settings/service.js';
import {
  configureBillersContract,
  getApiKeysContract,
  listBillersContract,
  updateWebhookUrlContract,
} from '../../contract/api/settings.js';
import { DONE } from '../../contract/kit.js';
import { webhookUrlWarnings } from '../../domain/stricter-in-production.js';
import type { Route } from '../../http/route.js';
import { warn } from '../../http/warnings.js';
import { type ApiRuntime, route } from '../runtime.js';

/** `/clients/settings`: API keys, webhook URL, billers. Admin only. */
export const settingsRoutes: Route<ApiRuntime>[] = [
  route(getApiKeysContract, ({ caller }) => ({ data: keysOf(caller.client) })),
  route(updateWebhookUrlContract, async ({ deps, c, caller, actor, body }) => {
    warn(c, ...webhookUrlWarnings(body.webhookUrl));
    await updateWebhookUrl(deps, actor(), caller.client, body.webhookUrl);
    return DONE;
  }),
  route(listBillersContract, ({ deps }) => ({ data: { billers: availableBillers(deps) } })),
  route(configureBillersContract, async ({ deps, caller, actor, body }) => {
    await configureBillers(deps, actor(), caller.client, body.billers);
    return DONE;
  }),
];

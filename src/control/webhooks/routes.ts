import { getDelivery, listDeliveries, redeliver } from '../../bank/webhooks/service.js';
import {
  getDeliveryContract,
  listDeliveriesContract,
  redeliverContract,
} from '../../contract/control/webhooks.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';

/** `/webhooks/deliveries`: the delivery log, and a delivery sent again. */
export const webhookRoutes: Route<ControlRuntime>[] = [
  route(listDeliveriesContract, ({ deps, query }) => ({ page: listDeliveries(deps, query) })),
  route(getDeliveryContract, ({ deps, params }) => ({ data: getDelivery(deps, params.id) })),
  route(redeliverContract, async ({ deps, engines, params }) => ({
    data: await redeliver(deps, engines.webhooks, params.id),
  })),
];

import { listOutbox } from '../../bank/outbox/service.js';
import { outboxContract } from '../../contract/control/outbox.js';
import type { Route } from '../../http/route.js';
import { type ControlRuntime, route } from '../runtime.js';

/** `/outbox`: the messages the service "sent". */
export const outboxRoutes: Route<ControlRuntime>[] = [
  route(outboxContract, ({ deps, query }) => ({ page: listOutbox(deps, query) })),
];

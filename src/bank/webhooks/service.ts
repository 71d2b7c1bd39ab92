import type { DeliveriesQuery, DeliveryView } from '../../contract/control/webhooks.js';
import type { Deps } from '../../deps.js';
import { isoOf } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import { type Pagination, paginate } from '../../domain/pagination.js';
import type { ClientRecord, DeliveryRecord } from '../../domain/records.js';
import { redactHeader } from '../../domain/redact.js';
import { webhookHeaders } from '../../domain/webhook-agent.js';
import type { WebhookDispatcher } from '../../engine/webhook-dispatcher.js';
import type { Store } from '../../store/store.js';

/** The headers a delivery is sent with, as the journal would show them: `AUTH-KEY` redacted. */
export function shownHeaders(client: ClientRecord | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(webhookHeaders(client))) out[name] = redactHeader(name, value);
  return out;
}

/**
 * A delivery as the control API answers it: `nextAttemptAt` as ISO 8601 text (the record keeps ms), and the
 * headers its attempts are sent with, built from the client as it is now.
 */
function view(store: Pick<Store, 'get'>, d: DeliveryRecord): DeliveryView {
  return {
    ...d,
    nextAttemptAt: d.nextAttemptAt === null ? null : isoOf(d.nextAttemptAt),
    headers: shownHeaders(store.get('clients', d.clientId)),
  };
}

/** Every client's deliveries, newest first, of one status or client if asked. */
export function listDeliveries(
  deps: Pick<Deps, 'store'>,
  query: DeliveriesQuery,
): { data: DeliveryView[]; pagination: Pagination } {
  const matching = deps.store
    .all('deliveries')
    .filter(
      (d) =>
        (query.status === undefined || d.status === query.status) &&
        (query.clientId === undefined || d.clientId === query.clientId),
    )
    .reverse();
  return paginate(matching, query, (d) => view(deps.store, d));
}

/** One delivery with its attempts. */
export function getDelivery(deps: Pick<Deps, 'store'>, id: string): DeliveryView {
  const delivery = deps.store.get('deliveries', id);
  if (!delivery) throw new ApiError(404, 'Delivery not found');
  return view(deps.store, delivery);
}

/** Sends a delivery again, to the client's current webhook URL, with a fresh round of attempts. */
export async function redeliver(deps: Deps, webhooks: WebhookDispatcher, id: string): Promise<DeliveryView> {
  const { store, clock, config } = deps;
  const delivery = await store.mutate((tx) => {
    const current = tx.get('deliveries', id);
    if (!current) throw new ApiError(404, 'Delivery not found');
    const url = tx.get('clients', current.clientId)?.webhookUrl ?? null;
    if (!url) throw new ApiError(400, 'The client has no webhook URL set');
    const next: DeliveryRecord = {
      ...current,
      url,
      status: 'pending',
      attemptsLeft: config.webhookAttempts,
      nextAttemptAt: clock.now(),
    };
    tx.put('deliveries', next);
    return next;
  });
  webhooks.cancel(id);
  webhooks.deliver(id);
  return view(store, delivery);
}

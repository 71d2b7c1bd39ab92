import type { Context } from 'hono';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import type { Deps } from '../deps.js';
import type { RequestEntry, RequestJournal } from '../http/request-log.js';
import type { CollectionName } from '../store/records.js';
import type { StoreChange } from '../store/store.js';
import {
  BatchRow,
  ClientBlock,
  DeliveryRow,
  FIRST_ROWS,
  ids,
  RequestRow,
  ScenarioPanel,
  VirtualAccountOption,
} from './views.js';

/** How often changes are sent: a batch of 10 000 items moves its counters 10 000 times, the page sees 10 frames a second. */
export const FLUSH_MS = 100;
/** A comment line now and then, so that proxies and browsers keep an idle stream open. */
const HEARTBEAT_MS = 15_000;

/** A row to swap in by id, or to insert into `parent` when the page does not have it yet. */
export interface Patch {
  id: string;
  html: string;
  parent?: string;
  position?: 'prepend' | 'append';
}

/** The changes since the last frame, each record once, in the order it first changed. */
class Pending {
  readonly records = new Map<string, StoreChange>();
  requests: RequestEntry[] = [];
  replaced = false;

  get empty(): boolean {
    return !this.replaced && this.records.size === 0 && this.requests.length === 0;
  }

  take(): Pending {
    const taken = new Pending();
    for (const [key, change] of this.records) taken.records.set(key, change);
    taken.requests = this.requests;
    taken.replaced = this.replaced;
    this.records.clear();
    this.requests = [];
    this.replaced = false;
    return taken;
  }
}

/** The collections the page shows, and the ones whose change shows through another (a client's businesses). */
const SHOWN = new Set<CollectionName>([
  'clients',
  'businesses',
  'bulkTransfers',
  'deliveries',
  'virtualAccounts',
]);

/** The page's own requests (its assets and this stream) are not news. */
export const isDashboard = (path: string) => path.startsWith('/__sandbox/ui');

/** What one frame sends: patches to apply, rows to remove, request rows to prepend. */
export function frame(
  deps: Deps,
  pending: Pending,
): { patches: Patch[]; removed: string[]; requests: string } {
  const patches: Patch[] = [];
  const removed: string[] = [];
  const clients = new Set<string>();
  const { store } = deps;
  for (const { collection, id } of pending.records.values()) {
    if (collection === 'clients') clients.add(id);
    else if (collection === 'businesses') {
      const business = store.get('businesses', id);
      if (business) clients.add(business.clientId);
    } else if (collection === 'bulkTransfers') {
      const batch = store.get('bulkTransfers', id);
      if (!batch) removed.push(ids.batch(id));
      else
        patches.push({
          id: ids.batch(id),
          html: String(BatchRow({ deps, batch })),
          parent: 'batches',
          position: 'prepend',
        });
    } else if (collection === 'deliveries') {
      const delivery = store.get('deliveries', id);
      if (!delivery) removed.push(ids.delivery(id));
      else
        patches.push({
          id: ids.delivery(id),
          html: String(DeliveryRow({ delivery })),
          parent: 'deliveries',
          position: 'prepend',
        });
    } else if (collection === 'virtualAccounts') {
      const account = store.get('virtualAccounts', id);
      if (account)
        patches.push({
          id: ids.virtualAccount(id),
          html: String(VirtualAccountOption({ account })),
          parent: 'va-list',
          position: 'prepend',
        });
    }
  }
  for (const clientId of clients) {
    const client = store.get('clients', clientId);
    if (!client) removed.push(ids.client(clientId));
    else
      patches.push({
        id: ids.client(clientId),
        html: String(ClientBlock({ deps, client })),
        parent: 'clients',
        position: 'append',
      });
  }
  const shown = pending.requests.filter((r) => !isDashboard(r.path)).slice(-FIRST_ROWS.requests);
  const requests = shown
    .reverse()
    .map((entry) => String(RequestRow({ entry })))
    .join('');
  return { patches, removed, requests };
}

/** What the scenario panel shows that can change: the active scenario and its number of overrides. */
function scenarioKey(deps: Deps): string {
  const { name, overrides } = deps.scenarios.describe();
  return `${name}:${overrides.length}`;
}

async function send(stream: SSEStreamingApi, deps: Deps, pending: Pending, scenario: { last: string }) {
  if (pending.replaced) {
    await stream.writeSSE({ event: 'reload', data: '{}' });
    return;
  }
  const { patches, removed, requests } = frame(deps, pending);
  if (patches.length > 0) await stream.writeSSE({ event: 'patch', data: JSON.stringify(patches) });
  if (removed.length > 0) await stream.writeSSE({ event: 'remove', data: JSON.stringify(removed) });
  if (requests) await stream.writeSSE({ event: 'requests', data: JSON.stringify(requests) });
  const key = scenarioKey(deps);
  if (key !== scenario.last) {
    scenario.last = key;
    const html = String(ScenarioPanel({ deps }));
    await stream.writeSSE({ event: 'patch', data: JSON.stringify([{ id: 'scenario-panel', html }]) });
  }
}

/**
 * `GET /__sandbox/ui/events`: the page's live feed, as server-sent events. It listens to the store's changes and
 * to the request journal, gathers them, and every FLUSH_MS sends what changed since the last frame, rendered
 * with the page's own components: `patch` (rows to swap in by id or to insert), `remove` (ids), `requests`
 * (journal rows, newest first) and `reload` (the whole state was replaced: reset or import). It starts with
 * `ready`. Each record is rendered once per frame however often it changed, so a busy sandbox costs the page
 * ten small updates a second, not one per change.
 */
export function liveEvents(c: Context, deps: Deps, requests: RequestJournal) {
  return streamSSE(c, async (stream) => {
    const pending = new Pending();
    const offStore = deps.store.subscribe((changes) => {
      if (changes === 'replaced') pending.replaced = true;
      else
        for (const change of changes)
          if (SHOWN.has(change.collection)) pending.records.set(`${change.collection}:${change.id}`, change);
    });
    const offRequests = requests.subscribe((entry) => {
      pending.requests.push(entry);
      if (pending.requests.length > FIRST_ROWS.requests * 2) pending.requests.splice(0, FIRST_ROWS.requests);
    });
    const scenario = { last: scenarioKey(deps) };
    await stream.writeSSE({ event: 'ready', data: JSON.stringify({ flushMs: FLUSH_MS }) });
    let sending = false;
    let quietSince = Date.now();
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (sending || stream.aborted || stream.closed) return;
        if (pending.empty && scenarioKey(deps) === scenario.last) {
          if (Date.now() - quietSince < HEARTBEAT_MS) return;
          quietSince = Date.now();
          sending = true;
          void stream.write(': keep-alive\n\n').finally(() => {
            sending = false;
          });
          return;
        }
        sending = true;
        quietSince = Date.now();
        send(stream, deps, pending.take(), scenario)
          .catch(() => stream.abort())
          .finally(() => {
            sending = false;
          });
      }, FLUSH_MS);
      stream.onAbort(() => {
        clearInterval(timer);
        offStore();
        offRequests();
        resolve();
      });
    });
  });
}

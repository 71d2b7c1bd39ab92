import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { DASHBOARD_PATH } from '../contract/mounts.js';
import type { Deps } from '../deps.js';
import type { CollectionName, Collections } from '../domain/records.js';
import type { RequestEntry, RequestJournal } from '../http/request-log.js';
import type { StoreChange } from '../store/store.js';
import { LedgerTotals } from './ledger-totals.js';
import {
  clientView,
  clockKey,
  clockModel,
  type RowFacts,
  rowFacts,
  type SandboxPickerView,
  scenarioKey,
  scenarioModel,
} from './model.js';
import { Broadcast, encoder, FeedClient, KEEP_ALIVE, RELOAD, sseEvent } from './page-streams.js';
import { ClockPanel, DriftPanel, SandboxPicker, ScenarioPanel } from './panels.js';
import { ids } from './row-parts.js';
import {
  BatchRow,
  BusinessOption,
  ClientOption,
  ClientRows,
  DeliveryRow,
  DisputeRow,
  MessageRow,
  RequestRow,
  TransactionRow,
  VirtualAccountOption,
  VirtualAccountRow,
} from './rows.js';
/** How often changes are sent: a batch of 10 000 items moves its counters 10 000 times, the page sees 10 frames a second. */
export const FLUSH_MS = 100;
/**
 * The newest requests a frame carries: 200 rows a second is more than anyone reads, and a frame's bytes go to every
 * page watching (at 7 000 requests a second, 200 rows a frame made 60 KB ten times a second for each page). The
 * whole journal is at `GET /__sandbox/requests`.
 */
export const REQUESTS_PER_FRAME = 20;
/**
 * The bytes a second the feed writes to each page, at most on average. Every page gets every frame: with 300 pages
 * open and transfers flowing, the socket writes were the largest cost of the whole process (docs/performance.md,
 * "The dashboard"). A busy sandbox therefore gets fewer, larger frames: after a frame of n bytes
 * the feed waits about n / PAGE_BYTES_PER_SECOND before the next. A record still goes once per frame, and the
 * newest requests and ledger entries are the ones sent, so the page shows the same, a little less often.
 */
export const PAGE_BYTES_PER_SECOND = 48 * 1024;
const BYTES_PER_TICK = (PAGE_BYTES_PER_SECOND * FLUSH_MS) / 1000;
/**
 * The longest rest after a big frame, in ticks (a second). Rows other than ledger entries and requests are not
 * capped per frame, so a rest could otherwise feed the next, bigger frame and a longer rest, and the page stop
 * moving under a stream of large rows (webhook deliveries) however long it lasted.
 */
export const MAX_REST_TICKS = 10;
/** A comment line now and then, so that proxies and browsers keep an idle stream open. */
const HEARTBEAT_MS = 15_000;

import type { DriftReport } from '../upstream/drift.js';

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

/** The page's own requests (its assets and this stream) are not news. */
export const isDashboard = (path: string) => path.startsWith(DASHBOARD_PATH);

/**
 * The new ledger entries a frame carries at most, the newest: a 10 000-item batch posts one per item, and every
 * page gets every frame (with 300 pages open, 10 entries a frame doubled the bytes the feed writes; 50 a second is
 * more than anyone reads, and the whole ledger is at `GET /__sandbox/businesses/{id}/ledger`).
 */
export const ENTRIES_PER_FRAME = 5;

/** One row a record of a collection has on the page: its id, the list new ones go to (at the top), its template. */
interface Row<K extends CollectionName> {
  id: (id: string) => string;
  parent: string;
  render: (record: Collections[K], facts: RowFacts) => unknown;
}

/** The rows of each collection the page lists (a virtual account has two: its row and its payment-form option). */
const shown: { [K in CollectionName]?: Row<K>[] } = {
  bulkTransfers: [{ id: ids.batch, parent: 'batches', render: (batch, facts) => BatchRow({ batch, facts }) }],
  deliveries: [
    {
      id: ids.delivery,
      parent: 'deliveries',
      render: (delivery, facts) => DeliveryRow({ delivery, facts }),
    },
  ],
  virtualAccounts: [
    {
      id: ids.virtualAccount,
      parent: 'va-list',
      render: (account) => VirtualAccountOption({ account }),
    },
    {
      id: ids.virtualAccountRow,
      parent: 'virtual-accounts',
      render: (account, facts) => VirtualAccountRow({ account, facts }),
    },
  ],
  transactions: [
    {
      id: ids.transaction,
      parent: 'transactions',
      render: (transaction, facts) => TransactionRow({ transaction, facts }),
    },
  ],
  outbox: [{ id: ids.message, parent: 'outbox', render: (message) => MessageRow({ message }) }],
  disputes: [
    { id: ids.dispute, parent: 'disputes', render: (dispute, facts) => DisputeRow({ dispute, facts }) },
  ],
};

/** A changed record the page shows, read for this frame, and its rows. */
interface Changed {
  change: StoreChange;
  record: Collections[CollectionName];
  rows: Row<CollectionName>[];
}

/** The collections the page shows, and the ones whose change shows through another (a client's businesses). */
const SHOWN = new Set<CollectionName>(['clients', 'businesses', ...(Object.keys(shown) as CollectionName[])]);

/** A changed record read for the frame, or its rows' ids to remove when it is gone. */
function readChange(deps: Deps, change: StoreChange, out: Frame, changed: Changed[]): void {
  const rows = shown[change.collection] as Row<CollectionName>[] | undefined;
  if (!rows) return;
  const record = deps.store.get(change.collection, change.id);
  if (record) changed.push({ change, record, rows });
  else for (const row of rows) out.removed.push(row.id(change.id));
}

/** The facts the changed records' rows need, read once for the frame. */
function factsOf(deps: Deps, changed: readonly Changed[]): RowFacts {
  const businessIds: string[] = [];
  const deliveryClients: string[] = [];
  for (const { change, record } of changed) {
    // A row names its record's business, when it has one (an outbox message may not).
    if ('businessId' in record && record.businessId !== null) businessIds.push(record.businessId);
    if (change.collection === 'deliveries' && 'clientId' in record) deliveryClients.push(record.clientId);
  }
  return rowFacts(deps, businessIds, deliveryClients);
}

/**
 * The patches of a record's rows. Only a record new in this frame names the list to put it in: a change to one
 * the page does not show (older than its first rows, or trimmed) is not news at the top of the list, and the page
 * leaves it out.
 */
function patchesOf({ change, record, rows }: Changed, facts: RowFacts, out: Frame): void {
  for (const row of rows)
    out.patches.push({
      id: row.id(change.id),
      html: String(row.render(record, facts)),
      ...(change.created ? { parent: row.parent, position: 'prepend' as const } : {}),
    });
}

interface Frame {
  patches: Patch[];
  removed: string[];
  requests: string;
}

/** What one frame sends: patches to apply, rows to remove, request rows to prepend. */
export function frame(deps: Deps, pending: Pending, totals: LedgerTotals): Frame {
  const out: Frame = { patches: [], removed: [], requests: '' };
  /** The clients whose rows changed, and whether the client itself is new in this frame. */
  const clients = new Map<string, boolean>();
  /** The businesses that changed, and whether each is new. */
  const businesses = new Map<string, boolean>();
  const { store } = deps;
  const entries: StoreChange[] = [];
  const changed: Changed[] = [];
  for (const change of pending.records.values()) {
    const { collection, id } = change;
    if (collection === 'clients') clients.set(id, change.created);
    else if (collection === 'businesses') {
      const business = store.get('businesses', id);
      if (!business) out.removed.push(ids.businessOption(id));
      else {
        clients.set(business.clientId, clients.get(business.clientId) ?? false);
        businesses.set(id, change.created);
      }
    } else if (collection === 'transactions') entries.push(change);
    else readChange(deps, change, out, changed);
  }
  for (const change of entries.slice(-ENTRIES_PER_FRAME)) readChange(deps, change, out, changed);
  const facts = factsOf(deps, changed);
  for (const record of changed) patchesOf(record, facts, out);
  const append = (created: boolean, parent: string) =>
    created ? { parent, position: 'append' as const } : {};
  for (const [clientId, created] of clients) {
    const client = store.get('clients', clientId);
    if (!client) {
      out.removed.push(ids.client(clientId), ids.clientOption(clientId));
      continue;
    }
    const view = clientView(store, client, (id) => totals.of(id));
    out.patches.push(
      {
        id: ids.client(clientId),
        html: String(ClientRows({ view })),
        ...append(created, 'clients'),
      },
      {
        id: ids.clientOption(clientId),
        html: String(ClientOption({ client })),
        ...append(created, 'client-picker'),
      },
    );
    // The filter's options of the businesses that changed (every one of a new client).
    for (const { business, ledger } of view.businesses) {
      const isNew = businesses.get(business.id);
      if (!created && isNew === undefined) continue;
      out.patches.push({
        id: ids.businessOption(business.id),
        html: String(BusinessOption({ business, client, ledger })),
        ...append(created || isNew === true, 'business-filter'),
      });
    }
  }
  const news = pending.requests.filter((r) => !isDashboard(r.path)).slice(-REQUESTS_PER_FRAME);
  out.requests = news
    .reverse()
    .map((entry) => String(RequestRow({ entry })))
    .join('');
  return out;
}

/** The sandboxes the page's picker lists, and a number that changes whenever one is made or dropped. */
export interface PickerSource {
  version(): number;
  view(): SandboxPickerView;
}

interface PanelSources {
  deps: Deps;
  drift: DriftReport;
  picker: PickerSource;
}

/** The panels re-rendered whole, each from its model, when what they show changes: the key says what they show. */
const PANELS: { id: string; key: (from: PanelSources) => string; render: (from: PanelSources) => unknown }[] =
  [
    {
      id: 'scenario-panel',
      key: ({ deps }) => scenarioKey(deps),
      render: ({ deps }) => ScenarioPanel({ scenario: scenarioModel(deps) }),
    },
    {
      id: 'clock-panel',
      key: ({ deps }) => clockKey(deps),
      render: ({ deps }) => ClockPanel({ clock: clockModel(deps) }),
    },
    {
      id: 'drift-panel',
      key: ({ drift }) => String(drift.version),
      render: ({ drift }) => DriftPanel({ drift: drift.view() }),
    },
    {
      id: 'sandbox-panel',
      key: ({ picker }) => String(picker.version()),
      render: ({ picker }) => SandboxPicker({ picker: picker.view() }),
    },
  ];

/**
 * A dashboard's live feed, one per sandbox (the root, or an isolated one). It listens to the store's changes and the request journal only while a
 * page is connected, gathers what changed, and every FLUSH_MS renders one frame with the page's own components:
 * `patch` (rows to swap in by id or to insert), `remove` (ids), `requests` (journal rows, newest first) and
 * `reload` (the whole state was replaced: reset or import). Each record is rendered once per frame however often
 * it changed, and the frame is rendered once and the same bytes written to every page, so a busy sandbox costs
 * ten small renders a second whatever the number of pages watching.
 */
export class LiveFeed {
  private readonly clients = new Set<FeedClient>();
  private readonly outgoing = new Broadcast();
  private pending = new Pending();
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void)[] = [];
  /** The ledger balances the frames show, kept while the feed listens. */
  private readonly totals: LedgerTotals;
  /** Ticks to let pass before the next frame, after a frame bigger than a tick's share of the bytes. */
  private resting = 0;
  /** What each of PANELS showed at the last frame. */
  private panelKeys: string[] = [];
  private quietSince = 0;

  /** What the panels are rendered from. */
  private readonly sources: PanelSources;

  constructor(
    private readonly deps: Deps,
    private readonly requests: RequestJournal,
    drift: DriftReport,
    picker: PickerSource,
  ) {
    this.sources = { deps, drift, picker };
    this.totals = new LedgerTotals(deps.store);
  }

  /**
   * Its sandbox is gone (deleted, expired): every page watching is told to reload, which then hears that the
   * sandbox is no more, and its stream ends; the feed stops listening, and a page that connects later is told
   * the same at once.
   */
  close(): void {
    this.closed = true;
    for (const client of [...this.clients]) {
      this.leave(client);
      client.endWith(RELOAD);
    }
  }

  private closed = false;

  /** `GET /__sandbox/ui/events`: a stream that starts with `ready` and then carries every frame. */
  respond(c: Context): Response {
    return streamSSE(c, async (stream) => {
      const client = new FeedClient(stream);
      if (this.closed) {
        client.endWith(RELOAD);
        return;
      }
      // Joined before `ready` is sent: every change after `ready` reaches this page.
      this.join(client);
      client.send(encoder.encode(sseEvent('ready', JSON.stringify({ flushMs: FLUSH_MS }))));
      await new Promise<void>((resolve) =>
        stream.onAbort(() => {
          this.leave(client);
          resolve();
        }),
      );
    });
  }

  /** Pages connected now. */
  get size(): number {
    return this.clients.size;
  }

  private join(client: FeedClient): void {
    this.clients.add(client);
    if (this.timer) return;
    const { store } = this.deps;
    this.pending = new Pending();
    this.resting = 0;
    this.unsubscribe = [
      store.subscribe((changes) => {
        this.totals.heard(changes);
        if (changes === 'replaced') this.pending.replaced = true;
        else
          for (const change of changes)
            if (SHOWN.has(change.collection)) {
              // Created in this frame stays created, however often it changed after.
              const key = `${change.collection}:${change.id}`;
              if (!this.pending.records.get(key)?.created) this.pending.records.set(key, change);
            }
      }),
      this.requests.subscribe((entry) => {
        const requests = this.pending.requests;
        requests.push(entry);
        if (requests.length > REQUESTS_PER_FRAME * 50)
          requests.splice(0, requests.length - REQUESTS_PER_FRAME * 10);
      }),
    ];
    this.panelKeys = PANELS.map((p) => p.key(this.sources));
    this.quietSince = Date.now();
    this.timer = setInterval(() => this.tick(), FLUSH_MS);
  }

  private leave(client: FeedClient): void {
    this.clients.delete(client);
    if (this.clients.size > 0 || !this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    for (const off of this.unsubscribe.splice(0)) off();
    // Not hearing the store any more, the totals would go stale.
    this.totals.clear();
  }

  private broadcast(bytes: Uint8Array): void {
    this.outgoing.send(bytes, this.clients);
  }

  private tick(): void {
    // The last frame has not reached every page yet (a busy event loop): the changes wait for the next tick, so that
    // frames never queue up behind one another.
    if (this.outgoing.pending > 0) return;
    if (this.resting > 0) {
      this.resting--;
      return;
    }
    const keys = PANELS.map((p) => p.key(this.sources));
    const panelsChanged = keys.some((key, i) => key !== this.panelKeys[i]);
    if (this.pending.empty && !panelsChanged) {
      if (Date.now() - this.quietSince < HEARTBEAT_MS) return;
      this.quietSince = Date.now();
      this.broadcast(KEEP_ALIVE);
      return;
    }
    this.quietSince = Date.now();
    const pending = this.pending.take();
    if (pending.replaced) {
      this.broadcast(RELOAD);
      return;
    }
    const { patches, removed, requests } = frame(this.deps, pending, this.totals);
    let text = '';
    if (patches.length > 0) text += sseEvent('patch', JSON.stringify(patches));
    if (removed.length > 0) text += sseEvent('remove', JSON.stringify(removed));
    if (requests) text += sseEvent('requests', JSON.stringify(requests));
    if (panelsChanged) {
      const changed = PANELS.filter((_, i) => keys[i] !== this.panelKeys[i]);
      this.panelKeys = keys;
      const patches = changed.map((p) => ({ id: p.id, html: String(p.render(this.sources)) }));
      text += sseEvent('patch', JSON.stringify(patches));
    }
    if (!text) return;
    const bytes = encoder.encode(text);
    this.broadcast(bytes);
    // A frame over a tick's share of PAGE_BYTES_PER_SECOND: the next ones wait as many ticks as it took more, at most
    // MAX_REST_TICKS.
    this.resting = Math.min(MAX_REST_TICKS, Math.ceil(bytes.length / BYTES_PER_TICK) - 1);
  }
}

import { shownHeaders } from '../bank/webhooks/service.js';
import type { RequestEntryWithCurlView } from '../contract/control/requests.js';
import type { Deps } from '../deps.js';
import type { VirtualClock } from '../domain/clock.js';
import type {
  BulkItemRecord,
  BulkTransferRecord,
  BusinessRecord,
  ClientRecord,
  Collections,
  DeliveryRecord,
  DisputeRecord,
  OutboxRecord,
  ScheduledRecord,
  TransactionRecord,
  VirtualAccountRecord,
} from '../domain/records.js';
import { entryWithCurl } from '../http/journal-view.js';
import type { RequestEntry, RequestJournal } from '../http/request-log.js';
import type { DriftReport, DriftView } from '../upstream/drift.js';
import { LedgerTotals } from './ledger-totals.js';

// What the dashboard shows, read from the state once per render: the page's whole model, and the facts its rows
// need beside their own records. The views render from these plain objects alone and never reach into the store,
// so what one render shows is one reading of the state, and a view can be rendered from any model a test builds.

/** How many rows each list renders at first; the page keeps about twice as many as new ones arrive. */
export const FIRST_ROWS = {
  batches: 50,
  deliveries: 50,
  transactions: 50,
  virtualAccounts: 50,
  outbox: 50,
  disputes: 50,
  requests: 100,
} as const;

/** Past this many clients, the clients table starts folded (unless a client is picked), so every heading shows. */
export const FOLD_CLIENTS_OVER = 8;

/** The headers a delivery is sent with, as the control API shows them: `AUTH-KEY` shown by its last 4 characters only. */
export type ShownHeaders = Record<string, string>;

/** A business's ledger balance in kobo: summed by the page, kept by the live feed (`ledger-totals.ts`). */
export type LedgerOf = (businessId: string) => number;

/** A business with its ledger balance (kobo: the opening balance plus every ledger entry). */
export interface BusinessLine {
  business: BusinessRecord;
  ledger: number;
}

/** A client and its businesses, as its block of the clients table and its options of the ledger's filter show them. */
export interface ClientView {
  client: ClientRecord;
  businesses: BusinessLine[];
}

/** What the rows need to know beyond their own records. */
export interface RowFacts {
  /** Now on the sandbox clock, ms: times in words, and whether a virtual account has expired. */
  now: number;
  /** The businesses the rows name, by id (a row of a business gone shows its id and no client). */
  businesses: ReadonlyMap<string, BusinessRecord>;
  /** The headers each client's webhook deliveries are sent with, by client id. */
  webhookHeaders: ReadonlyMap<string, ShownHeaders>;
  /** What is due later for a ledger entry or a delivery (a reversal, a refund, a late duplicate), if anything. */
  dueFor: (target: string) => ScheduledRecord | undefined;
}

/** The clock panel: what `GET /__sandbox/clock` shows. */
export type ClockView = ReturnType<VirtualClock['describe']>;

/** The scenario panel: the active scenario, its number of override rules, and the ready ones to pick from. */
export interface ScenarioView {
  name: string;
  description: string;
  overrides: number;
  ready: { name: string; description: string }[];
  /** The rules in force, overrides first, each as its JSON: what they match (calendars and counts included) and do. */
  rules: string[];
}

/** The sandboxes the page's picker moves between: the root (null) and the isolated ones, and the one shown. */
export interface SandboxPickerView {
  /** The isolated sandbox the page shows; null for the root. */
  current: string | null;
  /** Every isolated sandbox's id, the oldest first. */
  ids: string[];
}

/** Everything one render of the page shows. */
export interface DashboardModel {
  /** Which sandbox the page shows, and the others it can move to. */
  sandboxes: SandboxPickerView;
  /** Every client, for the picker. */
  clients: ClientRecord[];
  /** The client picked (`?client=`), when it exists. */
  picked: ClientRecord | undefined;
  /** A `?client=` that names no client: the page shows every client, and says so. */
  unknownClient: string | undefined;
  /** The clients the page shows (every one, or the one picked), each with its businesses. */
  shown: ClientView[];
  /** How many businesses those clients have. */
  businessCount: number;
  /** Whether the clients section starts folded (many clients, none picked). */
  clientsFolded: boolean;
  /** Whether the clients table carries its rows: folded, they are left out unless asked for (`?unfold=1`). */
  clientRows: boolean;
  clock: ClockView;
  scenario: ScenarioView;
  /** With `--upstream`, where the upstream's answers differed from the routes. */
  drift: DriftView;
  facts: RowFacts;
  /** The newest records of each list, newest first. */
  transactions: TransactionRecord[];
  batches: BulkTransferRecord[];
  deliveries: DeliveryRecord[];
  virtualAccounts: VirtualAccountRecord[];
  outbox: OutboxRecord[];
  disputes: DisputeRecord[];
  /** The journal's entries, newest first. */
  requests: RequestEntry[];
}

type Listed = 'bulkTransfers' | 'deliveries' | 'virtualAccounts' | 'outbox' | 'transactions' | 'disputes';

/** How a client's records of each listed collection are found: its own (by `clientId`) or its businesses'. */
const OWNER: Record<Listed, 'clientId' | 'businessId'> = {
  deliveries: 'clientId',
  outbox: 'clientId',
  bulkTransfers: 'businessId',
  virtualAccounts: 'businessId',
  transactions: 'businessId',
  disputes: 'businessId',
};

/** When a record was made: `createdAt`, or a dispute's `dateCreated` (the bank's name for it). */
type Dated = { createdAt: string } | { dateCreated: string };
const madeAt = (record: Dated) => ('createdAt' in record ? record.createdAt : record.dateCreated);

const byCreation = (a: Dated, b: Dated) => {
  const [x, y] = [madeAt(a), madeAt(b)];
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * The newest `n` records of a collection, newest first: of every client, or of one, through the store's indexes
 * (its own records, or those of each of its businesses, merged by time).
 */
function newest<K extends Listed>(
  store: Deps['store'],
  collection: K,
  n: number,
  client: ClientView | undefined,
): Collections[K][] {
  let records: Collections[K][];
  if (client === undefined) records = store.all(collection);
  else if (OWNER[collection] === 'clientId')
    records = store.where(collection, 'clientId' as never, client.client.id);
  else
    records = client.businesses
      .flatMap(({ business }) => store.where(collection, 'businessId' as never, business.id))
      .sort(byCreation);
  return records.slice(-n).reverse();
}

/** A client with its businesses and their ledger balances. */
export function clientView(store: Deps['store'], client: ClientRecord, ledger: LedgerOf): ClientView {
  const businesses = store
    .where('businesses', 'clientId', client.id)
    .map((business) => ({ business, ledger: ledger(business.id) }));
  return { client, businesses };
}

/**
 * The facts rows need: the businesses they name (`businessIds`) and the webhook headers of the clients whose
 * deliveries they show (`deliveryClients`), each read once however many rows name it.
 */
export function rowFacts(
  deps: Pick<Deps, 'store' | 'clock'>,
  businessIds: Iterable<string>,
  deliveryClients: Iterable<string>,
): RowFacts {
  const { store } = deps;
  const businesses = new Map<string, BusinessRecord>();
  for (const id of businessIds) {
    if (businesses.has(id)) continue;
    const business = store.get('businesses', id);
    if (business) businesses.set(id, business);
  }
  const webhookHeaders = new Map<string, ShownHeaders>();
  for (const id of deliveryClients)
    if (!webhookHeaders.has(id)) webhookHeaders.set(id, shownHeaders(store.get('clients', id)));
  // Built on the first row that asks: most pages show no row with anything due.
  let due: Map<string, ScheduledRecord> | undefined;
  const dueFor = (target: string) => {
    due ??= new Map(store.all('scheduled').map((job) => [job.target, job]));
    return due.get(target);
  };
  return { now: deps.clock.now(), businesses, webhookHeaders, dueFor };
}

/** What the clock panel shows that can change by a call: where it stands against real time, frozen or not. */
export function clockKey(deps: Pick<Deps, 'clock'>): string {
  const { offsetMs, frozenAt } = deps.clock.state();
  return `${offsetMs}:${frozenAt}`;
}

/** The clock panel's model. */
export const clockModel = (deps: Pick<Deps, 'clock'>): ClockView => deps.clock.describe();

/** What the scenario panel shows that can change: the active scenario and its number of overrides. */
export function scenarioKey(deps: Pick<Deps, 'scenarios'>): string {
  const { name, overrides } = deps.scenarios.describe();
  return `${name}:${overrides.length}`;
}

/** The scenario panel's model. */
export function scenarioModel(deps: Pick<Deps, 'scenarios'>): ScenarioView {
  const { name, description, overrides, rules } = deps.scenarios.describe();
  return {
    name,
    description,
    overrides: overrides.length,
    ready: deps.scenarios.library.list(),
    rules: rules.map((rule) => JSON.stringify(rule)),
  };
}

/** What a page render is asked for. */
export interface PageQuery {
  /** The journal's entries to show, newest first. */
  requests: RequestEntry[];
  /** The client picked (`?client=`): every section shows its records only. */
  clientId?: string;
  /**
   * Render the clients table even when it starts folded (`?unfold=1`). Folded, its rows are left out of the page
   * (a hundred clients are a quarter of it) and its script fetches them when the reader opens it.
   */
  unfold?: boolean;
  /** The drift report (empty without `--upstream`). */
  drift: DriftReport;
  sandboxes: SandboxPickerView;
}

/** The page's model: every list's newest rows, of every client or of the one picked, read once. */
export function readModel(
  deps: Deps,
  { requests, clientId, unfold = false, drift, sandboxes }: PageQuery,
): DashboardModel {
  const { store } = deps;
  const clients = store.all('clients');
  const picked = clientId === undefined ? undefined : store.get('clients', clientId);
  // Summed once a business for the page: its clients table row and its ledger filter option both show it.
  const totals = new LedgerTotals(store);
  const ledger = (businessId: string) => totals.of(businessId);
  const shown = (picked ? [picked] : clients).map((client) => clientView(store, client, ledger));
  const one = picked ? shown[0] : undefined;
  const clientsFolded = picked === undefined && clients.length > FOLD_CLIENTS_OVER;
  const lists = {
    transactions: newest(store, 'transactions', FIRST_ROWS.transactions, one),
    batches: newest(store, 'bulkTransfers', FIRST_ROWS.batches, one),
    deliveries: newest(store, 'deliveries', FIRST_ROWS.deliveries, one),
    virtualAccounts: newest(store, 'virtualAccounts', FIRST_ROWS.virtualAccounts, one),
    outbox: newest(store, 'outbox', FIRST_ROWS.outbox, one),
    disputes: newest(store, 'disputes', FIRST_ROWS.disputes, one),
  };
  const named = [lists.transactions, lists.batches, lists.virtualAccounts, lists.disputes].flatMap(
    (records) => records.map((r) => r.businessId),
  );
  return {
    sandboxes,
    clients,
    picked,
    unknownClient: clientId !== undefined && !picked ? clientId : undefined,
    shown,
    businessCount: one ? one.businesses.length : store.count('businesses'),
    clientsFolded,
    clientRows: !clientsFolded || unfold,
    clock: clockModel(deps),
    scenario: scenarioModel(deps),
    drift: drift.view(),
    facts: rowFacts(
      deps,
      named,
      lists.deliveries.map((d) => d.clientId),
    ),
    ...lists,
    requests: (picked ? requests.filter((r) => r.clientId === picked.id) : requests).slice(
      0,
      FIRST_ROWS.requests,
    ),
  };
}

/** A batch and its items in their order, as the rows under the batch's row show them. */
export interface ItemsView {
  batch: BulkTransferRecord;
  items: BulkItemRecord[];
}

/** The items of a batch; undefined when there is no such batch. */
export function readItems(store: Deps['store'], batchId: string): ItemsView | undefined {
  const batch = store.get('bulkTransfers', batchId);
  if (!batch) return undefined;
  const items = store.where('bulkItems', 'bulkTransferId', batchId);
  items.sort((x, y) => x.itemIndex - y.itemIndex);
  return { batch, items };
}

/** A journal entry by its `seq` (the control API's `id`), as the control API shows it; undefined once it has left. */
export function readRequest(journal: RequestJournal, seq: string): RequestEntryWithCurlView | undefined {
  const entry = /^\d{1,15}$/.test(seq) ? journal.get(Number(seq)) : undefined;
  return entry && entryWithCurl(entry);
}

/**
 * The first request with this `x-request-id` that the journal still holds and that could have made a record (a
 * POST): an app may send one id for a whole flow, its reads included, and a record's link means the one that
 * made it.
 */
export function readRequestById(
  journal: RequestJournal,
  requestId: string,
): RequestEntryWithCurlView | undefined {
  let first: RequestEntry | undefined;
  // Newest first: the last one found is the first made.
  for (const entry of journal.entries())
    if (entry.requestId === requestId && entry.method === 'POST') first = entry;
  return first && entryWithCurl(first);
}

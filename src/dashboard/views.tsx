import type { Deps } from '../deps.js';
import type { RequestEntry } from '../http/request-log.js';
import type {
  BulkTransferRecord,
  BusinessRecord,
  ClientRecord,
  DeliveryRecord,
  VirtualAccountRecord,
} from '../store/records.js';

// The dashboard's HTML, as Hono JSX components. The page renders them once; the live stream renders the same
// components again for each record that changed and the page swaps them in by id, so a row has one template.

const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });

/** Kobo as naira: 150000 → ₦1,500.00. */
export const formatNaira = (kobo: number) => naira.format(kobo / 100);

/** The time of day of an ISO timestamp, to the millisecond. */
const timeOf = (iso: string) => iso.slice(11, 23);

/** How many rows each list renders at first; the page keeps about as many as new ones arrive. */
export const FIRST_ROWS = { batches: 100, deliveries: 100, requests: 200 } as const;

export const ids = {
  client: (id: string) => `client-${id}`,
  batch: (id: string) => `batch-${id}`,
  delivery: (id: string) => `delivery-${id}`,
  virtualAccount: (id: string) => `va-${id}`,
} as const;

function BusinessRow({ business: b }: { business: BusinessRecord }) {
  return (
    <tr data-business={b.id}>
      <td>
        {b.businessName}
        <div class="muted">{b.id}</div>
      </td>
      <td>{b.account?.accountNumber ?? '—'}</td>
      <td class="num balance">{formatNaira(b.balance)}</td>
      <td>
        {b.isApproved ? <span class="badge ok">approved</span> : <span class="badge">not approved</span>}
      </td>
      <td class="actions">
        {b.isApproved ? null : (
          <button type="button" data-call={`POST /__sandbox/businesses/${b.id}/approve`}>
            Approve
          </button>
        )}
        <form class="inline" data-call={`PUT /__sandbox/businesses/${b.id}/balance`}>
          <input
            name="balance"
            type="number"
            min="0"
            step="0.01"
            data-kobo
            placeholder="₦ balance"
            aria-label={`New balance of ${b.businessName} in naira`}
            required
          />
          <button type="submit">Set balance</button>
        </form>
      </td>
    </tr>
  );
}

export function ClientBlock({ deps, client }: { deps: Deps; client: ClientRecord }) {
  const businesses = deps.store.where('businesses', 'clientId', client.id);
  return (
    <section class="client" id={ids.client(client.id)}>
      <h3>
        {client.name} <span class="muted">{client.email}</span>
      </h3>
      <table>
        <thead>
          <tr>
            <th>Business</th>
            <th>Account</th>
            <th class="num">Balance</th>
            <th>State</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {businesses.map((b) => (
            <BusinessRow business={b} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Completed, failed and pending items of the total, as a bar and in words. */
function Progress({ batch: b }: { batch: BulkTransferRecord }) {
  const share = (n: number) => (b.totalItems === 0 ? 0 : (n / b.totalItems) * 100);
  const done = b.completedItems + b.failedItems;
  const pending = b.totalItems - done;
  return (
    <div>
      <div
        class="progress"
        role="progressbar"
        aria-label={`Progress of ${b.batchName}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(share(done))}
      >
        <span class="completed" style={`width:${share(b.completedItems).toFixed(2)}%`} />
        <span class="failed" style={`width:${share(b.failedItems).toFixed(2)}%`} />
      </div>
      <div class="muted">
        {b.completedItems} completed · {b.failedItems} failed · {pending} pending of {b.totalItems}
      </div>
    </div>
  );
}

export function BatchRow({ deps, batch: b }: { deps: Deps; batch: BulkTransferRecord }) {
  const business = deps.store.get('businesses', b.businessId);
  const canReprocess = b.failedItems > 0 && b.status !== 'processing' && b.status !== 'completed';
  return (
    <tr id={ids.batch(b.id)} data-status={b.status}>
      <td>
        {b.batchName}
        <div class="muted">{b.id}</div>
      </td>
      <td>{business?.businessName ?? b.businessId}</td>
      <td class="wide">
        <Progress batch={b} />
      </td>
      <td>
        <span class={`badge ${b.status}`}>{b.status}</span>
        {b.failureReason ? <div class="error">{b.failureReason}</div> : null}
      </td>
      <td>{timeOf(b.createdAt)}</td>
      <td class="actions">
        <button type="button" data-items={b.id}>
          Items
        </button>
        {canReprocess ? (
          <button type="button" data-call={`POST /__sandbox/bulk-transfers/${b.id}/reprocess`}>
            Reprocess failed
          </button>
        ) : null}
      </td>
    </tr>
  );
}

export function DeliveryRow({ delivery: d }: { delivery: DeliveryRecord }) {
  return (
    <tr id={ids.delivery(d.id)} data-status={d.status}>
      <td>{timeOf(d.createdAt)}</td>
      <td>
        {d.payload.recipientAccountNumber} {d.payload.recpientAccountName}
        <div class="muted">
          from {d.payload.accountName} · {d.transactionReference}
        </div>
      </td>
      <td class="num">{formatNaira(d.payload.amount)}</td>
      <td>
        <span class={`badge ${d.status}`}>{d.status}</span>
      </td>
      <td>
        <ol class="timeline">
          {d.attempts.map((a) => (
            <li class={a.statusCode === 200 ? 'ok' : 'bad'} title={a.error ?? ''}>
              {timeOf(a.at)} · {a.statusCode ?? 'no answer'} · {a.durationMs} ms
              {a.error ? <span class="error"> {a.error}</span> : null}
            </li>
          ))}
        </ol>
        {d.url ? <div class="muted">{d.url}</div> : <div class="muted">no webhook URL set</div>}
      </td>
      <td class="actions">
        <button type="button" data-call={`POST /__sandbox/webhooks/deliveries/${d.id}/redeliver`}>
          Redeliver
        </button>
      </td>
    </tr>
  );
}

export function RequestRow({ entry: r }: { entry: RequestEntry }) {
  return (
    <tr data-path={r.path} data-code={String(r.status)} class={r.status >= 400 ? 'bad' : undefined}>
      <td>{timeOf(r.time)}</td>
      <td>{r.method}</td>
      <td class="path">{r.path}</td>
      <td>{r.status}</td>
      <td class="num">{r.durationMs} ms</td>
      <td class="muted">{r.requestId}</td>
    </tr>
  );
}

export function VirtualAccountOption({ account: v }: { account: VirtualAccountRecord }) {
  return (
    <option id={ids.virtualAccount(v.id)} value={v.accountNumber}>
      {v.accountName} ({v.type})
    </option>
  );
}

export function ScenarioPanel({ deps }: { deps: Deps }) {
  const active = deps.scenarios.describe();
  return (
    <div id="scenario-panel">
      <p>
        Active: <strong data-scenario={active.name}>{active.name}</strong>
        {active.overrides.length > 0 ? ` (+${active.overrides.length} override rules)` : ''}
        <span class="muted"> — {active.description}</span>
      </p>
      <form class="inline" data-call="PUT /__sandbox/scenario">
        <select name="name" aria-label="Ready scenario">
          {deps.scenarios.library.list().map((s) => (
            <option value={s.name} title={s.description} selected={s.name === active.name}>
              {s.name}
            </option>
          ))}
        </select>
        <button type="submit">Use scenario</button>
      </form>
      <button
        type="button"
        data-call="POST /__sandbox/reset"
        data-confirm="Reset the whole state to the fixtures?"
      >
        Reset sandbox
      </button>
    </div>
  );
}

function Section({ title, children }: { title: string; children: unknown }) {
  return (
    <section class="panel">
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** The whole page, with the newest rows of each list. */
export function Page({ deps, requests }: { deps: Deps; requests: RequestEntry[] }) {
  const newest = <T,>(items: T[], n: number) => items.slice(-n).reverse();
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Banking sandbox: dashboard</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/__sandbox/ui/assets/style.css" />
      </head>
      <body>
        <header>
          <h1>Banking sandbox</h1>
          <span id="live" class="badge">
            connecting…
          </span>
          <output id="toast" />
        </header>
        <main>
          <Section title="Scenario">
            <ScenarioPanel deps={deps} />
          </Section>
          <Section title="Clients and businesses">
            <div id="clients">
              {deps.store.all('clients').map((client) => (
                <ClientBlock deps={deps} client={client} />
              ))}
            </div>
          </Section>
          <Section title="Incoming payment">
            <form id="payment-form" class="inline" data-call="POST /__sandbox/incoming-payments">
              <input
                name="accountNumber"
                list="va-list"
                pattern="\d{10}"
                placeholder="virtual account number"
                aria-label="Virtual account number"
                required
              />
              <datalist id="va-list">
                {deps.store
                  .all('virtualAccounts')
                  .reverse()
                  .map((v) => (
                    <VirtualAccountOption account={v} />
                  ))}
              </datalist>
              <input
                name="amount"
                type="number"
                min="0.01"
                step="0.01"
                data-kobo
                placeholder="₦ amount"
                aria-label="Amount in naira"
                required
              />
              <input name="accountName" placeholder="payer name (optional)" aria-label="Payer name" />
              <input name="narration" placeholder="narration (optional)" aria-label="Narration" />
              <button type="submit">Send payment</button>
            </form>
          </Section>
          <Section title="Bulk transfers">
            <table>
              <thead>
                <tr>
                  <th>Batch</th>
                  <th>Business</th>
                  <th>Progress</th>
                  <th>Status</th>
                  <th>Created</th>
                  <th />
                </tr>
              </thead>
              <tbody id="batches" data-keep={FIRST_ROWS.batches * 2}>
                {newest(deps.store.all('bulkTransfers'), FIRST_ROWS.batches).map((b) => (
                  <BatchRow deps={deps} batch={b} />
                ))}
              </tbody>
            </table>
          </Section>
          <Section title="Webhook deliveries">
            <table>
              <thead>
                <tr>
                  <th>Created</th>
                  <th>To account</th>
                  <th class="num">Amount</th>
                  <th>Status</th>
                  <th>Attempts</th>
                  <th />
                </tr>
              </thead>
              <tbody id="deliveries" data-keep={FIRST_ROWS.deliveries * 2}>
                {newest(deps.store.all('deliveries'), FIRST_ROWS.deliveries).map((d) => (
                  <DeliveryRow delivery={d} />
                ))}
              </tbody>
            </table>
          </Section>
          <Section title="Requests">
            <div class="inline">
              <input id="filter-path" placeholder="path contains" aria-label="Filter by path" />
              <input id="filter-status" placeholder="status, e.g. 4xx or 201" aria-label="Filter by status" />
              <label>
                <input id="hide-sandbox" type="checkbox" checked /> hide /__sandbox
              </label>
            </div>
            <table>
              <thead>
                <tr>
                  <th>Time</th>
                  <th>Method</th>
                  <th>Path</th>
                  <th>Status</th>
                  <th class="num">Duration</th>
                  <th>Request id</th>
                </tr>
              </thead>
              <tbody id="requests" data-keep="1000">
                {requests.slice(0, FIRST_ROWS.requests).map((r) => (
                  <RequestRow entry={r} />
                ))}
              </tbody>
            </table>
          </Section>
        </main>
        <script src="/__sandbox/ui/assets/app.js" />
      </body>
    </html>
  );
}

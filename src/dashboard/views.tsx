import { sandboxPath } from '../contract/mounts.js';
import { type DashboardModel, FIRST_ROWS } from './model.js';
import { ClockPanel, DriftPanel, dashboardOf, SandboxPicker, ScenarioPanel } from './panels.js';
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

// The dashboard's page, as Hono JSX, rendered from one model of the state (`model.ts`). Every section is one list
// the live feed keeps current (`live.ts`), under a heading the side navigation links to, with what to do next when
// the list is empty.

interface SectionProps {
  id: string;
  title: string;
  /** One line beside the heading: counts, what the section is for. */
  note?: string;
  open?: boolean;
  children: unknown;
}

/** A section of the page: a heading that folds it, and its body. */
function Section({ id, title, note, open = true, children }: SectionProps) {
  return (
    <section class="panel" id={id}>
      <details open={open} data-fold={id}>
        <summary>
          <h2>{title}</h2>
          {note ? <span class="muted note">{note}</span> : null}
        </summary>
        <div class="body">{children}</div>
      </details>
    </section>
  );
}

interface ListProps {
  /** The `<tbody>`'s id: where the live feed puts new rows. */
  id: string;
  /** How many rows the page keeps as new ones arrive. */
  keep: number;
  head: string[];
  /** What the section holds when it is empty, and how to fill it. */
  empty: string;
  children: unknown;
}

/** A table that the live feed keeps current, and the words shown instead when it has no row to show. */
function List({ id, keep, head, empty, children }: ListProps) {
  return (
    <div class="list">
      <table>
        <thead>
          <tr>
            {head.map((h) => (
              <th class={h.startsWith('#') ? 'num' : undefined}>{h.replace(/^#/, '')}</th>
            ))}
          </tr>
        </thead>
        <tbody id={id} data-keep={String(keep)}>
          {children}
        </tbody>
      </table>
      <p class="empty">{empty}</p>
    </div>
  );
}

/** The sections, in the order of the page, for the navigation. */
const SECTIONS: [id: string, title: string][] = [
  ['sec-clock', 'Clock and scenario'],
  ['sec-clients', 'Clients and businesses'],
  ['sec-ledger', 'Transfers and ledger'],
  ['sec-batches', 'Bulk transfers'],
  ['sec-deliveries', 'Webhook deliveries'],
  ['sec-accounts', 'Virtual accounts'],
  ['sec-outbox', 'Outbox'],
  ['sec-disputes', 'Disputes'],
  ['sec-requests', 'Requests'],
  ['sec-drift', 'Drift'],
];

const API = '/api/v1';
const FUNDS = `${API}/clients/business/customers/funds`;

/** The whole page, with the newest rows of each list, of every client or of the one picked. */
export function Page({ model }: { model: DashboardModel }) {
  const { clients, picked, shown, businessCount, facts } = model;
  // The page's calls, feed and assets are its sandbox's (an isolated one's cookie is for its paths only).
  const base = model.sandboxes.current === null ? '' : sandboxPath(model.sandboxes.current);
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Banking sandbox: dashboard</title>
        <link rel="icon" href="data:," />
        <meta name="sandbox-base" content={base} />
        <link rel="stylesheet" href={`${base}/__sandbox/ui/assets/style.css`} />
      </head>
      <body data-client={picked?.id ?? ''}>
        <header>
          <h1>Banking sandbox</h1>
          <span id="live" class="badge">
            connecting…
          </span>
          <SandboxPicker picker={model.sandboxes} />
          <form id="client-form" method="get" action={dashboardOf(model.sandboxes.current)} class="inline">
            <label for="client-picker">Client</label>
            <select id="client-picker" name="client" aria-label="Show one client">
              <option value="">All clients ({String(clients.length)})</option>
              {clients.map((c) => (
                <ClientOption client={c} selected={c.id === picked?.id} />
              ))}
            </select>
            <noscript>
              <button type="submit">Show</button>
            </noscript>
          </form>
          {model.unknownClient !== undefined ? (
            <span class="error">No client {model.unknownClient}: showing all.</span>
          ) : null}
        </header>
        <div class="layout">
          <nav class="sections" aria-label="Sections">
            {SECTIONS.map(([id, title]) => (
              <a href={`#${id}`}>{title}</a>
            ))}
            <a href="/docs" class="muted">
              API reference
            </a>
          </nav>
          <main>
            <Section id="sec-clock" title="Clock and scenario">
              <div class="two">
                <div>
                  <h3>Clock</h3>
                  <ClockPanel clock={model.clock} />
                </div>
                <div>
                  <h3>Scenario</h3>
                  <ScenarioPanel scenario={model.scenario} />
                </div>
              </div>
            </Section>
            <Section
              id="sec-clients"
              title="Clients and businesses"
              note={`${shown.length} ${shown.length === 1 ? 'client' : 'clients'} · ${businessCount} ${businessCount === 1 ? 'business' : 'businesses'}`}
              open={!model.clientsFolded}
            >
              <div class="list">
                <table id="clients" data-lazy={model.clientRows ? undefined : ''}>
                  <thead>
                    <tr>
                      <th>Client</th>
                      <th>Business</th>
                      <th>Account</th>
                      <th class="num">Available</th>
                      <th class="num">Ledger</th>
                      <th>State</th>
                      <th />
                    </tr>
                  </thead>
                  {model.clientRows ? shown.map((view) => <ClientRows view={view} />) : null}
                </table>
                <p class="empty">
                  No clients. Add one with POST /__sandbox/clients, or reset the sandbox to its fixtures.
                </p>
              </div>
            </Section>
            <Section id="sec-ledger" title="Transfers and ledger" note="every entry, newest first">
              <div class="inline filters">
                <select id="business-filter" aria-label="Show one business">
                  <option value="">All businesses</option>
                  {shown.flatMap(({ client, businesses }) =>
                    businesses.map(({ business, ledger }) => (
                      <BusinessOption business={business} client={client} ledger={ledger} />
                    )),
                  )}
                </select>
                <label>
                  <input id="ledger-failed" type="checkbox" /> failed only
                </label>
                <output id="ledger-summary" class="muted" />
              </div>
              <List
                id="transactions"
                keep={FIRST_ROWS.transactions * 2}
                head={[
                  'Time',
                  'Business',
                  'Kind',
                  '#Amount',
                  'Status',
                  'Counterparty',
                  'References',
                  '#Balance after',
                  '',
                ]}
                empty={`No transfers yet. Your app sends one with POST ${FUNDS}/transfer; a balance set above or an incoming payment below is an entry too.`}
              >
                {model.transactions.map((t) => (
                  <TransactionRow transaction={t} facts={facts} />
                ))}
              </List>
            </Section>
            <Section id="sec-batches" title="Bulk transfers">
              <List
                id="batches"
                keep={FIRST_ROWS.batches * 2}
                head={['Batch', 'Business', 'Progress', 'Status', 'Created', '']}
                empty={`No bulk transfers yet. Your app creates one with POST ${FUNDS}/bulk-transfer and starts it with POST ${FUNDS}/bulk-transfer/process.`}
              >
                {model.batches.map((b) => (
                  <BatchRow batch={b} facts={facts} />
                ))}
              </List>
            </Section>
            <Section id="sec-deliveries" title="Webhook deliveries">
              <List
                id="deliveries"
                keep={FIRST_ROWS.deliveries * 2}
                head={['Created', 'To account', '#Amount', 'Status', 'Attempts', '']}
                empty="No webhook deliveries yet. Send an incoming payment to a virtual account (below); the client's webhook URL is set with PATCH /api/v1/clients/settings/update-webhook-url."
              >
                {model.deliveries.map((d) => (
                  <DeliveryRow delivery={d} facts={facts} />
                ))}
              </List>
            </Section>
            <Section id="sec-accounts" title="Virtual accounts" note="and incoming payments">
              <form id="payment-form" class="inline" data-call="POST /__sandbox/incoming-payments">
                <input
                  name="accountNumber"
                  list="va-list"
                  pattern="\d{10}"
                  placeholder="virtual account number"
                  aria-label="Virtual account number"
                  required
                />
                <datalist id="va-list" data-keep={String(FIRST_ROWS.virtualAccounts * 2)}>
                  {model.virtualAccounts.map((v) => (
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
              <List
                id="virtual-accounts"
                keep={FIRST_ROWS.virtualAccounts * 2}
                head={['Account', 'Name', 'Type', 'Business', 'Expires', 'References', '']}
                empty="No virtual accounts yet. Your app creates one with POST /api/v1/clients/business/virtual-accounts; a client made with POST /__sandbox/clients comes with one."
              >
                {model.virtualAccounts.map((v) => (
                  <VirtualAccountRow account={v} facts={facts} />
                ))}
              </List>
            </Section>
            <Section
              id="sec-outbox"
              title="Outbox"
              note="OTPs and invitation tokens the bank would have sent"
            >
              <List
                id="outbox"
                keep={FIRST_ROWS.outbox * 2}
                head={['Sent', 'Kind', 'To', 'Subject', 'Code', '']}
                empty="Nothing sent yet. A BVN OTP appears when your app validates a BVN, an invitation token when it invites a member."
              >
                {model.outbox.map((m) => (
                  <MessageRow message={m} />
                ))}
              </List>
            </Section>
            <Section id="sec-disputes" title="Disputes">
              <List
                id="disputes"
                keep={FIRST_ROWS.disputes * 2}
                head={['Opened', 'Business', 'Transaction', 'Description', 'Status', '']}
                empty="No disputes. Your app opens one with POST /api/v1/clients/business/disputes on a transaction; resolve or reject it here."
              >
                {model.disputes.map((d) => (
                  <DisputeRow dispute={d} facts={facts} />
                ))}
              </List>
            </Section>
            <Section id="sec-requests" title="Requests" note="open a row to see what it carried">
              <div class="inline filters">
                <input id="filter-path" placeholder="path contains" aria-label="Filter by path" />
                <input
                  id="filter-status"
                  placeholder="status, e.g. 4xx or 201"
                  aria-label="Filter by status"
                />
                <label>
                  <input id="hide-sandbox" type="checkbox" checked /> hide /__sandbox
                </label>
              </div>
              <List
                id="requests"
                keep={1000}
                head={['Time', 'Method', 'Path', 'Status', '#Duration', 'Request id']}
                empty="No requests to show. Point your app at this sandbox's /api/v1 and its calls appear here, newest first."
              >
                {model.requests.map((r) => (
                  <RequestRow entry={r} />
                ))}
              </List>
            </Section>
            <Section
              id="sec-drift"
              title="Drift"
              note="with --upstream: where the real bank answered other than the routes say"
              open={model.drift.upstream !== null}
            >
              <DriftPanel drift={model.drift} />
            </Section>
          </main>
        </div>
        <dialog id="request-detail" aria-labelledby="request-title">
          <div class="dialog-head">
            <h2 id="request-title">Request</h2>
            <button type="button" data-close>
              Close
            </button>
          </div>
          <div id="request-body" />
        </dialog>
        <script src={`${base}/__sandbox/ui/assets/app.js`} />
      </body>
    </html>
  );
}

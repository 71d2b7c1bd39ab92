import { accountState } from '../bank/virtual-accounts/service.js';
import type {
  BulkTransferRecord,
  BusinessRecord,
  ClientRecord,
  DeliveryRecord,
  DisputeRecord,
  OutboxRecord,
  TransactionRecord,
  VirtualAccountRecord,
} from '../domain/records.js';
import type { RequestEntry } from '../http/request-log.js';
import { formatNaira, timeOf } from './format.js';
import type { ClientView, RowFacts } from './model.js';
import { Badge, businessName, clientOf, ids, Pairs, Relative, RequestLink } from './row-parts.js';

// One component per row of the dashboard's lists. The page renders them once; the live feed renders the same
// components again for each record that changed and the page swaps them in by id, so a row has one template.
// Every row carries `data-client`, which the page's client picker filters on. A row renders from its record and
// the facts read with it (`model.ts`): it never reaches into the store.

// ------------------------------------------------------------------ clients and businesses

function BusinessCells({ business: b, ledger }: { business: BusinessRecord; ledger: number }) {
  return (
    <>
      <td class="business-name">
        {b.businessName}
        <div class="muted">{b.id}</div>
      </td>
      <td>{b.account?.accountNumber ?? '—'}</td>
      <td class="num balance">{formatNaira(b.balance)}</td>
      <td class="num ledger">{formatNaira(ledger)}</td>
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
          {/* Kobo, as PUT /__sandbox/businesses/{id}/balance takes it; the naira it makes shows beside it. */}
          <input
            name="balance"
            type="number"
            min="0"
            step="1"
            inputmode="numeric"
            data-naira
            placeholder="kobo"
            aria-label={`New balance of ${b.businessName} in kobo`}
            required
          />
          <output class="naira muted" aria-label={`New balance of ${b.businessName} in naira`} />
          <button type="submit">Set balance</button>
        </form>
      </td>
    </>
  );
}

/**
 * A client and its businesses: one `<tbody>` of the one clients table, so that every balance lines up in its
 * column. The client's cell spans its businesses' rows.
 */
export function ClientRows({ view: { client, businesses } }: { view: ClientView }) {
  const span = Math.max(1, businesses.length);
  const clientCell = (
    <td rowspan={span} class="client-cell" title={`client id ${client.id}`}>
      <strong>{client.name}</strong>
      <div class="muted">{client.email}</div>
    </td>
  );
  return (
    <tbody id={ids.client(client.id)} data-client={client.id} class="client">
      {businesses.length === 0 ? (
        <tr data-client={client.id}>
          {clientCell}
          <td colspan={6} class="muted">
            No business yet: the app registers one with POST /api/v1/clients/business.
          </td>
        </tr>
      ) : (
        businesses.map(({ business: b, ledger }, i) => (
          <tr data-business={b.id} data-client={client.id}>
            {i === 0 ? clientCell : null}
            <BusinessCells business={b} ledger={ledger} />
          </tr>
        ))
      )}
    </tbody>
  );
}

/** A client in the picker. */
export const ClientOption = ({ client, selected }: { client: ClientRecord; selected?: boolean }) => (
  <option id={ids.clientOption(client.id)} value={client.id} selected={selected}>
    {client.name} ({client.email})
  </option>
);

/**
 * A business in the ledger's business filter, with its balances for the line beside the filter (the clients table
 * may not be on the page: folded, it comes without rows).
 */
export const BusinessOption = ({
  business,
  client,
  ledger,
}: {
  business: BusinessRecord;
  client: ClientRecord;
  /** Kobo: the opening balance plus every ledger entry. */
  ledger: number;
}) => (
  <option
    id={ids.businessOption(business.id)}
    value={business.id}
    data-client={client.id}
    data-balances={`${business.businessName}: available ${formatNaira(business.balance)}, ledger ${formatNaira(ledger)}`}
  >
    {business.businessName} ({client.name})
  </option>
);

// ------------------------------------------------------------------ transfers and the ledger

export function TransactionRow({
  transaction: t,
  facts,
}: {
  transaction: TransactionRecord;
  facts: RowFacts;
}) {
  const signed = t.direction === 'debit' ? `−${formatNaira(t.amount)}` : `+${formatNaira(t.amount)}`;
  const failed = t.status === 'failed';
  const due = facts.dueFor(t.id);
  return (
    <tr
      id={ids.transaction(t.id)}
      data-client={clientOf(facts, t.businessId)}
      data-business={t.businessId}
      data-status={t.status}
    >
      <td>{timeOf(t.createdAt)}</td>
      <td>{businessName(facts, t.businessId)}</td>
      <td>
        {t.kind.replaceAll('_', ' ')}
        <div class="muted">{t.direction}</div>
      </td>
      <td class={`num ${t.direction}`}>
        {signed}
        {t.charge > 0 ? <div class="muted">fee {formatNaira(t.charge)}</div> : null}
      </td>
      <td>
        <Badge status={t.status} />
        {failed ? (
          <div class="error">
            {t.errorCode} {t.errorMessage}
          </div>
        ) : null}
        {t.reversedAt ? (
          <div class="error">
            reversed {timeOf(t.reversedAt)}: {t.reversalReason}
          </div>
        ) : null}
        {t.refundStatus ? <div class="muted">refund {t.refundStatus}</div> : null}
        {due ? (
          <div class="muted">
            {due.kind} due <Relative at={due.dueAt} now={facts.now} />
          </div>
        ) : null}
      </td>
      <td>
        {t.counterparty ? (
          <>
            {t.counterparty.accountNumber}
            <div class="muted">
              {t.counterparty.accountName ? `${t.counterparty.accountName}, ` : ''}bank{' '}
              {t.counterparty.bankCode}
            </div>
          </>
        ) : (
          '—'
        )}
      </td>
      <td class="refs">
        <div>{t.id}</div>
        {t.retrievalReference ? <div class="muted">retrieval {t.retrievalReference}</div> : null}
        {t.providerReference ? <div class="muted">provider {t.providerReference}</div> : null}
        {t.narration ? <div class="muted">“{t.narration}”</div> : null}
        {t.reverses ? <div class="muted">reverses {t.reverses.transactionReference}</div> : null}
        {t.refunds ? <div class="muted">refunds {t.refunds}</div> : null}
      </td>
      <td class="num">{failed ? <span class="muted">unchanged</span> : formatNaira(t.balanceAfter)}</td>
      <td class="actions">
        <RequestLink requestId={t.requestId} />
      </td>
    </tr>
  );
}

// ------------------------------------------------------------------ bulk transfers

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

export function BatchRow({ batch: b, facts }: { batch: BulkTransferRecord; facts: RowFacts }) {
  const canReprocess = b.failedItems > 0 && b.status !== 'processing' && b.status !== 'completed';
  return (
    <tr
      id={ids.batch(b.id)}
      data-client={b.clientId}
      data-status={b.status}
      data-request-id={b.requestId ?? undefined}
    >
      <td>
        {b.batchName}
        <div class="muted">{b.id}</div>
      </td>
      <td>{businessName(facts, b.businessId)}</td>
      <td class="wide">
        <Progress batch={b} />
      </td>
      <td>
        <Badge status={b.status} />
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
        <RequestLink requestId={b.requestId} />
      </td>
    </tr>
  );
}

// ------------------------------------------------------------------ webhook deliveries

export function DeliveryRow({ delivery: d, facts }: { delivery: DeliveryRecord; facts: RowFacts }) {
  const headers = facts.webhookHeaders.get(d.clientId) ?? {};
  const late = facts.dueFor(d.id);
  return (
    <tr id={ids.delivery(d.id)} data-client={d.clientId} data-status={d.status}>
      <td>{timeOf(d.createdAt)}</td>
      <td>
        {d.payload.recipientAccountNumber} {d.payload.recpientAccountName}
        <div class="muted">
          from {d.payload.accountName} · {d.transactionReference}
        </div>
      </td>
      <td class="num">{formatNaira(d.payload.amount)}</td>
      <td>
        <Badge status={d.status} />
        {d.status === 'pending' && d.nextAttemptAt !== null ? (
          <div class="muted">
            next attempt <Relative at={d.nextAttemptAt} now={facts.now} />, {d.attemptsLeft} left
          </div>
        ) : (
          <div class="muted">{d.attemptsLeft} attempts left</div>
        )}
        {d.duplicateOf ? <div class="muted">late duplicate of {d.duplicateOf}</div> : null}
        {late ? (
          <div class="muted">
            sent again <Relative at={late.dueAt} now={facts.now} />
          </div>
        ) : null}
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
        <details id={`delivery-detail-${d.id}`} class="detail">
          <summary>Payload and headers</summary>
          <Pairs pairs={Object.entries(headers)} />
          <pre>{JSON.stringify(d.payload, null, 2)}</pre>
        </details>
      </td>
      <td class="actions">
        <button type="button" data-call={`POST /__sandbox/webhooks/deliveries/${d.id}/redeliver`}>
          Redeliver
        </button>
      </td>
    </tr>
  );
}

// ------------------------------------------------------------------ virtual accounts

export const VirtualAccountOption = ({ account: v }: { account: VirtualAccountRecord }) => (
  <option id={ids.virtualAccount(v.id)} value={v.accountNumber} data-client={v.clientId}>
    {v.accountName} ({v.type === 'single_use' ? `single-use, ${formatNaira(v.reservedAmount ?? 0)}` : v.type})
  </option>
);

export function VirtualAccountRow({ account: v, facts }: { account: VirtualAccountRecord; facts: RowFacts }) {
  return (
    <tr id={ids.virtualAccountRow(v.id)} data-client={v.clientId} data-business={v.businessId}>
      <td class="mono">{v.accountNumber}</td>
      <td>
        {v.accountName}
        <div class="muted">
          {v.firstName} {v.lastName}
        </div>
      </td>
      <td>
        {v.type === 'single_use' ? 'single-use' : v.type}
        {v.reservedAmount === null ? null : (
          <div class="muted">takes {formatNaira(v.reservedAmount)} once</div>
        )}
      </td>
      <td>{businessName(facts, v.businessId)}</td>
      <td>
        {accountState(v, facts.now) === 'used' ? (
          <span class="used" title={`Paid by ${v.usedBy}`}>
            <Badge status="used" />
          </span>
        ) : v.expiresAt === null ? (
          <span class="muted">never</span>
        ) : (
          <span class="expiry" data-expires={v.expiresAt}>
            <Relative at={v.expiresAt} now={facts.now} />
          </span>
        )}
      </td>
      <td class="refs">
        <div>{v.clientRef}</div>
        <div class="muted">{v.systemRef}</div>
      </td>
      <td class="actions">
        <button type="button" data-pay={v.accountNumber}>
          Pay into it
        </button>
      </td>
    </tr>
  );
}

// ------------------------------------------------------------------ outbox

/** What a message carries that a tester copies: the OTP or the invitation token. */
export function codeOf(message: OutboxRecord): { label: string; value: string } | null {
  const { otp, authorizationToken } = message.data;
  if (otp) return { label: 'OTP', value: otp };
  if (authorizationToken) return { label: 'invitation token', value: authorizationToken };
  return null;
}

export function MessageRow({ message: m }: { message: OutboxRecord }) {
  const code = codeOf(m);
  return (
    <tr id={ids.message(m.id)} data-client={m.clientId}>
      <td>{timeOf(m.createdAt)}</td>
      <td>{m.type === 'bvn_otp' ? 'BVN OTP' : 'member invitation'}</td>
      <td>{m.to}</td>
      <td>
        {m.subject}
        <details class="detail" id={`msg-detail-${m.id}`}>
          <summary>Message</summary>
          <pre>{m.body}</pre>
        </details>
      </td>
      <td>
        {code ? (
          <>
            <code class="secret">{code.value}</code>
            <div class="muted">{code.label}</div>
          </>
        ) : (
          '—'
        )}
      </td>
      <td class="actions">
        {code ? (
          <button type="button" data-copy={code.value} aria-label={`Copy the ${code.label} sent to ${m.to}`}>
            Copy
          </button>
        ) : null}
      </td>
    </tr>
  );
}

// ------------------------------------------------------------------ disputes

export function DisputeRow({ dispute: d, facts }: { dispute: DisputeRecord; facts: RowFacts }) {
  return (
    <tr id={ids.dispute(d.id)} data-client={clientOf(facts, d.businessId)} data-status={d.status}>
      <td>{timeOf(d.dateCreated)}</td>
      <td>{businessName(facts, d.businessId)}</td>
      <td class="refs">{d.transactionId}</td>
      <td>{d.description}</td>
      <td>
        <Badge status={d.status} />
        {d.resolvedAt ? <div class="muted">{timeOf(d.resolvedAt)}</div> : null}
      </td>
      <td class="actions">
        {d.status === 'open' ? (
          <>
            <button type="button" data-call={`POST /__sandbox/disputes/${d.id}/resolve`}>
              Resolve
            </button>
            <button type="button" data-call={`POST /__sandbox/disputes/${d.id}/reject`}>
              Reject
            </button>
          </>
        ) : null}
      </td>
    </tr>
  );
}

// ------------------------------------------------------------------ the request journal

export function RequestRow({ entry: r }: { entry: RequestEntry }) {
  const warned = r.warnings.length > 0;
  return (
    <tr
      data-seq={String(r.seq)}
      data-path={r.path}
      data-code={String(r.status)}
      data-client={r.clientId ?? ''}
      class={r.status >= 400 ? 'bad' : undefined}
      tabindex={0}
    >
      <td>{timeOf(r.time)}</td>
      <td>{r.method}</td>
      <td class="path">
        {r.path}
        {r.scenario ? <span class="badge busy"> scenario {r.scenario.name}</span> : null}
        {warned ? <span class="badge warn"> warning</span> : null}
      </td>
      <td>{r.status}</td>
      <td class="num">{r.durationMs} ms</td>
      <td class="muted">{r.requestId}</td>
    </tr>
  );
}

import { html } from 'hono/html';
import type { RequestEntryWithCurlView } from '../contract/control/requests.js';
import type { BulkItemRecord, BulkTransferRecord } from '../domain/records.js';
import { isSecretHeader } from '../domain/redact.js';
import { formatNaira } from './format.js';
import { ids, Pairs, RequestLink } from './row-parts.js';

// What the page fetches when the reader asks for it (`GET /__sandbox/ui/fragments/…`, `app.tsx`): a batch's
// items, a request's detail. Rendered here once, as the rows are; the page's script only swaps the elements in by
// their ids, as it does the live feed's rows.

/**
 * One item of a batch: its receiver, amount and outcome; a failed one can be sent again and leads to its request.
 * Numbered by its `itemIndex`, from 0, as the API's answers and the scenarios' `itemIndex` matches number it, so a
 * number read here is the one to look for there.
 * An `html` template rather than JSX, alone on the page: a batch holds up to 10 000 items, fetched again while it
 * runs, and JSX's element tree took several times as long to render them as the control API takes to answer them
 * as JSON, holding the event loop as long each time.
 */
function itemRow(batch: BulkTransferRecord, item: BulkItemRecord) {
  const failed = item.status === 'failed';
  const reprocess =
    failed && batch.status !== 'processing'
      ? html`<button type="button" data-call="POST /__sandbox/bulk-transfers/${batch.id}/reprocess" data-body="${JSON.stringify({ itemId: item.id })}">Reprocess</button>`
      : '';
  const request = failed
    ? RequestLink({ requestId: batch.requestId, title: 'The request that made this batch' })
    : '';
  return html`<tr data-status="${item.status}"><td>${item.itemIndex}</td><td>${item.receiverAccountNumber} (${item.receiverBankCode})</td><td class="num">${formatNaira(item.amount)}</td><td>${item.status}</td><td class="error">${item.errorCode ? `${item.errorCode} ${item.errorMessage}` : ''}</td><td>${item.reprocessCount}</td><td class="actions">${reprocess}${request}</td></tr>`;
}

/**
 * A batch's items, in their order: the row under the batch's own row that its Items button opens. Its failed-only
 * box is the page's to apply (`data-failed-only`), as the other lists' filters are.
 */
export function BatchItems({ batch, items }: { batch: BulkTransferRecord; items: BulkItemRecord[] }) {
  const failed = items.filter((i) => i.status === 'failed').length;
  return (
    <tr id={ids.items(batch.id)} class="items-row" data-client={batch.clientId}>
      <td colspan={6}>
        <div>
          <label>
            <input
              type="checkbox"
              data-failed-only={batch.id}
              aria-label={`Failed items only of ${batch.batchName}`}
            />
            {` failed only (${failed} of ${items.length})`}
          </label>
          <table class="items">
            <thead>
              <tr>
                <th>itemIndex</th>
                <th>Receiver</th>
                <th class="num">Amount</th>
                <th>Status</th>
                <th>Error</th>
                <th>Reprocessed</th>
                <th />
              </tr>
            </thead>
            <tbody>{items.map((item) => itemRow(batch, item))}</tbody>
          </table>
        </div>
      </td>
    </tr>
  );
}

type BodyPart = Pick<RequestEntryWithCurlView['request'], 'body' | 'bodySize' | 'contentType' | 'truncated'>;

/** A request's body or its answer's: the JSON as the journal shows it, or why there is none to show. */
function Body({ part }: { part: BodyPart }) {
  if (part.body !== null && part.body !== undefined) return <pre>{JSON.stringify(part.body, null, 2)}</pre>;
  if (part.truncated)
    return <p class="muted">{`Not kept: ${part.bodySize} bytes, past --journal-body-limit.`}</p>;
  if (part.bodySize)
    return (
      <p class="muted">{`${part.bodySize} bytes of ${part.contentType ?? 'unknown type'}, not shown.`}</p>
    );
  return <p class="muted">No body.</p>;
}

/** Headers the bank's API reads besides the credentials: whose request it is, how its body is, which scenario. */
const API_HEADERS = new Set(['businessid', 'content-type', 'x-sandbox-scenario', 'x-request-id']);

/**
 * A request's headers in two: those the API reads (the credentials, redacted, `businessId`, the content type, a
 * scenario or request id of the app's own), and the transport's (host, user agent, lengths, encodings…), which a
 * reader seldom needs and the dialog folds.
 */
function splitHeaders(headers: Readonly<Record<string, string>>): {
  api: [string, string][];
  transport: [string, string][];
} {
  const api: [string, string][] = [];
  const transport: [string, string][] = [];
  for (const pair of Object.entries(headers)) {
    const [name] = pair;
    (isSecretHeader(name) || API_HEADERS.has(name) ? api : transport).push(pair);
  }
  return { api, transport };
}

/**
 * A journal entry as the request dialog shows it: its title, then what the request carried and what it got (the
 * bodies, the part a reader opens it for), redacted as the control API shows it; then when, who and which rule,
 * the headers the API read, the transport's folded, and a `curl` command that sends it again. Two elements,
 * swapped in by id.
 */
export function RequestDetail({ entry }: { entry: RequestEntryWithCurlView }) {
  const facts: [string, string][] = [
    ['Time', entry.time],
    ['Duration', `${entry.durationMs} ms`],
    ['Request id', entry.requestId],
    ['Client', entry.clientId ?? '—'],
    ['Business', entry.businessId ?? '—'],
    ['Scenario rule', entry.scenario ? `${entry.scenario.name}, rule ${entry.scenario.rule}` : 'none fired'],
  ];
  const query = Object.entries(entry.query).map(([k, v]): [string, string] => [`?${k}`, v]);
  const headers = splitHeaders(entry.request.headers);
  return (
    <>
      <h2 id="request-title">{`${entry.method} ${entry.path} → ${entry.status}`}</h2>
      <div id="request-body">
        <h3>Request</h3>
        {query.length > 0 ? <Pairs pairs={query} /> : null}
        <Body part={entry.request} />
        <h3>{`Response: ${entry.response.status} ${entry.response.message ?? ''}`}</h3>
        <Body part={entry.response} />
        {entry.warnings.length > 0 ? (
          <>
            <h3>x-sandbox-warning: production would refuse this</h3>
            <ul class="warnings">
              {entry.warnings.map((warning) => (
                <li>{warning}</li>
              ))}
            </ul>
          </>
        ) : null}
        <h3>Details</h3>
        <Pairs pairs={[...facts, ...headers.api]} />
        {headers.transport.length > 0 ? (
          <details class="detail transport">
            <summary>{`Transport headers (${headers.transport.length})`}</summary>
            <Pairs pairs={headers.transport} />
          </details>
        ) : null}
        {entry.curl ? (
          <>
            <h3>
              As curl{' '}
              <button type="button" data-copy={entry.curl}>
                Copy as curl
              </button>
            </h3>
            <pre class="curl">{entry.curl}</pre>
            <p class="muted">
              Secrets are masked in the journal: the command reads them from the shell variables it names.
            </p>
          </>
        ) : null}
      </div>
    </>
  );
}

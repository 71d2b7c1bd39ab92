import { dateTimeOf, isoOf, relativeTo } from './format.js';
import type { RowFacts } from './model.js';

// What the rows of the dashboard's lists share (rows.tsx, details.tsx): the ids the page swaps rows in by, a status
// badge, a relative time, name-value pairs, a link to a request of the journal, and the names of a row's business.

export const ids = {
  client: (id: string) => `client-${id}`,
  clientOption: (id: string) => `pick-${id}`,
  businessOption: (id: string) => `bizopt-${id}`,
  batch: (id: string) => `batch-${id}`,
  /** The row under a batch's row that shows its items (`details.tsx`). */
  items: (id: string) => `items-${id}`,
  delivery: (id: string) => `delivery-${id}`,
  virtualAccount: (id: string) => `va-${id}`,
  virtualAccountRow: (id: string) => `varow-${id}`,
  transaction: (id: string) => `tx-${id}`,
  message: (id: string) => `msg-${id}`,
  dispute: (id: string) => `dispute-${id}`,
} as const;

/** A badge with the status as its class, for the colours. */
export const Badge = ({ status }: { status: string }) => (
  <span class={`badge ${status}`}>{status.replace('_', ' ')}</span>
);

/** A time in words (`in 12 min`, `3 min ago`) that the page keeps current against the sandbox clock; in ms. */
export const Relative = ({ at, now }: { at: number; now: number }) => (
  <time class="rel" datetime={isoOf(at)} title={dateTimeOf(isoOf(at))}>
    {relativeTo(at, now)}
  </time>
);

/** Names and values, one to a line: a delivery's headers, what a request carried. */
export const Pairs = ({ pairs }: { pairs: [name: string, value: string][] }) => (
  <table class="pairs">
    <tbody>
      {pairs.map(([name, value]) => (
        <tr>
          <th>{name}</th>
          <td>{value}</td>
        </tr>
      ))}
    </tbody>
  </table>
);

/** A button that opens the journal entry of the request with this `x-request-id`, when the record knows it. */
export const RequestLink = ({
  requestId,
  title = `x-request-id ${requestId}`,
}: {
  requestId: string | null;
  title?: string;
}) =>
  requestId ? (
    <button type="button" class="link" data-request-id={requestId} title={title}>
      request
    </button>
  ) : null;

/** The client of a business, for the rows that only know the business. */
export const clientOf = (facts: RowFacts, businessId: string): string =>
  facts.businesses.get(businessId)?.clientId ?? '';

export const businessName = (facts: RowFacts, businessId: string) =>
  facts.businesses.get(businessId)?.businessName ?? businessId;

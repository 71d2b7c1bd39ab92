// What the dashboard's tests share (test/api/dashboard/): the page's HTML picked apart, its event stream read in
// process, and the records a test puts on it.
import { expect, vi } from 'vitest';
import roles from '../../fixtures/roles.json' with { type: 'json' };
import { dispute } from '../../src/contract/api/disputes.js';
import { virtualAccount } from '../../src/contract/api/virtual-accounts.js';
import { paymentReceived } from '../../src/contract/control/incoming-payments.js';
import { outboxMessage } from '../../src/contract/control/outbox.js';
import { virtualAccount as listedVirtualAccount } from '../../src/contract/control/virtual-accounts.js';
import { FLUSH_MS } from '../../src/dashboard/live.js';
import type { Sandbox } from '../../src/sandbox.js';
import { dataOf, pageOf } from './answers.js';
import { BANK, bulkHelpers, RECEIVER } from './bulk.js';
import { transferEntry } from './money.js';
import { A, B, call, schemeA, schemeB, tokenFor } from './sandbox.js';
import { incomingPayment, openVirtualAccount } from './webhooks.js';

export const UI = '/__sandbox/ui';
export const EVENTS = '/__sandbox/ui/events';
/** How long a test waits for one event before it fails: a guard against an event that never comes, not a budget. */
export const WAIT_MS = 30_000;
/** A receiver account the default scenario fails with 51 Insufficient Funds. */
export const FAILING_ACCOUNT = '0000000051';
export const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
export const DISPUTES = '/api/v1/clients/business/disputes';
export const MEMBERS = '/api/v1/clients/members';
export const VIEWER = roles.find((r) => r.name === 'Viewer')?.id ?? '';

export const { ref, transfer, transfers, create } = bulkHelpers({
  label: 'dash',
  narration: 'Dashboard payment',
  batchName: 'Dashboard batch',
});

// ------------------------------------------------------------------ HTML helpers

/** Text as Hono JSX escapes it. */
export const esc = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

export const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });
export const formatKobo = (kobo: number) => naira.format(kobo / 100);

/** The piece of `html` from `start` to the end of the first `end` after it; fails when `start` is missing. */
export function slice(html: string, start: string, end: string): string {
  const from = html.indexOf(start);
  expect(from, `no ${start} in the HTML`).toBeGreaterThanOrEqual(0);
  const to = html.indexOf(end, from);
  expect(to, `no ${end} after ${start}`).toBeGreaterThan(from);
  return html.slice(from, to + end.length);
}

/** A client's `<tbody>` of the one clients table: its business rows. */
export const clientBlock = (html: string, clientId: string) =>
  slice(html, `<tbody id="client-${clientId}" data-client="${clientId}" class="client">`, '</tbody>');
export const businessRow = (html: string, businessId: string) =>
  slice(html, `<tr data-business="${businessId}" `, '</tr>');
/** The `<tr …>` of a list whose opening tag holds `attribute` (e.g. `data-path="/x"`), to its `</tr>`. */
export function rowWith(html: string, attribute: string): string {
  const at = html.indexOf(attribute);
  expect(at, `no ${attribute} in the HTML`).toBeGreaterThanOrEqual(0);
  const from = html.lastIndexOf('<tr ', at);
  expect(html.slice(from, at), `${attribute} is not in a <tr> tag`).not.toContain('>');
  return html.slice(from, html.indexOf('</tr>', at) + '</tr>'.length);
}
export const batchRow = (html: string, batchId: string) => slice(html, `<tr id="batch-${batchId}"`, '</tr>');
export const approveButton = (businessId: string) =>
  `data-call="POST /__sandbox/businesses/${businessId}/approve"`;

/** The rows of the list whose `<tbody>` has this id, to the end of the words it shows when empty. */
export const listOf = (html: string, id: string) => slice(html, `<tbody id="${id}"`, '</p>');
/** A delivery's row, to the end of its headers and payload. */
export const deliveryRow = (html: string, deliveryId: string) =>
  slice(html, `<tr id="delivery-${deliveryId}"`, '</details>');
/** The client picker's option of a client, its opening tag. */
export const pickerOption = (html: string, clientId: string) =>
  slice(html, `<option id="pick-${clientId}"`, '>');

/** Every list of the page that holds rows of clients, by name. */
export function everyList(html: string): Record<string, string> {
  const lists: Record<string, string> = {
    clients: slice(html, '<table id="clients">', '</table>'),
    'va-list': slice(html, '<datalist id="va-list"', '</datalist>'),
  };
  for (const id of [
    'transactions',
    'batches',
    'deliveries',
    'virtual-accounts',
    'outbox',
    'disputes',
    'requests',
  ])
    lists[id] = listOf(html, id);
  return lists;
}

/** Whether a section of the page starts unfolded: the attributes of its `<details>` say `open`. */
export function isOpen(html: string, sectionId: string): boolean {
  const details = html.match(new RegExp(`<section class="panel" id="${sectionId}"><details([^>]*)>`))?.[1];
  expect(details, `no section ${sectionId}`).toBeDefined();
  return / open(="")?( |$)/.test(details ?? '');
}

export async function page(
  sandbox: Sandbox,
  headers: Record<string, string> = {},
  query = '',
): Promise<string> {
  const res = await sandbox.app.request(`${UI}${query}`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return res.text();
}

// ------------------------------------------------------------------ server-sent events

export interface SseEvent {
  event: string;
  data: string;
}

export interface Patch {
  id: string;
  html: string;
  parent?: string;
  position?: 'prepend' | 'append';
}

export const patchesOf = (e: SseEvent): Patch[] => JSON.parse(e.data) as Patch[];

/** A `patch` event holding a patch of `id` (that passes `test`, when given). */
export const hasPatch =
  (id: string, test: (p: Patch) => boolean = () => true) =>
  (e: SseEvent) =>
    patchesOf(e).some((p) => p.id === id && test(p));

export const patchIn = (e: SseEvent, id: string): Patch => {
  const found = patchesOf(e).find((p) => p.id === id);
  if (!found) throw new Error(`no patch of ${id} in ${e.data.slice(0, 300)}`);
  return found;
};

/** The last patch of `id` among the events received so far; fails when there is none. */
export function lastPatch(seen: SseEvent[], id: string): Patch {
  const found = seen
    .filter((e) => e.event === 'patch')
    .flatMap(patchesOf)
    .filter((p) => p.id === id)
    .at(-1);
  if (!found) throw new Error(`no patch of ${id} in the stream`);
  return found;
}

/**
 * The openers of the dashboard's event stream, each stream cancelled (and the fake timers undone) by `cleanups`
 * after the test: the file's `closedAfterEach()`.
 */
export function eventStreams(cleanups: (() => Promise<unknown>)[]) {
  /**
   * Opens the dashboard's event stream in process and parses its frames. `next(name, predicate)` answers the next
   * event of that name that passes the predicate, skipping others, and fails after WAIT_MS; `seen` holds every
   * event received so far. The stream is cancelled after the test.
   */
  async function openEvents(sandbox: Sandbox, headers: Record<string, string> = {}) {
    const response = await sandbox.app.request(EVENTS, { headers });
    if (!response.body) throw new Error(`the events response has no body (${response.status})`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const queue: SseEvent[] = [];
    const seen: SseEvent[] = [];
    let buffer = '';
    let reading: ReturnType<typeof reader.read> | null = null;
    let ended = false;
    let cancelled = false;

    const cancel = async () => {
      if (cancelled) return;
      cancelled = true;
      await reader.cancel();
    };
    cleanups.push(cancel);

    /** Moves each complete frame (ended by a blank line) of the buffer to the queue; comments are skipped. */
    const parse = () => {
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let event = 'message';
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line === '' || line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon === -1 ? line : line.slice(0, colon);
          const raw = colon === -1 ? '' : line.slice(colon + 1);
          const value = raw.startsWith(' ') ? raw.slice(1) : raw;
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
        }
        if (data.length === 0) continue;
        const parsed = { event, data: data.join('\n') };
        queue.push(parsed);
        seen.push(parsed);
      }
    };

    const next = async (
      name: string,
      predicate: (e: SseEvent) => boolean = () => true,
      timeoutMs = WAIT_MS,
    ): Promise<SseEvent> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        for (let e = queue.shift(); e !== undefined; e = queue.shift()) {
          if (e.event === name && predicate(e)) return e;
        }
        if (ended) throw new Error(`the stream ended before a matching ${name} event`);
        // A read that loses the race stays pending and is the next call's read: no chunk is dropped.
        reading ??= reader.read();
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()));
        });
        const result = await Promise.race([reading, timeout]);
        clearTimeout(timer);
        if (result === 'timeout') {
          const names = seen.map((e) => e.event).join(', ');
          throw new Error(`no matching ${name} event within ${timeoutMs} ms (seen: ${names || 'none'})`);
        }
        reading = null;
        if (result.done) ended = true;
        else {
          buffer += decoder.decode(result.value, { stream: true });
          parse();
        }
      }
    };

    return { response, reader, next, seen, cancel };
  }

  /** A stream that has said `ready`, so every change from now on reaches it. */
  async function readyEvents(sandbox: Sandbox, headers: Record<string, string> = {}) {
    const events = await openEvents(sandbox, headers);
    await events.next('ready');
    return events;
  }

  /**
   * A ready stream whose frames go out when the test calls `flush()`, not every FLUSH_MS: the feed's timer is fake
   * from before the stream joins to the end of the test, so a test of several frames waits for none of them, and
   * what it did before a flush is in that frame, however slow the machine.
   */
  async function steppedEvents(sandbox: Sandbox) {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    cleanups.push(async () => {
      vi.useRealTimers();
    });
    const events = await readyEvents(sandbox);
    return { ...events, flush: () => vi.advanceTimersByTime(FLUSH_MS) };
  }

  return { openEvents, readyEvents, steppedEvents };
}

/** The listeners the store has now (a private field: the only way to see that a closed stream let go). */
export const storeListeners = (sandbox: Sandbox) =>
  (sandbox.store as unknown as { listeners: Set<unknown> }).listeners.size;

/** The id of a virtual account, from the control API's list. */
export async function virtualAccountId(sandbox: Sandbox, accountNumber: string): Promise<string> {
  const list = await call(sandbox, 'GET', '/__sandbox/virtual-accounts?limit=100');
  expect(list.status).toBe(200);
  const record = pageOf(list, listedVirtualAccount).data.find((v) => v.accountNumber === accountNumber);
  if (!record) throw new Error(`virtual account ${accountNumber} is not listed`);
  return record.id;
}

/** A single transfer of ₦1,500.00 to RECEIVER from the business of `headers`; answers the response as it is. */
export function sendTransfer(
  sandbox: Sandbox,
  headers: Record<string, string>,
  overrides: Record<string, unknown> = {},
) {
  return call(sandbox, 'POST', TRANSFER, {
    headers,
    body: {
      amount: 150000,
      receiverAccountNumber: RECEIVER,
      receiverBankCode: BANK,
      retrievalReference: ref(),
      narration: 'Dashboard payment',
      ...overrides,
    },
  });
}

/** The id of the one dispute on `transactionId`, read from the disputes list (its create answers no data). */
export async function disputeIdOf(
  sandbox: Sandbox,
  headers: Record<string, string>,
  transactionId: string,
): Promise<string> {
  const res = await call(sandbox, 'GET', `${DISPUTES}?transactionId=${encodeURIComponent(transactionId)}`, {
    headers,
  });
  expect(res.status).toBe(200);
  const [only, ...more] = pageOf(res, dispute).data;
  if (!only || more.length > 0) throw new Error(`expected one dispute on ${transactionId}`);
  return only.id;
}

/**
 * A record of client A or B in every list of the page (a batch, a transfer with a dispute on it, a virtual account
 * paid into, so a credit and a delivery, an invitation in the outbox); answers the ids of their rows.
 */
export async function recordsOf(sandbox: Sandbox, who: 'a' | 'b'): Promise<string[]> {
  const [client, businessId] = who === 'a' ? [A, A.a1.id] : [B, B.b1.id];
  const headers = schemeA(await tokenFor(sandbox, client.owner), client.secretKey, businessId);
  const keys = schemeB(client.publicKey, client.secretKey, businessId);
  const batch = await create(sandbox, transfers(1), keys, `Batch of ${who}`);
  const retrievalReference = ref();
  const sent = await sendTransfer(sandbox, headers, { retrievalReference });
  expect(sent.status).toBe(200);
  const transactionId = (await transferEntry(sandbox, retrievalReference, businessId)).id;
  const opened = await call(sandbox, 'POST', DISPUTES, {
    headers,
    body: { transactionId, description: `Dispute of ${who}` },
  });
  expect(opened.status).toBe(201);
  const disputeId = await disputeIdOf(sandbox, headers, transactionId);
  const va = await openVirtualAccount(sandbox, headers, 'permanent', `dash-${who}`);
  expect(va.status).toBe(201);
  const { accountNumber } = dataOf(va, virtualAccount);
  const vaId = await virtualAccountId(sandbox, accountNumber);
  const paid = await incomingPayment(sandbox, { accountNumber, amount: 100000 });
  expect(paid.status).toBe(201);
  const email = `viewer.${who}@dash.test`;
  expect(
    (await call(sandbox, 'POST', MEMBERS, { headers, body: { email, memberRoleId: VIEWER } })).status,
  ).toBe(201);
  const message = pageOf(await call(sandbox, 'GET', `/__sandbox/outbox?to=${email}`), outboxMessage).data[0];
  if (!message) throw new Error(`no invitation to ${email} in the outbox`);
  return [
    `client-${client.id}`,
    `bizopt-${businessId}`,
    `batch-${batch.id}`,
    `tx-${transactionId}`,
    `dispute-${disputeId}`,
    `delivery-${dataOf(paid, paymentReceived).deliveryId}`,
    `varow-${vaId}`,
    `va-${vaId}`,
    `msg-${message.id}`,
  ];
}

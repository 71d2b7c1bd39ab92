import { describe, expect, it, vi } from 'vitest';
import clients from '../../../fixtures/clients.json' with { type: 'json' };
import roles from '../../../fixtures/roles.json' with { type: 'json' };
import { dispute } from '../../../src/contract/api/disputes.js';
import { singleUseAccount, virtualAccount } from '../../../src/contract/api/virtual-accounts.js';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import { approvedBusiness } from '../../../src/contract/control/money.js';
import { outboxMessage } from '../../../src/contract/control/outbox.js';
import { readyScenarios } from '../../../src/contract/control/scenarios.js';
import { virtualAccount as listedVirtualAccount } from '../../../src/contract/control/virtual-accounts.js';
import {
  ENTRIES_PER_FRAME,
  FLUSH_MS,
  MAX_REST_TICKS,
  PAGE_BYTES_PER_SECOND,
  PAGES_PER_TURN,
  REQUESTS_PER_FRAME,
} from '../../../src/dashboard/live.js';
import { FOLD_CLIENTS_OVER } from '../../../src/dashboard/model.js';
import { type Sandbox, version } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { BANK, bulkHelpers, keysA1, processBatch, RECEIVER } from '../../support/bulk.js';
import { transferEntry } from '../../support/money.js';
import { refusedUrl } from '../../support/receiver.js';
import {
  A,
  B,
  call,
  closedAfterEach,
  ownerHeaders,
  schemeA,
  schemeB,
  tokenFor,
} from '../../support/sandbox.js';
import { startFakeUpstream } from '../../support/upstream.js';
import {
  attemptsRecorded,
  delivery,
  FAST,
  incomingPayment,
  openVirtualAccount,
  webhookSetup,
} from '../../support/webhooks.js';

// The live dashboard at /__sandbox/ui: the server-rendered page, its assets, the server-sent events that keep
// it current, and how --control-token reaches it through the `sandbox_token` cookie.

const UI = '/__sandbox/ui';
const EVENTS = '/__sandbox/ui/events';
/** How long a test waits for one event before it fails: a guard against an event that never comes, not a budget. */
const WAIT_MS = 30_000;
/** A receiver account the default scenario fails with 51 Insufficient Funds. */
const FAILING_ACCOUNT = '0000000051';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
const DISPUTES = '/api/v1/clients/business/disputes';
const MEMBERS = '/api/v1/clients/members';
const VIEWER = roles.find((r) => r.name === 'Viewer')?.id ?? '';

const { ref, transfer, transfers, create } = bulkHelpers({
  label: 'dash',
  narration: 'Dashboard payment',
  batchName: 'Dashboard batch',
});

/** Streams and sandboxes closed after each test, the newest first. */
const { cleanups, sandboxFor } = closedAfterEach();

// ------------------------------------------------------------------ HTML helpers

/** Text as Hono JSX escapes it. */
const esc = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });
const formatKobo = (kobo: number) => naira.format(kobo / 100);

/** The piece of `html` from `start` to the end of the first `end` after it; fails when `start` is missing. */
function slice(html: string, start: string, end: string): string {
  const from = html.indexOf(start);
  expect(from, `no ${start} in the HTML`).toBeGreaterThanOrEqual(0);
  const to = html.indexOf(end, from);
  expect(to, `no ${end} after ${start}`).toBeGreaterThan(from);
  return html.slice(from, to + end.length);
}

/** A client's `<tbody>` of the one clients table: its business rows. */
const clientBlock = (html: string, clientId: string) =>
  slice(html, `<tbody id="client-${clientId}" data-client="${clientId}" class="client">`, '</tbody>');
const businessRow = (html: string, businessId: string) =>
  slice(html, `<tr data-business="${businessId}" `, '</tr>');
/** The `<tr …>` of a list whose opening tag holds `attribute` (e.g. `data-path="/x"`), to its `</tr>`. */
function rowWith(html: string, attribute: string): string {
  const at = html.indexOf(attribute);
  expect(at, `no ${attribute} in the HTML`).toBeGreaterThanOrEqual(0);
  const from = html.lastIndexOf('<tr ', at);
  expect(html.slice(from, at), `${attribute} is not in a <tr> tag`).not.toContain('>');
  return html.slice(from, html.indexOf('</tr>', at) + '</tr>'.length);
}
const batchRow = (html: string, batchId: string) => slice(html, `<tr id="batch-${batchId}"`, '</tr>');
const approveButton = (businessId: string) => `data-call="POST /__sandbox/businesses/${businessId}/approve"`;

/** The rows of the list whose `<tbody>` has this id, to the end of the words it shows when empty. */
const listOf = (html: string, id: string) => slice(html, `<tbody id="${id}"`, '</p>');
/** A delivery's row, to the end of its headers and payload. */
const deliveryRow = (html: string, deliveryId: string) =>
  slice(html, `<tr id="delivery-${deliveryId}"`, '</details>');
/** The client picker's option of a client, its opening tag. */
const pickerOption = (html: string, clientId: string) => slice(html, `<option id="pick-${clientId}"`, '>');

/** Every list of the page that holds rows of clients, by name. */
function everyList(html: string): Record<string, string> {
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
function isOpen(html: string, sectionId: string): boolean {
  const details = html.match(new RegExp(`<section class="panel" id="${sectionId}"><details([^>]*)>`))?.[1];
  expect(details, `no section ${sectionId}`).toBeDefined();
  return / open(="")?( |$)/.test(details ?? '');
}

async function page(sandbox: Sandbox, headers: Record<string, string> = {}, query = ''): Promise<string> {
  const res = await sandbox.app.request(`${UI}${query}`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return res.text();
}

// ------------------------------------------------------------------ server-sent events

interface SseEvent {
  event: string;
  data: string;
}

interface Patch {
  id: string;
  html: string;
  parent?: string;
  position?: 'prepend' | 'append';
}

const patchesOf = (e: SseEvent): Patch[] => JSON.parse(e.data) as Patch[];

/** A `patch` event holding a patch of `id` (that passes `test`, when given). */
const hasPatch =
  (id: string, test: (p: Patch) => boolean = () => true) =>
  (e: SseEvent) =>
    patchesOf(e).some((p) => p.id === id && test(p));

const patchIn = (e: SseEvent, id: string): Patch => {
  const found = patchesOf(e).find((p) => p.id === id);
  if (!found) throw new Error(`no patch of ${id} in ${e.data.slice(0, 300)}`);
  return found;
};

/** The last patch of `id` among the events received so far; fails when there is none. */
function lastPatch(seen: SseEvent[], id: string): Patch {
  const found = seen
    .filter((e) => e.event === 'patch')
    .flatMap(patchesOf)
    .filter((p) => p.id === id)
    .at(-1);
  if (!found) throw new Error(`no patch of ${id} in the stream`);
  return found;
}

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

/** The listeners the store has now (a private field: the only way to see that a closed stream let go). */
const storeListeners = (sandbox: Sandbox) =>
  (sandbox.store as unknown as { listeners: Set<unknown> }).listeners.size;

/** The id of a virtual account, from the control API's list. */
async function virtualAccountId(sandbox: Sandbox, accountNumber: string): Promise<string> {
  const list = await call(sandbox, 'GET', '/__sandbox/virtual-accounts?limit=100');
  expect(list.status).toBe(200);
  const record = pageOf(list, listedVirtualAccount).data.find((v) => v.accountNumber === accountNumber);
  if (!record) throw new Error(`virtual account ${accountNumber} is not listed`);
  return record.id;
}

/** A single transfer of ₦1,500.00 to RECEIVER from the business of `headers`; answers the response as it is. */
function sendTransfer(
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
async function disputeIdOf(
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
async function recordsOf(sandbox: Sandbox, who: 'a' | 'b'): Promise<string[]> {
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

// ------------------------------------------------------------------ the page

describe('GET /__sandbox/ui', () => {
  it('renders every fixture client with its businesses, naira balances and approval state', async () => {
    const sandbox = await sandboxFor();
    const html = await page(sandbox);
    expect(html.startsWith('<!doctype html>')).toBe(true);

    let unapproved = 0;
    for (const client of clients) {
      const block = clientBlock(html, client.id);
      expect(block).toContain(esc(client.name));
      for (const business of client.businesses) {
        const row = businessRow(block, business.id);
        expect(row.startsWith(`<tr data-business="${business.id}" data-client="${client.id}">`)).toBe(true);
        expect(row).toContain(esc(business.businessName));
        // Available, then Ledger: the fixtures have no entries, so both are the balance.
        const amount = formatKobo(business.balance);
        expect(row).toContain(`<td class="num balance">${amount}</td><td class="num ledger">${amount}</td>`);
        if (business.isApproved) {
          expect(row).toContain('<span class="badge ok">approved</span>');
          expect(row).not.toContain('not approved');
          expect(row).not.toContain(approveButton(business.id));
        } else {
          unapproved++;
          expect(row).toContain('<span class="badge">not approved</span>');
          expect(row).toContain(approveButton(business.id));
        }
        expect(row).toContain(`data-call="PUT /__sandbox/businesses/${business.id}/balance"`);
        // The balance is typed in kobo, as the API takes it, and sent as it is (not naira turned into kobo);
        // the naira it makes shows in the output beside it.
        expect(row).toMatch(
          /<input name="balance" type="number" min="0" step="1" inputmode="numeric" data-naira="true" placeholder="kobo" aria-label="New balance of [^"]+ in kobo" required=""\/><output class="naira muted" aria-label="New balance of [^"]+ in naira"><\/output>/,
        );
        expect(row).not.toContain('data-kobo');
      }
    }
    // A1 holds 500 000 000 kobo; A2 is the one business of A to approve.
    const a1 = businessRow(html, A.a1.id);
    expect(a1).toContain('₦5,000,000.00');
    expect(a1).toContain(A.a1.accountNumber);
    expect(businessRow(html, A.a2.id)).toContain(approveButton(A.a2.id));
    expect(unapproved).toBeGreaterThanOrEqual(1);
    expect(html.split('/approve"').length - 1).toBe(unapproved);
  });

  it('lists the ready scenarios and marks the active one', async () => {
    const sandbox = await sandboxFor();
    const ready = await call(sandbox, 'GET', '/__sandbox/scenarios');
    const names = dataOf(ready, readyScenarios).map((s) => s.name);
    expect(names).toContain('default');
    expect(names).toContain('happy-path');

    // The clock's unit select has a selected option too: only the scenario panel's count.
    const selected = (html: string) =>
      slice(html, '<div id="scenario-panel">', '</select>').match(
        /<option value="[^"]*"[^>]*selected[^>]*>/g,
      ) ?? [];
    const before = await page(sandbox);
    for (const name of names) expect(before).toContain(`<option value="${name}"`);
    expect(before).toContain('data-scenario="default"');
    expect(selected(before)).toHaveLength(1);
    expect(selected(before)[0]).toContain('value="default"');

    const chosen = await call(sandbox, 'PUT', '/__sandbox/scenario', { body: { name: 'happy-path' } });
    expect(chosen.status).toBe(200);
    const after = await page(sandbox);
    expect(after).toContain('data-scenario="happy-path"');
    expect(after).not.toContain('data-scenario="default"');
    expect(selected(after)).toHaveLength(1);
    expect(selected(after)[0]).toContain('value="happy-path"');
  });

  it('has the incoming-payment form and links its script and stylesheet, which are served', async () => {
    const sandbox = await sandboxFor();
    const html = await page(sandbox);
    const form = slice(html, '<form id="payment-form"', '</form>');
    expect(form).toContain('data-call="POST /__sandbox/incoming-payments"');
    for (const field of ['accountNumber', 'amount', 'accountName', 'narration'])
      expect(form).toContain(`name="${field}"`);

    const stylesheet = html.match(/<link rel="stylesheet" href="([^"]+)"/)?.[1];
    const script = html.match(/<script src="([^"]+)"/)?.[1];
    expect(stylesheet).toBe('/__sandbox/ui/assets/style.css');
    expect(script).toBe('/__sandbox/ui/assets/app.js');
    for (const url of [stylesheet, script]) {
      const res = await sandbox.app.request(String(url));
      expect(res.status, String(url)).toBe(200);
    }
  });

  it('lists bulk transfers newest first, with a progressbar of their counters', async () => {
    const sandbox = await sandboxFor();
    const processed = await create(
      sandbox,
      [...transfers(3), transfer({ receiverAccountNumber: FAILING_ACCOUNT })],
      keysA1,
      'First batch',
    );
    expect((await processBatch(sandbox, processed.id)).status).toBe(202);
    await sandbox.drain();
    const waiting = await create(sandbox, transfers(2), keysA1, 'Second batch');

    const html = await page(sandbox);
    const first = html.indexOf(`<tr id="batch-${processed.id}"`);
    const second = html.indexOf(`<tr id="batch-${waiting.id}"`);
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(0);
    expect(second).toBeLessThan(first);

    const done = batchRow(html, processed.id);
    expect(done).toContain('First batch');
    expect(done).toContain(A.a1.businessName);
    expect(done).toContain('role="progressbar"');
    expect(done).toContain('aria-valuenow="100"');
    expect(done).toContain('3 completed · 1 failed · 0 pending of 4');
    expect(done).toContain('style="width:75.00%"');
    expect(done).toContain('style="width:25.00%"');
    expect(done).not.toContain('data-status="pending"');

    const queued = batchRow(html, waiting.id);
    expect(queued).toContain('aria-valuenow="0"');
    expect(queued).toContain('0 completed · 0 failed · 2 pending of 2');
    expect(queued).toContain('data-status="pending"');
  });

  it('escapes user data: batch names, client names, virtual account names', async () => {
    const sandbox = await sandboxFor();
    const batchName = '<script>alert("batch")</script>';
    await create(sandbox, transfers(1), keysA1, batchName);
    const client = await call(sandbox, 'POST', '/__sandbox/clients', { body: { name: '<b>Bold & Co</b>' } });
    expect(client.status).toBe(201);
    const opened = await call(sandbox, 'POST', '/api/v1/clients/business/virtual-accounts', {
      headers: await ownerHeaders(sandbox),
      body: { firstName: '<img src=x>', lastName: 'Obi', type: 'permanent', reference: 'dash-escape' },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const account = dataOf(opened, virtualAccount);
    const paid = await incomingPayment(sandbox, {
      accountNumber: account.accountNumber,
      amount: 100000,
      accountName: '<script>payer()</script>',
    });
    expect(paid.status).toBe(201);

    const html = await page(sandbox);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<script>payer');
    expect(html).not.toContain('<b>Bold');
    expect(html).not.toContain('<img src=x>');
    expect(html).toContain(esc(batchName));
    expect(html).toContain('&lt;b&gt;Bold &amp; Co&lt;/b&gt;');
    // In the datalist of virtual accounts and in the delivery row (the account it went to).
    expect(html.split('&lt;img src=x&gt;').length - 1).toBeGreaterThanOrEqual(2);
    // The only script element is the page's own.
    expect(html.match(/<script/g)).toHaveLength(1);
  });
});

describe('GET /__sandbox/ui, the request journal', () => {
  it("lists the requests answered so far, but not the dashboard's own", async () => {
    const sandbox = await sandboxFor();
    expect((await call(sandbox, 'GET', '/__sandbox/health')).status).toBe(200);
    await page(sandbox);
    const html = await page(sandbox);
    expect(html).toContain('data-path="/__sandbox/health"');
    expect(html).not.toContain('data-path="/__sandbox/ui"');
  });
});

// ------------------------------------------------------------------ one client, folding, empty lists

describe('GET /__sandbox/ui: ?client=, folding, empty lists, escaping in the new rows', () => {
  it("shows only the picked client's records in every section, and marks it in the picker", async () => {
    const sandbox = await sandboxFor();
    const [a, b] = [await recordsOf(sandbox, 'a'), await recordsOf(sandbox, 'b')];
    const html = await page(sandbox, {}, `?client=${A.id}`);

    expect(html).toContain(`<body data-client="${A.id}">`);
    expect(html).not.toContain('showing all');
    expect(pickerOption(html, A.id)).toContain('selected');
    expect(pickerOption(html, B.id)).not.toContain('selected');
    for (const [name, list] of Object.entries(everyList(html))) {
      expect(list, name).toContain(`data-client="${A.id}"`);
      expect(list, name).not.toContain(`data-client="${B.id}"`);
    }
    for (const id of a) expect(html, id).toContain(`id="${id}"`);
    for (const id of b) expect(html, id).not.toContain(`id="${id}"`);
    // The picker still offers B; the ledger's business filter offers A's businesses only.
    expect(html).toContain(`<option id="bizopt-${A.a1.id}"`);
    expect(html).not.toContain(`<option id="bizopt-${B.b1.id}"`);
    expect(html).toContain('1 client · 2 businesses');
  });

  it('shows every client, and says so, for an unknown client id; escaping the id', async () => {
    const sandbox = await sandboxFor();
    const [a, b] = [await recordsOf(sandbox, 'a'), await recordsOf(sandbox, 'b')];
    const html = await page(sandbox, {}, `?client=${encodeURIComponent('<b>nobody</b>')}`);

    expect(html).toContain('<span class="error">No client &lt;b&gt;nobody&lt;/b&gt;: showing all.</span>');
    expect(html).not.toContain('<b>nobody');
    expect(html).toContain('<body data-client="">');
    expect(html).not.toMatch(/<option id="pick-[^"]*" value="[^"]*" selected/);
    for (const [name, list] of Object.entries(everyList(html))) {
      expect(list, name).toContain(`data-client="${A.id}"`);
      expect(list, name).toContain(`data-client="${B.id}"`);
    }
    for (const id of [...a, ...b]) expect(html, id).toContain(`id="${id}"`);
    // No ?client= at all shows everyone too, without the line.
    const all = await page(sandbox);
    expect(all).not.toContain('showing all');
    for (const id of [...a, ...b]) expect(all, id).toContain(`id="${id}"`);
  });

  it('folds the clients section past FOLD_CLIENTS_OVER clients, unless one is picked', async () => {
    const sandbox = await sandboxFor();
    for (let n = clients.length; n < FOLD_CLIENTS_OVER; n++)
      expect((await call(sandbox, 'POST', '/__sandbox/clients', { body: {} })).status).toBe(201);
    const atLimit = await page(sandbox);
    expect(atLimit).toContain(`All clients (${FOLD_CLIENTS_OVER})`);
    expect(isOpen(atLimit, 'sec-clients')).toBe(true);

    expect((await call(sandbox, 'POST', '/__sandbox/clients', { body: {} })).status).toBe(201);
    const past = await page(sandbox);
    expect(past).toContain(`All clients (${FOLD_CLIENTS_OVER + 1})`);
    expect(isOpen(past, 'sec-clients')).toBe(false);
    // Folded, the table comes without its rows (the page fetches them with ?unfold=1 when it is opened).
    expect(past).toContain('<table id="clients" data-lazy="">');
    expect(past).not.toContain(`id="client-${A.id}"`);
    const unfolded = await page(sandbox, {}, '?unfold=1');
    expect(unfolded).not.toContain('data-lazy');
    expect(unfolded.split('<tbody id="client-').length - 1).toBe(FOLD_CLIENTS_OVER + 1);
    expect(isOpen(unfolded, 'sec-clients')).toBe(false);
    // Only the clients: every other section stays open.
    for (const id of ['sec-clock', 'sec-ledger', 'sec-batches', 'sec-outbox'])
      expect(isOpen(past, id), id).toBe(true);

    expect(isOpen(await page(sandbox, {}, `?client=${A.id}`), 'sec-clients')).toBe(true);
    // An unknown id picks no one: all of them, folded.
    expect(isOpen(await page(sandbox, {}, '?client=nobody'), 'sec-clients')).toBe(false);
  });

  it('says what to do in each list a fresh sandbox has nothing in', async () => {
    const sandbox = await sandboxFor();
    // Client B's view: the fixtures give B no batch, delivery, message or dispute (A1 has a batch and a dispute).
    const html = await page(sandbox, {}, `?client=${B.id}`);
    for (const [id, words] of [
      ['batches', 'No bulk transfers yet. Your app creates one with POST '],
      ['deliveries', 'No webhook deliveries yet. Send an incoming payment'],
      ['outbox', 'Nothing sent yet. A BVN OTP appears when your app validates a BVN'],
      ['disputes', 'No disputes. Your app opens one with POST /api/v1/clients/business/disputes'],
    ] as const) {
      const list = listOf(html, id);
      expect(list, id).toMatch(
        new RegExp(`^<tbody id="${id}" data-keep="\\d+"></tbody></table><p class="empty">`),
      );
      expect(list, id).toContain(`<p class="empty">${words}`);
      // Inside its section, in a list that the page can mark empty.
      expect(slice(html, `<section class="panel" id="sec-${id}">`, '</section>'), id).toContain(
        `<div class="list"><table>`,
      );
    }
  });

  it('escapes user data in the new rows: a transfer narration, a dispute description', async () => {
    const sandbox = await sandboxFor();
    const headers = await ownerHeaders(sandbox);
    const events = await steppedEvents(sandbox);
    const narration = '<img src=x>';
    const description = '<script>alert("dispute")</script>';
    const retrievalReference = ref();
    const sent = await sendTransfer(sandbox, headers, { narration, retrievalReference });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const transactionId = (await transferEntry(sandbox, retrievalReference)).id;
    const opened = await call(sandbox, 'POST', DISPUTES, { headers, body: { transactionId, description } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const disputeId = await disputeIdOf(sandbox, headers, transactionId);

    events.flush();
    const frame = await events.next('patch', hasPatch(`dispute-${disputeId}`));
    const html = await page(sandbox);
    const rows = [
      ['the page', rowWith(html, `id="tx-${transactionId}"`), rowWith(html, `id="dispute-${disputeId}"`)],
      [
        'the stream',
        lastPatch(events.seen, `tx-${transactionId}`).html,
        patchIn(frame, `dispute-${disputeId}`).html,
      ],
    ] as const;
    for (const [where, tx, disputeRow] of rows) {
      expect(tx, where).toContain(`“${esc(narration)}”`);
      expect(tx, where).not.toContain(narration);
      expect(disputeRow, where).toContain(`<td>${esc(description)}</td>`);
      expect(disputeRow, where).not.toContain('<script');
    }
    expect(html).not.toContain(narration);
    expect(html.match(/<script/g)).toHaveLength(1);
  });
});

describe('GET /__sandbox/ui/assets/:file', () => {
  it('serves app.js and style.css with their content types', async () => {
    const sandbox = await sandboxFor();
    const js = await sandbox.app.request('/__sandbox/ui/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('no-cache');
    // The page's own script: it opens the feed of the sandbox it shows (`base` is '' at the root).
    expect(await js.text()).toContain(['new EventSource(`$', '{base}/__sandbox/ui/events`)'].join(''));

    const css = await sandbox.app.request('/__sandbox/ui/assets/style.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await css.text()).length).toBeGreaterThan(0);
  });

  it('answers 404 with the error envelope for anything else, path traversal and prototype names included', async () => {
    const sandbox = await sandboxFor();
    const unknown = await call(sandbox, 'GET', '/__sandbox/ui/assets/nope.js');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: false, message: 'No dashboard asset nope.js', data: null });

    for (const file of [
      '..%2Fpackage.json',
      '..%2F..%2F..%2Fpackage.json',
      '%2E%2E%2Fpackage.json',
      '..%2Fviews.tsx',
      'constructor',
      '__proto__',
      'hasOwnProperty',
    ]) {
      const res = await call(sandbox, 'GET', `/__sandbox/ui/assets/${file}`);
      expect(res.status, file).toBe(404);
      expect(res.body.status, file).toBe(false);
      expect(res.body.data, file).toBeNull();
      expect(JSON.stringify(res.body), file).not.toContain('banking-sandbox');
    }
    // Dot segments are resolved by the URL before routing: nothing outside the assets is reachable either way.
    const dotted = await sandbox.app.request('/__sandbox/ui/assets/../../../package.json');
    expect(dotted.status).toBe(404);
    expect(await dotted.text()).not.toContain('"name": "banking-sandbox"');
  });
});

// ------------------------------------------------------------------ the live stream

describe('GET /__sandbox/ui/events', () => {
  it('is an event stream that starts with ready', async () => {
    const sandbox = await sandboxFor();
    const events = await openEvents(sandbox);
    expect(events.response.status).toBe(200);
    expect(events.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(events.response.headers.get('cache-control')).toBe('no-cache');
    const ready = await events.next('ready');
    expect(events.seen[0]).toBe(ready);
    expect(JSON.parse(ready.data)).toEqual({ flushMs: 100 });
  });

  it('patches the client block when a business is approved or its balance set', async () => {
    const sandbox = await sandboxFor();
    const events = await readyEvents(sandbox);
    const clientId = `client-${A.id}`;

    const approved = await call(sandbox, 'POST', `/__sandbox/businesses/${A.a2.id}/approve`);
    expect(approved.status).toBe(200);
    const first = await events.next('patch', hasPatch(clientId));
    const block = patchIn(first, clientId);
    // A client already on the page: swapped in where it is, never put in a list again.
    expect(block.parent).toBeUndefined();
    expect(block.position).toBeUndefined();
    expect(block.html.startsWith(`<tbody id="${clientId}" data-client="${A.id}" class="client">`)).toBe(true);
    const a2 = businessRow(block.html, A.a2.id);
    expect(a2).toContain('<span class="badge ok">approved</span>');
    expect(a2).not.toContain('not approved');
    expect(a2).not.toContain(approveButton(A.a2.id));
    expect(a2).not.toContain('>Approve<');
    expect(a2).toContain(dataOf(approved, approvedBusiness).accountNumber);

    const set = await call(sandbox, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, {
      body: { balance: 123456789 },
    });
    expect(set.status).toBe(200);
    const second = await events.next(
      'patch',
      hasPatch(clientId, (p) => p.html.includes('₦1,234,567.89')),
    );
    const a1 = businessRow(patchIn(second, clientId).html, A.a1.id);
    expect(a1).toContain('<td class="num balance">₦1,234,567.89</td>');
    expect(a1).not.toContain('₦5,000,000.00');
    // Only client A changed.
    expect(events.seen.some((e) => e.event === 'patch' && e.data.includes(`client-${clients[1]?.id}`))).toBe(
      false,
    );
  });

  it('patches a new virtual account into va-list and an incoming payment into deliveries', async () => {
    const sandbox = await sandboxFor();
    const events = await readyEvents(sandbox);

    // No webhook URL: the payment's delivery is skipped.
    const { account } = await webhookSetup(sandbox, null, { type: 'permanent', reference: 'dash-va' });
    const vaId = `va-${await virtualAccountId(sandbox, account.accountNumber)}`;
    const vaEvent = await events.next('patch', hasPatch(vaId));
    const va = patchIn(vaEvent, vaId);
    expect(va.parent).toBe('va-list');
    expect(va.position).toBe('prepend');
    expect(va.html).toContain(`<option id="${vaId}" value="${account.accountNumber}"`);
    expect(va.html).toContain(esc(account.accountName));

    const paid = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 250000 });
    expect(paid.status).toBe(201);
    const { deliveryId, deliveryStatus } = dataOf(paid, paymentReceived);
    expect(deliveryStatus).toBe('skipped');
    const deliveryEvent = await events.next('patch', hasPatch(`delivery-${deliveryId}`));
    const row = patchIn(deliveryEvent, `delivery-${deliveryId}`);
    expect(row.parent).toBe('deliveries');
    expect(row.position).toBe('prepend');
    expect(row.html).toContain(
      `<tr id="delivery-${deliveryId}" data-client="${A.id}" data-status="skipped">`,
    );
    expect(row.html).toContain('₦2,500.00');
    expect(row.html).toContain(account.accountNumber);
    expect(row.html).toContain('no webhook URL set');
    expect(row.html).toContain(`data-call="POST /__sandbox/webhooks/deliveries/${deliveryId}/redeliver"`);
    // The credit moved A1's balance: its client block came in the same frame.
    expect(hasPatch(`client-${A.id}`)(deliveryEvent)).toBe(true);
  });

  it('sends remove for a delivery the delivery log dropped', async () => {
    const sandbox = await sandboxFor({ deliveryLogSize: 1 });
    const { account } = await webhookSetup(sandbox, null, { type: 'permanent', reference: 'dash-log' });
    const events = await readyEvents(sandbox);
    const pay = async () => {
      const res = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 50000 });
      expect(res.status).toBe(201);
      return dataOf(res, paymentReceived).deliveryId;
    };
    const first = await pay();
    await events.next('patch', hasPatch(`delivery-${first}`));
    const second = await pay();
    const removed = await events.next('remove', (e) =>
      (JSON.parse(e.data) as string[]).includes(`delivery-${first}`),
    );
    expect(JSON.parse(removed.data)).not.toContain(`delivery-${second}`);
    // A frame sends its patches before its removals: the second delivery's row came just before.
    const frame = events.seen.slice(0, events.seen.indexOf(removed));
    expect(frame.some((e) => e.event === 'patch' && hasPatch(`delivery-${second}`)(e))).toBe(true);
  });

  it('inserts a new batch and ends a processed one at 100%', async () => {
    const sandbox = await sandboxFor();
    const events = await readyEvents(sandbox);
    const batch = await create(sandbox, transfers(3), keysA1, 'Live batch');
    const id = `batch-${batch.id}`;

    const inserted = patchIn(await events.next('patch', hasPatch(id)), id);
    expect(inserted.parent).toBe('batches');
    expect(inserted.position).toBe('prepend');
    expect(inserted.html).toContain('aria-valuenow="0"');
    expect(inserted.html).toContain('0 completed · 0 failed · 3 pending of 3');

    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    await sandbox.drain();
    const last = patchIn(
      await events.next(
        'patch',
        hasPatch(id, (p) => p.html.includes('aria-valuenow="100"')),
      ),
      id,
    );
    expect(last.html).toContain('data-status="completed"');
    expect(last.html).toContain('3 completed · 0 failed · 0 pending of 3');
    // A change to a batch that already was: swapped in where the page has it, never put at the top of the list
    // (a batch older than the page's first rows would jump there, out of order).
    expect(last.parent).toBeUndefined();
    expect(last.position).toBeUndefined();
  });

  it('names the list to put a client, its picker option and its businesses in only when they are new', async () => {
    const sandbox = await sandboxFor();
    const events = await readyEvents(sandbox);
    const made = await call(sandbox, 'POST', '/__sandbox/clients', { body: { name: 'Fresh Tenant' } });
    expect(made.status).toBe(201);
    const { clientId } = made.body.data as { clientId: string };
    const frame = await events.next('patch', hasPatch(`client-${clientId}`));
    expect(patchIn(frame, `client-${clientId}`)).toMatchObject({ parent: 'clients', position: 'append' });
    expect(patchIn(frame, `pick-${clientId}`)).toMatchObject({ parent: 'client-picker', position: 'append' });
    const business = patchesOf(frame).find((p) => p.id.startsWith('bizopt-'));
    expect(business).toMatchObject({ parent: 'business-filter', position: 'append' });
    // The option carries the business's balances, for the line beside the filter.
    expect(business?.html).toMatch(
      /data-balances="Fresh Tenant Business: available ₦[\d,.]+, ledger ₦[\d,.]+"/,
    );

    // Its balance set: the same rows again, in place.
    const businessId = business?.id.slice('bizopt-'.length) ?? '';
    expect(
      (
        await call(sandbox, 'PUT', `/__sandbox/businesses/${businessId}/balance`, {
          body: { balance: 12_345 },
        })
      ).status,
    ).toBe(200);
    const again = await events.next(
      'patch',
      hasPatch(`bizopt-${businessId}`, (p) => p.html.includes('₦123.45')),
    );
    for (const id of [`client-${clientId}`, `pick-${clientId}`, `bizopt-${businessId}`])
      expect(patchIn(again, id)).not.toHaveProperty('parent');
    expect(patchIn(again, `bizopt-${businessId}`).html).toContain('available ₦123.45, ledger ₦123.45');
  });

  it('sends each record once per frame however often it changed', async () => {
    const sandbox = await sandboxFor({ bulkItemDelay: 0 });
    const events = await readyEvents(sandbox);
    const batch = await create(sandbox, transfers(50), keysA1, 'Busy batch');
    const id = `batch-${batch.id}`;
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    await sandbox.drain();
    await events.next(
      'patch',
      hasPatch(id, (p) => p.html.includes('50 completed · 0 failed · 0 pending of 50')),
    );

    const patchEvents = events.seen.filter((e) => e.event === 'patch');
    for (const e of patchEvents) {
      const ids = patchesOf(e).map((p) => p.id);
      expect(new Set(ids).size, `duplicate ids in one patch event: ${ids.join(', ')}`).toBe(ids.length);
    }
    // 50 items moved the batch's counters 50 times (and created it once); the page saw far fewer rows.
    const batchPatches = patchEvents.filter(hasPatch(id)).length;
    expect(batchPatches).toBeGreaterThanOrEqual(1);
    expect(batchPatches).toBeLessThan(50);
  });

  it('sends request rows for API calls, never for the dashboard itself', async () => {
    const sandbox = await sandboxFor();
    const events = await readyEvents(sandbox);
    // The dashboard's own requests first: they would be in this frame or an earlier one.
    await page(sandbox);
    expect((await sandbox.app.request('/__sandbox/ui/assets/app.js')).status).toBe(200);
    expect((await sandbox.app.request('/__sandbox/ui/assets/nope.css')).status).toBe(404);
    expect((await call(sandbox, 'GET', '/__sandbox/health')).status).toBe(200);
    const headers = await ownerHeaders(sandbox);
    const res = await call(sandbox, 'GET', '/api/v1/clients/business', { headers });
    expect(res.status).toBe(200);

    const found = await events.next('requests', (e) =>
      (JSON.parse(e.data) as string).includes('data-path="/api/v1/clients/business"'),
    );
    const rows = JSON.parse(found.data) as string;
    const row = rowWith(rows, 'data-path="/api/v1/clients/business"');
    expect(row).toContain(`data-client="${A.id}"`);
    expect(row).toContain('data-code="200"');
    expect(row).toContain('<td>GET</td>');
    expect(row).toContain(`<td class="path">/api/v1/clients/business</td>`);

    const all = events.seen.filter((e) => e.event === 'requests').map((e) => JSON.parse(e.data) as string);
    const joined = all.join('');
    expect(joined).toContain('data-path="/__sandbox/health"');
    expect(joined).toContain('data-path="/api/v1/auth/signin"');
    expect(joined).not.toContain('/__sandbox/ui');
  });

  it('patches the scenario panel when the active scenario changes', async () => {
    const sandbox = await sandboxFor();
    const events = await readyEvents(sandbox);
    expect((await call(sandbox, 'PUT', '/__sandbox/scenario', { body: { name: 'happy-path' } })).status).toBe(
      200,
    );
    const panel = patchIn(await events.next('patch', hasPatch('scenario-panel')), 'scenario-panel');
    expect(panel.html).toContain('data-scenario="happy-path"');
  });

  it('says reload after a reset and after a state import, and goes on afterwards', async () => {
    const sandbox = await sandboxFor();
    const events = await readyEvents(sandbox);

    expect((await call(sandbox, 'POST', '/__sandbox/reset')).status).toBe(200);
    expect((await events.next('reload')).data).toBe('{}');

    const state = await call(sandbox, 'GET', '/__sandbox/state');
    expect(state.status).toBe(200);
    const imported = await call(sandbox, 'PUT', '/__sandbox/state', { body: state.body });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    await events.next('reload');

    expect((await call(sandbox, 'POST', `/__sandbox/businesses/${A.a2.id}/approve`)).status).toBe(200);
    await events.next('patch', hasPatch(`client-${A.id}`));
  });

  it('renders each frame once: every page watching gets the same events, and one listener serves them all', async () => {
    const sandbox = await sandboxFor();
    const before = storeListeners(sandbox);
    const pages = await Promise.all(Array.from({ length: 5 }, () => readyEvents(sandbox)));
    expect(storeListeners(sandbox)).toBe(before + 1);

    const set = await call(sandbox, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, {
      body: { balance: 4242 },
    });
    expect(set.status).toBe(200);
    const seen = await Promise.all(
      pages.map((page) =>
        page.next(
          'patch',
          hasPatch(`client-${A.id}`, (p) => p.html.includes('₦42.42')),
        ),
      ),
    );
    for (const event of seen) expect(event.data).toBe(seen[0]?.data);

    for (const page of pages.slice(1)) await page.cancel();
    expect(storeListeners(sandbox)).toBe(before + 1);
    await pages[0]?.cancel();
    expect(storeListeners(sandbox)).toBe(before);
  });

  it('holds the next frame while the last one is still on its way to the pages, and sends what changed with the one after', async () => {
    const sandbox = await sandboxFor();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    cleanups.push(async () => {
      vi.useRealTimers();
    });
    // One page more than a turn's slice: a frame reaches the last page a turn after it was sent.
    const pages = await Promise.all(Array.from({ length: PAGES_PER_TURN + 1 }, () => readyEvents(sandbox)));
    const last = pages.at(-1);
    if (!last) throw new Error('no page');
    const frozen = (value: boolean) => (p: Patch) => p.html.includes(`data-frozen="${value}"`);

    void sandbox.clock.freeze(true);
    vi.advanceTimersByTime(FLUSH_MS); // the frozen clock, still on its way to the last page
    void sandbox.clock.freeze(false);
    vi.advanceTimersByTime(FLUSH_MS); // held: the running clock waits for the next frame
    await last.next('patch', hasPatch('clock-panel', frozen(true)));
    const set = await call(sandbox, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, {
      body: { balance: 4242 },
    });
    expect(set.status).toBe(200);
    vi.advanceTimersByTime(FLUSH_MS);
    await last.next('patch', hasPatch('clock-panel', frozen(false)));

    // The running clock came with the balance, after it (a frame's rows come before its panels); a frame sent at the
    // second tick would have put it before.
    const at = (test: (e: SseEvent) => boolean) => last.seen.findIndex((e) => e.event === 'patch' && test(e));
    const balance = at(hasPatch(`client-${A.id}`, (p) => p.html.includes('₦42.42')));
    expect(balance).toBeGreaterThan(at(hasPatch('clock-panel', frozen(true))));
    expect(at(hasPatch('clock-panel', frozen(false)))).toBeGreaterThan(balance);
  });

  it('after a frame bigger than its share of PAGE_BYTES_PER_SECOND, holds the next changes for as many ticks', async () => {
    const sandbox = await sandboxFor();
    const events = await steppedEvents(sandbox);
    const ready = events.seen.length;
    // A big frame: a dozen batches and the requests that made them.
    for (let i = 0; i < 12; i++) await create(sandbox, transfers(1), keysA1, `Held batch ${i}`);
    events.flush();
    await events.next('requests');
    const big = events.seen.slice(ready);
    const bytes = big.reduce((n, e) => n + Buffer.byteLength(`event: ${e.event}\ndata: ${e.data}\n\n`), 0);
    const resting = Math.ceil(bytes / ((PAGE_BYTES_PER_SECOND * FLUSH_MS) / 1000)) - 1;
    expect(resting, `a frame of ${bytes} bytes`).toBeGreaterThanOrEqual(1);

    // A change during the first resting tick, another one after it: they come together, in the first frame after
    // the rest, and not a tick sooner.
    expect((await call(sandbox, 'POST', `/__sandbox/businesses/${A.a2.id}/approve`)).status).toBe(200);
    events.flush();
    const balance = await call(sandbox, 'PUT', `/__sandbox/businesses/${B.b1.id}/balance`, {
      body: { balance: 777 },
    });
    expect(balance.status).toBe(200);
    for (let tick = 1; tick <= resting; tick++) events.flush();
    const next = await events.next('patch');
    expect(events.seen.indexOf(next)).toBe(ready + big.length);
    expect(patchIn(next, `client-${A.id}`).html).toContain('<span class="badge ok">approved</span>');
    expect(patchIn(next, `client-${B.id}`).html).toContain('₦7.77');
  });

  it('rests at most MAX_REST_TICKS after a frame, however big it was', async () => {
    const sandbox = await sandboxFor();
    const { account } = await webhookSetup(sandbox, null, { type: 'permanent', reference: 'dash-rest' });
    const events = await steppedEvents(sandbox);
    const ready = events.seen.length;
    // A frame of far more than MAX_REST_TICKS ticks' share: many delivery rows, each with its payload.
    for (let i = 0; i < 60; i++)
      expect(
        (await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 100 + i })).status,
      ).toBe(201);
    events.flush();
    await events.next('requests');
    const bytes = events.seen
      .slice(ready)
      .reduce((n, e) => n + Buffer.byteLength(`event: ${e.event}\ndata: ${e.data}\n\n`), 0);
    expect(bytes, 'the big frame').toBeGreaterThan(
      (MAX_REST_TICKS + 2) * ((PAGE_BYTES_PER_SECOND * FLUSH_MS) / 1000),
    );

    const balance = await call(sandbox, 'PUT', `/__sandbox/businesses/${B.b1.id}/balance`, {
      body: { balance: 778 },
    });
    expect(balance.status).toBe(200);
    // The rest, and the tick after it: the change comes (without the bound, the rest would last many more ticks).
    for (let tick = 1; tick <= MAX_REST_TICKS; tick++) events.flush();
    events.flush();
    expect(patchIn(await events.next('patch', hasPatch(`client-${B.id}`)), `client-${B.id}`).html).toContain(
      '₦7.78',
    );
  });

  it('sends at most REQUESTS_PER_FRAME requests a frame, the newest', async () => {
    const sandbox = await sandboxFor();
    const events = await readyEvents(sandbox);
    for (let i = 0; i < REQUESTS_PER_FRAME * 3; i++) await call(sandbox, 'GET', '/__sandbox/health');
    // The last one, on a path of its own: the frame that carries it is the last of them.
    await call(sandbox, 'GET', '/__sandbox/clock');
    const rowsOf = (e: { data: string }) => (JSON.parse(e.data) as string).match(/<tr /g)?.length ?? 0;
    await events.next('requests', (e) => e.data.includes('data-path=\\"/__sandbox/clock\\"'));
    const frames = events.seen.filter((e) => e.event === 'requests');
    for (const frame of frames) expect(rowsOf(frame)).toBeLessThanOrEqual(REQUESTS_PER_FRAME);
    // However the requests fell into frames, some of the 61 were left out of them.
    expect(frames.reduce((sum, f) => sum + rowsOf(f), 0)).toBeLessThan(REQUESTS_PER_FRAME * 3 + 1);
  });

  it('ends when the reader cancels; later changes still work, and a new stream does too', async () => {
    const sandbox = await sandboxFor();
    const before = storeListeners(sandbox);
    const first = await readyEvents(sandbox);
    expect(storeListeners(sandbox)).toBe(before + 1);

    await first.cancel();
    expect(storeListeners(sandbox)).toBe(before);
    expect((await first.reader.read()).done).toBe(true);

    const approved = await call(sandbox, 'POST', `/__sandbox/businesses/${A.a2.id}/approve`);
    expect(approved.status).toBe(200);

    const second = await readyEvents(sandbox);
    expect(storeListeners(sandbox)).toBe(before + 1);
    const set = await call(sandbox, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, {
      body: { balance: 100 },
    });
    expect(set.status).toBe(200);
    const patch = await second.next(
      'patch',
      hasPatch(`client-${A.id}`, (p) => p.html.includes('₦1.00')),
    );
    // The approval before this stream opened is in its rows all the same (a block is rendered whole).
    expect(businessRow(patchIn(patch, `client-${A.id}`).html, A.a2.id)).toContain('badge ok');
  });

  it("sums a business's ledger afresh once a page comes back after every page left, having missed the changes meanwhile", async () => {
    const sandbox = await sandboxFor();
    /** A1's balance and ledger cells in the next client block that patches A, after `change`. */
    const cellsAfter = async (
      page: Awaited<ReturnType<typeof readyEvents>>,
      change: () => Promise<unknown>,
    ) => {
      await change();
      const row = businessRow(
        patchIn(await page.next('patch', hasPatch(`client-${A.id}`)), `client-${A.id}`).html,
        A.a1.id,
      );
      return [/class="num balance">([^<]+)</.exec(row)?.[1], /class="num ledger">([^<]+)</.exec(row)?.[1]];
    };
    const headers = await ownerHeaders(sandbox);
    const pay = async () => expect((await sendTransfer(sandbox, headers)).status).toBe(200);

    const first = await readyEvents(sandbox);
    const [balance, ledger] = await cellsAfter(first, pay);
    expect(ledger).toBe(balance);
    await first.cancel();
    await pay(); // heard by no feed
    const second = await readyEvents(sandbox);
    const [balanceNow, ledgerNow] = await cellsAfter(second, pay);
    expect(balanceNow).not.toBe(balance);
    expect(ledgerNow).toBe(balanceNow);
  });
});

// ------------------------------------------------------------------ the live stream: the new sections

describe('GET /__sandbox/ui/events, the new sections', () => {
  it('patches a transfer into transactions, with its amount, status, counterparty and references', async () => {
    const sandbox = await sandboxFor();
    const headers = await ownerHeaders(sandbox);
    const events = await steppedEvents(sandbox);
    const retrievalReference = ref('live');
    const sent = await sendTransfer(sandbox, headers, {
      amount: 150000,
      retrievalReference,
      narration: 'Invoice 42',
    });
    expect(sent.status).toBe(200);
    // The answer carries no reference: the ledger entry's id is the transaction reference the row shows.
    const { id: transactionReference } = await transferEntry(sandbox, retrievalReference);
    const id = `tx-${transactionReference}`;

    events.flush();
    const row = patchIn(await events.next('patch', hasPatch(id)), id);
    expect(row.parent).toBe('transactions');
    expect(row.position).toBe('prepend');
    expect(row.html).toContain(
      `<tr id="${id}" data-client="${A.id}" data-business="${A.a1.id}" data-status="successful">`,
    );
    expect(row.html).toContain(`<td>${esc(A.a1.businessName)}</td>`);
    expect(row.html).toContain('−₦1,500.00<div class="muted">fee ₦10.75</div>');
    expect(row.html).toContain('<span class="badge successful">successful</span>');
    expect(row.html).not.toContain('class="error"');
    expect(row.html).toContain(`${RECEIVER}<div class="muted">bank ${BANK}</div>`);
    expect(row.html).toContain(`<div>${transactionReference}</div>`);
    expect(row.html).toContain(`retrieval ${retrievalReference}`);
    expect(row.html).toContain('“Invoice 42”');
    // Balance after: 5 000 000.00 less 1 500.00 and the fee.
    expect(row.html).toContain(`<td class="num">${formatKobo(500_000_000 - 151_075)}</td>`);
  });

  it('sends at most ENTRIES_PER_FRAME new ledger entries a frame, the newest', async () => {
    const sandbox = await sandboxFor({ bulkItemDelay: 0 });
    const count = ENTRIES_PER_FRAME + 10;
    const batch = await create(sandbox, transfers(count), keysA1, 'Many entries');
    // The frames wait for the test: all the entries fall into one frame, whatever the machine's speed.
    const events = await steppedEvents(sandbox);
    const before = new Set(sandbox.store.all('transactions').map((t) => t.id));
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    await sandbox.drain();
    const entries = sandbox.store.all('transactions').filter((t) => !before.has(t.id));
    expect(entries.length).toBeGreaterThanOrEqual(count);
    events.flush();
    const frame = await events.next('patch', (e) => patchesOf(e).some((p) => p.id.startsWith('tx-')));
    const sent = patchesOf(frame)
      .filter((p) => p.id.startsWith('tx-'))
      .map((p) => p.id);
    expect(sent).toEqual(entries.slice(-ENTRIES_PER_FRAME).map((t) => `tx-${t.id}`));
  });

  it('patches a failed transfer with its error code and message, its balance unchanged', async () => {
    const sandbox = await sandboxFor();
    const headers = await ownerHeaders(sandbox);
    const events = await steppedEvents(sandbox);
    const retrievalReference = ref('fail');
    const failed = await sendTransfer(sandbox, headers, {
      receiverAccountNumber: FAILING_ACCOUNT,
      retrievalReference,
    });
    expect(failed.status).toBe(400);
    expect(failed.body).toStrictEqual({ status: false, message: 'Insufficient Funds', data: null });
    const entry = await transferEntry(sandbox, retrievalReference);
    expect(entry).toMatchObject({ status: 'failed', errorCode: '51', errorMessage: 'Insufficient Funds' });
    const id = `tx-${entry.id}`;

    events.flush();
    const row = patchIn(await events.next('patch', hasPatch(id)), id);
    expect(row.html).toContain(
      `<tr id="${id}" data-client="${A.id}" data-business="${A.a1.id}" data-status="failed">`,
    );
    expect(row.html).toContain(
      '<span class="badge failed">failed</span><div class="error">51 Insufficient Funds</div>',
    );
    expect(row.html).toContain(`${FAILING_ACCOUNT}<div class="muted">bank ${BANK}</div>`);
    expect(row.html).toContain(`retrieval ${retrievalReference}`);
    expect(row.html).toContain('<span class="muted">unchanged</span>');
  });

  it('renders and patches outbox messages with the OTP or invitation token in data-copy', async () => {
    const sandbox = await sandboxFor();
    const headers = await ownerHeaders(sandbox);
    const events = await steppedEvents(sandbox);
    // The registration OTP is sent when a BVN is validated for a business.
    const validated = await call(sandbox, 'POST', '/api/v1/clients/business/validate-bvn', {
      headers,
      body: { bvn: '12345678901', businessId: A.a2.id },
    });
    expect(validated.status).toBe(200);
    const invitee = 'dash.viewer@adebayo.test';
    const invited = await call(sandbox, 'POST', MEMBERS, {
      headers,
      body: { email: invitee, memberRoleId: VIEWER },
    });
    expect(invited.status).toBe(201);
    const sent = await call(sandbox, 'GET', '/__sandbox/outbox');
    expect(sent.status).toBe(200);
    const messages = pageOf(sent, outboxMessage).data;
    const otp = messages.find((m) => m.type === 'bvn_otp' && m.to === A.owner.email);
    const invitation = messages.find((m) => m.type === 'member_invitation' && m.to === invitee);
    if (!otp?.data.otp || !invitation?.data.authorizationToken) throw new Error('no OTP or invitation sent');

    events.flush();
    await events.next('patch', hasPatch(`msg-${invitation.id}`));
    const html = await page(sandbox);
    for (const [message, code, kind, label] of [
      [otp, otp.data.otp, 'BVN OTP', 'OTP'],
      [invitation, invitation.data.authorizationToken, 'member invitation', 'invitation token'],
    ] as const) {
      const id = `msg-${message.id}`;
      const patch = lastPatch(events.seen, id);
      expect(patch.parent).toBe('outbox');
      expect(patch.position).toBe('prepend');
      for (const row of [patch.html, rowWith(html, `id="${id}"`)]) {
        expect(row).toContain(`<tr id="${id}" data-client="${A.id}">`);
        expect(row).toContain(`<td>${kind}</td><td>${esc(message.to)}</td>`);
        expect(row).toContain(`<code class="secret">${esc(code)}</code><div class="muted">${label}</div>`);
        expect(row).toContain(
          `data-copy="${esc(code)}" aria-label="Copy the ${label} sent to ${esc(message.to)}">Copy</button>`,
        );
      }
    }
  });

  it('shows a single-use account with the amount it takes, and patches it to used once paid', async () => {
    const sandbox = await sandboxFor();
    const headers = await ownerHeaders(sandbox);
    const opened = await call(sandbox, 'POST', '/api/v1/clients/business/virtual-accounts/single-use', {
      headers,
      body: { firstName: 'Ada', lastName: 'Obi', refCode: 'dash-single', amount: 500_000, duration: 3600 },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const { accountNumber } = dataOf(opened, singleUseAccount);
    const id = `varow-${await virtualAccountId(sandbox, accountNumber)}`;
    const html = await page(sandbox);
    const row = html.slice(
      html.indexOf(`<tr id="${id}"`),
      html.indexOf('</tr>', html.indexOf(`<tr id="${id}"`)),
    );
    expect(row).toContain('single-use');
    expect(row).toContain('takes ₦5,000.00 once');
    // Open: its expiry in words, no badge yet.
    expect(row).toContain('class="expiry"');
    expect(row).not.toContain('badge used');

    const events = await steppedEvents(sandbox);
    expect((await incomingPayment(sandbox, { accountNumber, amount: 500_000 })).status).toBe(201);
    events.flush();
    const used = patchIn(
      await events.next(
        'patch',
        hasPatch(id, (p) => p.html.includes('badge used')),
      ),
      id,
    );
    expect(used.html).toContain('<span class="badge used">used</span>');
    expect(used.html).not.toContain('class="expiry"');
  });

  it('patches a dispute with Resolve and Reject while open, and again without them once resolved', async () => {
    const sandbox = await sandboxFor();
    const headers = await ownerHeaders(sandbox);
    const retrievalReference = ref();
    const sent = await sendTransfer(sandbox, headers, { retrievalReference });
    expect(sent.status).toBe(200);
    const transactionId = (await transferEntry(sandbox, retrievalReference)).id;
    const events = await steppedEvents(sandbox);
    const opened = await call(sandbox, 'POST', DISPUTES, {
      headers,
      body: { transactionId, description: 'Goods never arrived' },
    });
    expect(opened.status).toBe(201);
    const disputeId = await disputeIdOf(sandbox, headers, transactionId);
    const id = `dispute-${disputeId}`;
    const resolve = `data-call="POST /__sandbox/disputes/${disputeId}/resolve"`;
    const reject = `data-call="POST /__sandbox/disputes/${disputeId}/reject"`;

    events.flush();
    const open = patchIn(await events.next('patch', hasPatch(id)), id);
    expect(open.parent).toBe('disputes');
    expect(open.position).toBe('prepend');
    expect(open.html).toContain(`<tr id="${id}" data-client="${A.id}" data-status="open">`);
    expect(open.html).toContain(`<td class="refs">${transactionId}</td><td>Goods never arrived</td>`);
    expect(open.html).toContain('<span class="badge open">open</span>');
    expect(open.html).toContain(`${resolve}>Resolve</button>`);
    expect(open.html).toContain(`${reject}>Reject</button>`);

    expect((await call(sandbox, 'POST', `/__sandbox/disputes/${disputeId}/resolve`)).status).toBe(200);
    events.flush();
    const resolved = patchIn(
      await events.next(
        'patch',
        hasPatch(id, (p) => p.html.includes('data-status="resolved"')),
      ),
      id,
    );
    expect(resolved.html).toContain('<span class="badge resolved">resolved</span>');
    expect(resolved.html).not.toContain(resolve);
    expect(resolved.html).not.toContain(reject);
    expect(resolved.html).not.toContain('>Resolve<');
    const { resolvedAt } = sandbox.store.get('disputes', disputeId) ?? {};
    expect(resolvedAt).toEqual(expect.any(String));
    expect(resolved.html).toContain(`<div class="muted">${String(resolvedAt).slice(11, 23)}</div>`);
  });

  it('patches the clock panel when the clock is advanced and when it is frozen', async () => {
    const sandbox = await sandboxFor();
    const events = await steppedEvents(sandbox);
    expect(
      (await call(sandbox, 'POST', '/__sandbox/clock/advance', { body: { ms: 3_600_000 } })).status,
    ).toBe(200);
    events.flush();
    const advanced = patchIn(await events.next('patch', hasPatch('clock-panel')), 'clock-panel');
    expect(advanced.parent).toBeUndefined();
    expect(advanced.html).toMatch(
      /^<div id="clock-panel" data-frozen="false" data-offset-ms="3600000" data-now="\d+" data-end="253402300799999">/,
    );
    expect(advanced.html).toContain('1 h ahead of real time');
    expect(advanced.html).toContain('data-body="{&quot;frozen&quot;:true}">Freeze</button>');

    expect((await call(sandbox, 'POST', '/__sandbox/clock/freeze', { body: { frozen: true } })).status).toBe(
      200,
    );
    events.flush();
    const frozen = patchIn(
      await events.next(
        'patch',
        hasPatch('clock-panel', (p) => p.html.includes('data-frozen="true"')),
      ),
      'clock-panel',
    );
    const now = Date.parse(sandbox.clock.describe().now);
    expect(frozen.html).toContain(`data-now="${now}"`);
    expect(frozen.html).toContain('<span class="badge frozen">frozen</span>');
    expect(frozen.html).toContain('1 h ahead of real time');
    expect(frozen.html).toContain('data-body="{&quot;frozen&quot;:false}">Let it run</button>');
    expect(frozen.html).not.toContain('>Freeze<');
  });

  it("shows a delivery's headers with AUTH-KEY masked, its payload, and while pending its next attempt", async () => {
    const sandbox = await sandboxFor({ ...FAST, webhookRetryBase: 60_000 });
    const { account } = await webhookSetup(sandbox, await refusedUrl(), {
      type: 'permanent',
      reference: 'dash-hook',
    });
    const events = await steppedEvents(sandbox);
    const paid = await incomingPayment(sandbox, { accountNumber: account.accountNumber, amount: 250000 });
    expect(paid.status).toBe(201);
    const { deliveryId } = dataOf(paid, paymentReceived);
    await attemptsRecorded(sandbox, deliveryId, 1);
    const stored = await delivery(sandbox, deliveryId);
    expect(stored.status).toBe('pending');
    expect(stored.attemptsLeft).toBeGreaterThan(0);
    const id = `delivery-${deliveryId}`;

    events.flush();
    const patch = patchIn(
      await events.next(
        'patch',
        hasPatch(id, (p) => p.html.includes('<li class="bad"')),
      ),
      id,
    );
    const html = await page(sandbox);
    for (const row of [deliveryRow(patch.html, deliveryId), deliveryRow(html, deliveryId)]) {
      expect(row).toContain(`data-client="${A.id}" data-status="pending"`);
      expect(row).toContain(`next attempt <time class="rel" datetime="${stored.nextAttemptAt}"`);
      expect(row).toContain(`, ${stored.attemptsLeft} left</div>`);
      const headersShown = slice(row, '<table class="pairs">', '</table>');
      expect(headersShown).toContain('<tr><th>content-type</th><td>application/json</td></tr>');
      expect(headersShown).toContain(`<tr><th>AUTH-KEY</th><td>****${A.webhookAuthKey.slice(-4)}</td></tr>`);
      expect(headersShown).toContain(
        `<tr><th>user-agent</th><td>banking-sandbox-webhooks/${version}</td></tr>`,
      );
      expect(row).toContain('&quot;amount&quot;: 250000,');
      expect(row).toContain(`&quot;recipientAccountNumber&quot;: &quot;${account.accountNumber}&quot;`);
    }
    // The real key is nowhere: not in the page, not in anything the stream sent.
    expect(html).not.toContain(A.webhookAuthKey);
    expect(html).not.toContain(A.webhookAuthKey.slice(0, -4));
    for (const e of events.seen) expect(e.data).not.toContain(A.webhookAuthKey.slice(0, -4));
  });
});

// ------------------------------------------------------------------ --control-token

describe('the dashboard behind --control-token', () => {
  const TOKEN = 'secret';
  const cookie = { cookie: `sandbox_token=${TOKEN}` };
  const expect401 = (res: { status: number; body: unknown }, label: string) => {
    expect(res.status, label).toBe(401);
    expect(res.body, label).toEqual({
      status: false,
      message: 'x-sandbox-token is missing or wrong',
      data: null,
    });
  };

  it('refuses the page without a token or with a wrong one', async () => {
    const sandbox = await sandboxFor({ controlToken: TOKEN });
    expect401(await call(sandbox, 'GET', UI), 'no token');
    expect401(await call(sandbox, 'GET', `${UI}?token=wrong`), 'wrong ?token=');
    expect401(await call(sandbox, 'GET', `${UI}?token=`), 'empty ?token=');
    expect401(await call(sandbox, 'GET', UI, { headers: { cookie: 'sandbox_token=wrong' } }), 'wrong cookie');
    expect401(await call(sandbox, 'GET', EVENTS, { headers: { cookie: 'sandbox_token=wrong' } }), 'events');
    expect401(await call(sandbox, 'GET', '/__sandbox/ui/assets/app.js'), 'asset');
  });

  it('turns ?token= on the page into an HttpOnly, SameSite=Strict cookie for /__sandbox, and a 303', async () => {
    const sandbox = await sandboxFor({ controlToken: TOKEN });
    const res = await sandbox.app.request(`${UI}?token=${TOKEN}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(UI);
    const setCookie = res.headers.get('set-cookie') ?? '';
    const [pair, ...attributes] = setCookie.split(';').map((part) => part.trim());
    expect(pair).toBe(`sandbox_token=${TOKEN}`);
    const lower = attributes.map((a) => a.toLowerCase());
    expect(lower).toContain('httponly');
    expect(lower).toContain('samesite=strict');
    expect(lower).toContain('path=/__sandbox');
    // The token is not echoed in the page it redirects to.
    expect(res.headers.get('location')).not.toContain(TOKEN);
  });

  it('lets the cookie open the page, the stream and the other control routes', async () => {
    const sandbox = await sandboxFor({ controlToken: TOKEN });
    const html = await page(sandbox, cookie);
    expect(html.startsWith('<!doctype html>')).toBe(true);

    const events = await openEvents(sandbox, cookie);
    expect(events.response.status).toBe(200);
    expect(events.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await events.next('ready');

    const asset = await sandbox.app.request('/__sandbox/ui/assets/style.css', { headers: cookie });
    expect(asset.status).toBe(200);
    const credentials = await call(sandbox, 'GET', '/__sandbox/credentials', { headers: cookie });
    expect(credentials.status).toBe(200);
    expect(credentials.body.status).toBe(true);
    const approved = await call(sandbox, 'POST', `/__sandbox/businesses/${A.a2.id}/approve`, {
      headers: cookie,
    });
    expect(approved.status).toBe(200);
    await events.next('patch', hasPatch(`client-${A.id}`));
  });

  it('does not take ?token= on any other control route', async () => {
    const sandbox = await sandboxFor({ controlToken: TOKEN });
    for (const path of [
      '/__sandbox/credentials',
      '/__sandbox/health',
      EVENTS,
      '/__sandbox/ui/assets/app.js',
      '/__sandbox/state',
    ]) {
      const res = await call(sandbox, 'GET', `${path}?token=${TOKEN}`);
      expect401(res, path);
      expect(res.headers.get('set-cookie'), path).toBeNull();
    }
    const reset = await call(sandbox, 'POST', `/__sandbox/reset?token=${TOKEN}`);
    expect401(reset, 'POST /reset');
    // Only a GET of the page itself takes it.
    const posted = await call(sandbox, 'POST', `${UI}?token=${TOKEN}`);
    expect401(posted, 'POST /ui');
    expect(posted.headers.get('set-cookie')).toBeNull();
  });
});

describe('the drift section', () => {
  it('without --upstream: folded, saying how to start one', async () => {
    const sandbox = await sandboxFor();
    const html = await page(sandbox);
    expect(isOpen(html, 'sec-drift')).toBe(false);
    expect(slice(html, '<div id="drift-panel"', '</div>')).toContain('No upstream: this sandbox answers');
  });

  it('with --upstream: open, and the feed renders it again with each finding as calls go through', async () => {
    const bank = await startFakeUpstream(() => ({
      status: 200,
      body: { status: true, message: 'Audit log retrieved successfully', data: { id: 'x' } },
    }));
    cleanups.push(() => bank.close());
    const sandbox = await sandboxFor({ upstream: bank.base });
    const html = await page(sandbox);
    expect(isOpen(html, 'sec-drift')).toBe(true);
    expect(slice(html, '<div id="drift-panel"', '</div>')).toContain('No call forwarded yet.');
    const events = await steppedEvents(sandbox);
    await call(sandbox, 'GET', '/api/v1/clients/business/audits/a1', {
      headers: { 'x-request-id': 'drift-ui-1' },
    });
    events.flush();
    const panel = patchIn(await events.next('patch', hasPatch('drift-panel')), 'drift-panel').html;
    expect(panel).toContain(`data-upstream="${bank.base}"`);
    expect(panel).toContain('GET /clients/business/audits/{auditId}');
    expect(panel).toContain(
      '<li data-kind="missing-field"><strong>missing-field</strong> at <code>data.email</code>',
    );
    expect(panel).toContain('<code>drift-ui-1</code>');
  });
});

describe('the sandbox picker: every isolated sandbox has a dashboard of its own', () => {
  /** The picker's `<select>` as rendered. */
  const pickerOf = (html: string) => slice(html, '<span id="sandbox-panel"', '</span>');

  it('lists the root and every isolated sandbox, the one shown selected; each page shows its own state', async () => {
    const root = await sandboxFor();
    const world = await root.isolate({ id: 'picked' });
    await root.isolate({ id: 'other' });
    const mine = await world.newClient({ name: 'Only In The World' });

    const rootPage = await page(root);
    expect(rootPage).toContain('<meta name="sandbox-base" content=""/>');
    const rootPicker = pickerOf(rootPage);
    expect(rootPicker).toContain('<option value="/__sandbox/ui" selected="">root (persistent)</option>');
    expect(rootPicker).toContain('<option value="/sandboxes/picked/__sandbox/ui">picked (isolated)</option>');
    expect(rootPicker).toContain('<option value="/sandboxes/other/__sandbox/ui">other (isolated)</option>');
    expect(rootPage).not.toContain(mine.clientId);

    const worldPage = await page(world);
    expect(worldPage).toContain('<meta name="sandbox-base" content="/sandboxes/picked"/>');
    expect(pickerOf(worldPage)).toContain(
      '<option value="/sandboxes/picked/__sandbox/ui" selected="">picked (isolated)</option>',
    );
    expect(worldPage).toContain(mine.clientId);
    // Its client picker sends the browser back to its own page.
    expect(worldPage).toContain('action="/sandboxes/picked/__sandbox/ui"');
  });

  it('is live: a sandbox made or deleted patches the picker of every page watching', async () => {
    const root = await sandboxFor();
    const events = await readyEvents(root);
    const made = await root.isolate({ id: 'new-one' });
    const added = await events.next(
      'patch',
      hasPatch('sandbox-panel', (p) => p.html.includes('new-one')),
    );
    expect(patchIn(added, 'sandbox-panel').html).toContain('data-count="1"');
    await made.dispose();
    const removed = await events.next(
      'patch',
      hasPatch('sandbox-panel', (p) => !p.html.includes('new-one')),
    );
    expect(patchIn(removed, 'sandbox-panel').html).toContain('data-count="0"');
  });

  it('an isolated sandbox’s feed carries its own changes, and tells its pages to reload when it is deleted', async () => {
    const root = await sandboxFor();
    const world = await root.isolate({ id: 'watched' });
    const rootEvents = await readyEvents(root);
    const events = await readyEvents(world);
    const set = await call(world, 'PUT', `/__sandbox/businesses/${A.a1.id}/balance`, {
      body: { balance: 4200 },
    });
    expect(set.status).toBe(200);
    await events.next(
      'patch',
      hasPatch(`client-${A.id}`, (p) => p.html.includes(formatKobo(4200))),
    );
    await world.dispose();
    await events.next('reload');
    // And the stream ends there: nothing is left open on a world that is gone.
    await expect(events.next('patch')).rejects.toThrow('the stream ended');
    // The root's page heard none of the world's changes, only that the picker lost it.
    expect(
      rootEvents.seen
        .filter((e) => e.event === 'patch')
        .flatMap(patchesOf)
        .map((p) => p.id),
    ).not.toContain(`client-${A.id}`);
  });
});

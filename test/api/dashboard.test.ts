import { afterEach, describe, expect, it } from 'vitest';
import clients from '../../fixtures/clients.json' with { type: 'json' };
import { virtualAccount } from '../../src/api/virtual-accounts/schemas.js';
import { paymentReceived } from '../../src/control/incoming-payments/schemas.js';
import { approvedBusiness } from '../../src/control/money/schemas.js';
import { readyScenarios } from '../../src/control/scenarios/schemas.js';
import { virtualAccount as listedVirtualAccount } from '../../src/control/virtual-accounts/schemas.js';
import { REQUESTS_PER_FRAME } from '../../src/dashboard/live.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox.js';
import { dataOf, pageOf } from '../support/answers.js';
import { bulkHelpers, keysA1, processBatch } from '../support/bulk.js';
import { A, call, memorySandbox, ownerHeaders } from '../support/sandbox.js';
import { incomingPayment, webhookSetup } from '../support/webhooks.js';

// The live dashboard at /__sandbox/ui: the server-rendered page, its assets, the server-sent events that keep
// it current, and how --control-token reaches it through the `sandbox_token` cookie.

const UI = '/__sandbox/ui';
const EVENTS = '/__sandbox/ui/events';
/** How long a test waits for one event before it fails. */
const WAIT_MS = 5000;
/** A receiver account the default scenario fails with 51 Insufficient Funds. */
const FAILING_ACCOUNT = '0000000051';

const { transfer, transfers, create } = bulkHelpers({
  label: 'dash',
  narration: 'Dashboard payment',
  batchName: 'Dashboard batch',
});

/** Cancels streams and closes sandboxes after each test, the newest first. */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sandboxFor(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await memorySandbox(options);
  cleanups.push(() => sandbox.close());
  return sandbox;
}

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

const clientSection = (html: string, clientId: string) =>
  slice(html, `<section class="client" id="client-${clientId}">`, '</section>');
const businessRow = (html: string, businessId: string) =>
  slice(html, `<tr data-business="${businessId}">`, '</tr>');
const batchRow = (html: string, batchId: string) => slice(html, `<tr id="batch-${batchId}"`, '</tr>');
const approveButton = (businessId: string) => `data-call="POST /__sandbox/businesses/${businessId}/approve"`;

async function page(sandbox: Sandbox, headers: Record<string, string> = {}): Promise<string> {
  const res = await sandbox.app.request(UI, { headers });
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

// ------------------------------------------------------------------ the page

describe('GET /__sandbox/ui', () => {
  it('renders every fixture client with its businesses, naira balances and approval state', async () => {
    const sandbox = await sandboxFor();
    const html = await page(sandbox);
    expect(html.startsWith('<!doctype html>')).toBe(true);

    let unapproved = 0;
    for (const client of clients) {
      const section = clientSection(html, client.id);
      expect(section).toContain(esc(client.name));
      for (const business of client.businesses) {
        const row = businessRow(section, business.id);
        expect(row).toContain(esc(business.businessName));
        expect(row).toContain(`<td class="num balance">${formatKobo(business.balance)}</td>`);
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

    const selected = (html: string) => html.match(/<option value="[^"]*"[^>]*selected[^>]*>/g) ?? [];
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

describe('GET /__sandbox/ui/assets/:file', () => {
  it('serves app.js and style.css with their content types', async () => {
    const sandbox = await sandboxFor();
    const js = await sandbox.app.request('/__sandbox/ui/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('no-cache');
    expect(await js.text()).toContain("new EventSource('/__sandbox/ui/events')");

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
    expect(block.parent).toBe('clients');
    expect(block.html).toContain(`<section class="client" id="${clientId}">`);
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
    expect(row.html).toContain(`<tr id="delivery-${deliveryId}" data-status="skipped">`);
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
    const row = slice(rows, '<tr data-path="/api/v1/clients/business"', '</tr>');
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

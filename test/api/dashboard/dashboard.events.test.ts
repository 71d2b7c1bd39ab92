import { describe, expect, it, vi } from 'vitest';
import clients from '../../../fixtures/clients.json' with { type: 'json' };
import { singleUseAccount } from '../../../src/contract/api/virtual-accounts.js';
import { paymentReceived } from '../../../src/contract/control/incoming-payments.js';
import { approvedBusiness } from '../../../src/contract/control/money.js';
import { outboxMessage } from '../../../src/contract/control/outbox.js';
import {
  ENTRIES_PER_FRAME,
  FLUSH_MS,
  MAX_REST_TICKS,
  PAGE_BYTES_PER_SECOND,
  REQUESTS_PER_FRAME,
} from '../../../src/dashboard/live.js';
import { PAGES_PER_TURN } from '../../../src/dashboard/page-streams.js';
import { version } from '../../../src/sandbox.js';
import { dataOf, pageOf } from '../../support/answers.js';
import { BANK, keysA1, processBatch, RECEIVER } from '../../support/bulk.js';
import {
  approveButton,
  businessRow,
  create,
  DISPUTES,
  deliveryRow,
  disputeIdOf,
  esc,
  eventStreams,
  FAILING_ACCOUNT,
  formatKobo,
  hasPatch,
  lastPatch,
  MEMBERS,
  type Patch,
  page,
  patchesOf,
  patchIn,
  ref,
  rowWith,
  type SseEvent,
  sendTransfer,
  slice,
  storeListeners,
  transfers,
  VIEWER,
  virtualAccountId,
} from '../../support/dashboard.js';
import { transferEntry } from '../../support/money.js';
import { refusedUrl } from '../../support/receiver.js';
import { A, B, call, closedAfterEach, ownerHeaders } from '../../support/sandbox.js';
import { attemptsRecorded, delivery, FAST, incomingPayment, webhookSetup } from '../../support/webhooks.js';

// The live dashboard's server-sent events (/__sandbox/ui/events), which keep the page at /__sandbox/ui current.

/** Streams and sandboxes closed after each test, the newest first. */
const { cleanups, sandboxFor } = closedAfterEach();
const { openEvents, readyEvents, steppedEvents } = eventStreams(cleanups);

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

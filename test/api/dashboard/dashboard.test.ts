import { describe, expect, it } from 'vitest';
import clients from '../../../fixtures/clients.json' with { type: 'json' };
import { virtualAccount } from '../../../src/contract/api/virtual-accounts.js';
import { readyScenarios } from '../../../src/contract/control/scenarios.js';
import { FOLD_CLIENTS_OVER } from '../../../src/dashboard/model.js';
import { dataOf } from '../../support/answers.js';
import { keysA1, processBatch } from '../../support/bulk.js';
import {
  approveButton,
  batchRow,
  businessRow,
  clientBlock,
  create,
  DISPUTES,
  disputeIdOf,
  EVENTS,
  esc,
  eventStreams,
  everyList,
  FAILING_ACCOUNT,
  formatKobo,
  hasPatch,
  isOpen,
  lastPatch,
  listOf,
  page,
  patchesOf,
  patchIn,
  pickerOption,
  recordsOf,
  ref,
  rowWith,
  sendTransfer,
  slice,
  transfer,
  transfers,
  UI,
} from '../../support/dashboard.js';
import { transferEntry } from '../../support/money.js';
import { A, B, call, closedAfterEach, ownerHeaders } from '../../support/sandbox.js';
import { startFakeUpstream } from '../../support/upstream.js';
import { incomingPayment } from '../../support/webhooks.js';

// The live dashboard at /__sandbox/ui: the server-rendered page, its assets, and how --control-token reaches it
// through the `sandbox_token` cookie (dashboard.events.test.ts has the server-sent events that keep it current).

/** Streams and sandboxes closed after each test, the newest first. */
const { cleanups, sandboxFor } = closedAfterEach();
const { openEvents, readyEvents, steppedEvents } = eventStreams(cleanups);

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

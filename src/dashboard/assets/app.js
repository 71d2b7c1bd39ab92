// The dashboard's client: it sends the page's buttons and forms to the control API and shows what came of each
// next to it, applies the live feed (GET /__sandbox/ui/events) to the page, filters the lists (one client, a
// path, failed only) and opens a request's detail. Rows, a batch's items and a request's detail arrive rendered by
// the server; this script swaps them in.
// Plain browser JavaScript, no build step and no library. Text from the sandbox is only ever set as text.

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

/** The client the page shows (`?client=`), or '' for all of them. */
const picked = document.body.dataset.client || '';

/**
 * What the paths of the sandbox the page shows start with: '' for the root, `/sandboxes/{id}` for an isolated one.
 * Every call, fragment and feed of the page is its sandbox's.
 */
const base = $('meta[name="sandbox-base"]')?.content || '';

// ------------------------------------------------------------------ results, next to what caused them

/** The one result on the page: the next action clears it. */
let result = null;

function clearResult() {
  result?.element.remove();
  result = null;
}

/**
 * Where a call's result goes: right after the form or button that made it. When that sits in a row or a panel the
 * live feed may swap (often before the answer arrives), the result goes into the new one: by the host's id and the
 * control's `data-call`.
 */
function placeOf(origin) {
  const anchor = origin.closest('form') ?? origin;
  const host = anchor.closest('tr[id], tbody[id], #clock-panel, #scenario-panel');
  return { anchor, hostId: host?.id ?? null, spec: anchor.dataset.call ?? null };
}

/** Puts the result element in `host` (the row or panel now in the page), after its control if it still has it. */
function placeIn(host, element, spec) {
  const anchor =
    (spec && $$('[data-call]', host).find((el) => el.dataset.call === spec)) || $('.actions', host);
  if (anchor) anchor.after(element);
  else host.append(element);
}

function showResult(place, text, bad) {
  clearResult();
  const element = document.createElement('output');
  element.className = `result ${bad ? 'bad' : 'ok'}`;
  element.setAttribute('role', 'status');
  element.textContent = text;
  const host = place.hostId ? document.getElementById(place.hostId) : null;
  if (place.anchor.isConnected) place.anchor.after(element);
  else if (host) placeIn(host, element, place.spec);
  result = { element, hostId: place.hostId, spec: place.spec };
}

function reattachResult(id, next) {
  if (result && result.hostId === id) placeIn(next, result.element, result.spec);
}

/** What a refused call means, in words: the envelope's message and the fields it names. */
function refusal(status, envelope) {
  if (status === 401) return 'The control token is missing or wrong: reload the page to give it again.';
  const fields = Array.isArray(envelope.errors)
    ? envelope.errors.map((e) => `${e.field ? `${e.field}: ` : ''}${e.message}`).join('; ')
    : '';
  const message = envelope.message || 'The sandbox refused the call';
  return fields && !message.includes(fields) ? `${message} (${fields})` : message;
}

const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });

/** What a call that worked did, in words. */
function success(envelope) {
  const data = envelope.data ?? {};
  let text = envelope.message || 'Done';
  if (typeof data.now === 'string')
    text += `: the clock now reads ${data.now.slice(0, 19).replace('T', ' ')} UTC`;
  else if (typeof data.balance === 'number') text += `: ${naira.format(data.balance / 100)}`;
  return text;
}

/** Calls the control API: `spec` is "METHOD /path". Shows what came of it next to `origin`; answers the envelope. */
async function call(spec, body, origin) {
  const [method, path] = spec.split(' ');
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  clearResult();
  const place = placeOf(origin);
  let res;
  try {
    res = await fetch(base + path, init);
  } catch {
    showResult(place, 'The sandbox did not answer: is it still running?', true);
    return null;
  }
  const envelope = await res.json().catch(() => ({ message: res.statusText }));
  showResult(place, res.ok ? success(envelope) : refusal(res.status, envelope), !res.ok);
  return res.ok ? envelope : null;
}

/**
 * A form's fields as a JSON body: empty ones and those named `_…` left out, `data-kobo` fields turned from naira
 * into kobo, `data-naira` fields (kobo already, as the API takes them) sent as numbers, `data-times="_unit"`
 * fields multiplied by the value of that field (a unit).
 */
function bodyOf(form) {
  const body = {};
  for (const field of form.elements) {
    if (!field.name || field.name.startsWith('_') || field.value === '') continue;
    if (field.hasAttribute('data-kobo')) body[field.name] = Math.round(Number(field.value) * 100);
    else if (field.hasAttribute('data-naira')) body[field.name] = Number(field.value);
    else if (field.dataset.times)
      body[field.name] = Math.round(Number(field.value) * Number(form.elements[field.dataset.times].value));
    else body[field.name] = field.value;
  }
  return body;
}

/** A `data-naira` field's kobo as naira, in the `<output>` beside it: `₦1,500.00`; nothing for no amount. */
function showNaira(field) {
  const output = field.nextElementSibling;
  if (output?.tagName !== 'OUTPUT') return;
  const kobo = Number(field.value);
  output.textContent = field.value === '' || !Number.isFinite(kobo) ? '' : naira.format(kobo / 100);
}

document.addEventListener('input', (event) => {
  if (event.target.hasAttribute?.('data-naira')) showNaira(event.target);
});

document.addEventListener('submit', async (event) => {
  const form = event.target.closest('form[data-call]');
  if (!form) return;
  event.preventDefault();
  const done = await call(form.dataset.call, bodyOf(form), form);
  if (done && form.id === 'payment-form') form.reset();
});

document.addEventListener('click', async (event) => {
  const row = event.target.closest('#requests > tr[data-seq]');
  if (row && !event.target.closest('button, a')) {
    openRequest(row.dataset.seq);
    return;
  }
  const button = event.target.closest('button');
  if (!button) return;
  if (button.dataset.items) return toggleItems(button.dataset.items);
  if (button.dataset.requestId) return openRequestById(button.dataset.requestId, button);
  if (button.dataset.copy !== undefined) return copy(button.dataset.copy, button);
  if (button.dataset.pay) return payInto(button.dataset.pay);
  if (button.hasAttribute('data-close')) return button.closest('dialog').close();
  if (!button.dataset.call || button.type === 'submit') return;
  if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
  const body = button.dataset.body ? JSON.parse(button.dataset.body) : {};
  await call(button.dataset.call, body, button);
});

document.addEventListener('keydown', (event) => {
  const row = event.target.closest?.('#requests > tr[data-seq]');
  if (row && event.key === 'Enter') openRequest(row.dataset.seq);
});

async function copy(text, origin) {
  clearResult();
  const place = placeOf(origin);
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard API (a page not served from localhost): the old way, through a selected text area.
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  showResult(place, 'Copied', false);
}

function payInto(accountNumber) {
  const form = $('#payment-form');
  form.elements.accountNumber.value = accountNumber;
  form.scrollIntoView({ block: 'center' });
  form.elements.amount.focus();
}

// ------------------------------------------------------------------ filters: one client, and each list's own

/** Each list's own filter, by the id of its `<tbody>`. */
const listFilters = {
  requests: (row) => {
    const path = $('#filter-path').value.trim();
    const status = $('#filter-status').value.trim();
    const rowPath = row.dataset.path || '';
    return (
      (!path || rowPath.includes(path)) &&
      statusMatches(row.dataset.code || '', status) &&
      !($('#hide-sandbox').checked && rowPath.startsWith('/__sandbox'))
    );
  },
  transactions: (row) => {
    const business = $('#business-filter').value;
    return (
      (!business || row.dataset.business === business) &&
      (!$('#ledger-failed').checked || row.dataset.status === 'failed')
    );
  },
};

function statusMatches(code, wanted) {
  if (!wanted) return true;
  if (/^\dxx$/i.test(wanted)) return code[0] === wanted[0];
  return code === wanted;
}

/** Shows or hides one row (or option) by the client picked and its list's filter. */
function filterRow(row) {
  const ofClient = !picked || row.dataset.client === undefined || row.dataset.client === picked;
  const filter = listFilters[row.parentElement?.id];
  row.hidden = !(ofClient && (!filter || filter(row)));
}

/** A list shows its table, or the words that say what to do when none of its rows is shown. */
function refreshEmpty(list) {
  const holder = list.closest('.list');
  if (!holder) return;
  const rows = list.tagName === 'TABLE' ? list.tBodies : list.children;
  holder.classList.toggle('is-empty', ![...rows].some((row) => !row.hidden));
}

const LISTS = [
  '#clients',
  '#transactions',
  '#batches',
  '#deliveries',
  '#virtual-accounts',
  '#outbox',
  '#disputes',
  '#requests',
];

function filterList(list) {
  const rows = list.tagName === 'TABLE' ? list.tBodies : list.children;
  for (const row of rows) filterRow(row);
  refreshEmpty(list);
}

function filterAll() {
  for (const selector of LISTS) filterList($(selector));
  for (const option of $$('#va-list option, #business-filter option[data-client]')) filterRow(option);
}

for (const id of ['#filter-path', '#filter-status', '#hide-sandbox'])
  $(id).addEventListener('input', () => filterList($('#requests')));
for (const id of ['#business-filter', '#ledger-failed'])
  $(id).addEventListener('input', () => {
    filterList($('#transactions'));
    ledgerSummary();
  });

/** The business picked in the ledger: its available and ledger balances, which its option carries. */
function ledgerSummary() {
  const select = $('#business-filter');
  $('#ledger-summary').textContent = select.value ? (select.selectedOptions[0]?.dataset.balances ?? '') : '';
}

$('#client-picker').addEventListener('change', (event) => {
  const url = new URL(window.location.href);
  if (event.target.value) url.searchParams.set('client', event.target.value);
  else url.searchParams.delete('client');
  window.location.assign(url);
});

// The sandbox picker: another sandbox's dashboard. The live feed replaces the picker as sandboxes come and go, so
// the listener sits on the document.
document.addEventListener('change', (event) => {
  if (event.target.id !== 'sandbox-picker' || !event.target.value) return;
  window.location.assign(event.target.value);
});

// ------------------------------------------------------------------ folding sections, remembered

// Only what the reader folded or opened by hand is remembered (a <details> parsed open fires `toggle` too), and the
// clients table of a picked client is always open, as the server rendered it.
for (const details of $$('details[data-fold]')) {
  const key = `fold:${details.dataset.fold}`;
  const stored = localStorage.getItem(key);
  if (stored && !(picked && details.dataset.fold === 'sec-clients')) details.open = stored === 'open';
  details.firstElementChild.addEventListener('click', () => {
    // The click toggles after this handler: remember the state it is about to take.
    localStorage.setItem(key, details.open ? 'closed' : 'open');
  });
}

// A clients table that starts folded comes without its rows: they are fetched the first time it is opened.
const lazyClients = $('#clients[data-lazy]');
if (lazyClients) {
  const details = lazyClients.closest('details');
  const load = async () => {
    if (!details.open || !lazyClients.hasAttribute('data-lazy')) return;
    lazyClients.removeAttribute('data-lazy');
    const res = await fetch(`${base}/__sandbox/ui?unfold=1`);
    if (!res.ok) return;
    const page = new DOMParser().parseFromString(await res.text(), 'text/html');
    for (const body of [...lazyClients.tBodies]) body.remove();
    lazyClients.append(...page.querySelectorAll('#clients > tbody'));
    filterList(lazyClients);
  };
  details.addEventListener('toggle', load);
  load();
}

// ------------------------------------------------------------------ the clock, and times in words

/**
 * Now on the sandbox's clock, from the clock panel: frozen where it stands, or real time plus its offset, but never
 * past the end of the clock's range (`data-end`), where a running clock stands still as it does on the server.
 */
function sandboxNow() {
  const panel = $('#clock-panel');
  if (!panel) return Date.now();
  if (panel.dataset.frozen === 'true') return Number(panel.dataset.now);
  return Math.min(Date.now() + Number(panel.dataset.offsetMs), endOfTime());
}

/** The end of the clock's range, ms: an expiry there never comes (`hasExpired` in src/domain/clock.ts). */
function endOfTime() {
  return Number($('#clock-panel')?.dataset.end ?? Number.POSITIVE_INFINITY);
}

// The same words as `relativeTo` in src/dashboard/format.ts, which renders them first (test/unit/dashboard-format.test.ts
// holds the two equal).
function durationWords(ms) {
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
  const d = Math.floor(h / 24);
  return h % 24 === 0 ? `${d} d` : `${d} d ${h % 24} h`;
}

function relativeWords(at, now) {
  if (Math.abs(at - now) < 500) return 'now';
  return at > now ? `in ${durationWords(at - now)}` : `${durationWords(now - at)} ago`;
}

function tick() {
  const now = sandboxNow();
  const clock = $('#clock-now');
  if (clock) {
    // Date and time to the second, as the server wrote it.
    const iso = new Date(now).toISOString();
    const t = iso.indexOf('T');
    clock.textContent = `${iso.slice(0, t)} ${iso.slice(t + 1, t + 9)}`;
  }
  for (const time of $$('time.rel')) {
    const at = Date.parse(time.getAttribute('datetime'));
    const words = relativeWords(at, now);
    if (time.textContent !== words) time.textContent = words;
    time.closest('.expiry')?.classList.toggle('expired', at <= now && at < endOfTime());
  }
}

setInterval(tick, 1000);

// ------------------------------------------------------------------ pieces rendered on request

/**
 * Fetches a piece of the page the server renders on request (`/__sandbox/ui/fragments/…`) and swaps each of its
 * elements in for the one with the same id, when the page still has it. Answers the elements swapped in, or null
 * when the server had none to give (a 404: the batch or the journal entry is gone).
 */
async function swapIn(path) {
  const res = await fetch(base + path);
  if (!res.ok) return null;
  const swapped = [];
  for (const next of [...fromHtmlAll(await res.text())]) {
    const current = document.getElementById(next.id);
    if (!current) continue;
    current.replaceWith(next);
    swapped.push(next);
  }
  return swapped;
}

// ------------------------------------------------------------------ bulk items

/** The batches whose items show failed ones only. */
const failedOnly = new Set();

/** Hides the items of a batch that are not failed, when its failed-only box says so. */
function filterItems(batchId) {
  const holder = document.getElementById(`items-${batchId}`);
  const box = holder && $('input[data-failed-only]', holder);
  if (!box) return;
  box.checked = failedOnly.has(batchId);
  for (const tr of $$('table.items > tbody > tr', holder))
    tr.hidden = box.checked && tr.dataset.status !== 'failed';
}

document.addEventListener('change', (event) => {
  const box = event.target.closest?.('input[data-failed-only]');
  if (!box) return;
  if (box.checked) failedOnly.add(box.dataset.failedOnly);
  else failedOnly.delete(box.dataset.failedOnly);
  filterItems(box.dataset.failedOnly);
});

/** The batches whose items are being fetched, each with whether a change came meanwhile (fetch once more). */
const itemLoads = new Map();

/**
 * The items of a batch, under its row, rendered by the server. A running batch changes ten times a second: one
 * fetch at a time per batch, and one more after it when the batch changed meanwhile, so an older answer never
 * lands after a newer one.
 */
async function renderItems(batchId) {
  const loading = itemLoads.get(batchId);
  if (loading) {
    loading.again = true;
    return;
  }
  const mine = { again: false };
  itemLoads.set(batchId, mine);
  try {
    do {
      mine.again = false;
      await swapIn(`/__sandbox/ui/fragments/batches/${encodeURIComponent(batchId)}/items`);
      filterItems(batchId);
    } while (mine.again);
  } finally {
    itemLoads.delete(batchId);
  }
}

/** Opens the items of a batch under its row (a row saying so until they come), or closes them. */
async function toggleItems(batchId) {
  const open = document.getElementById(`items-${batchId}`);
  if (open) {
    open.remove();
    return;
  }
  const batchRow = document.getElementById(`batch-${batchId}`);
  const row = document.createElement('tr');
  row.id = `items-${batchId}`;
  row.className = 'items-row';
  row.dataset.client = batchRow.dataset.client;
  row.innerHTML = '<td colspan="6">loading…</td>';
  batchRow.after(row);
  await renderItems(batchId);
}

// ------------------------------------------------------------------ request detail

/** Shows a journal entry's detail (`path`, a fragment) in the dialog; false when the journal no longer has it. */
async function showRequest(path) {
  const swapped = await swapIn(path);
  if (!swapped) return false;
  const dialog = $('#request-detail');
  if (!dialog.open) dialog.showModal();
  return true;
}

async function openRequest(seq) {
  clearResult();
  if (await showRequest(`/__sandbox/ui/fragments/requests/${encodeURIComponent(seq)}`)) return;
  const row = $(`#requests > tr[data-seq="${CSS.escape(seq)}"]`);
  if (row)
    showResult(
      placeOf(row.lastElementChild),
      'No longer in the journal: it keeps the newest requests only.',
      true,
    );
}

/**
 * Opens the first journal entry of the request with this `x-request-id` that made a record (a POST: an app may
 * send one id for a whole flow, its reads included).
 */
async function openRequestById(requestId, origin) {
  clearResult();
  const place = placeOf(origin);
  if (await showRequest(`/__sandbox/ui/fragments/requests?requestId=${encodeURIComponent(requestId)}`))
    return;
  showResult(place, 'That request is no longer in the journal: it keeps the newest requests only.', true);
}

// ------------------------------------------------------------------ live feed

/** Drops rows past `data-keep` at the end of a list, so a long run keeps the page light. */
function trim(list) {
  const keep = Number(list.dataset.keep || 0);
  while (keep > 0 && list.children.length > keep) list.lastElementChild.remove();
}

/**
 * The elements of HTML from the server. Parsed in a template, where a <tr>, a <tbody> or an <option> stays what it
 * is (a <select> would also make the option selected, and a moved selected option changes the select's value).
 */
function fromHtmlAll(html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content.children;
}

/** The element of a row's HTML. */
const fromHtml = (html) => fromHtmlAll(html)[0] ?? null;

/** Whether an element belongs to another client than the one picked: the page does not take it in. */
const ofOtherClient = (element) =>
  picked && element.dataset.client !== undefined && element.dataset.client !== picked;

function applyPatch({ id, html, parent, position }) {
  const current = document.getElementById(id);
  const list = parent ? document.getElementById(parent) : null;
  if (!current && !list) return;
  const next = fromHtml(html);
  if (!next || (!current && ofOtherClient(next))) return;
  if (current) {
    // What the reader opened inside the old element stays open in the new one, and what they were typing in one of
    // its forms stays typed (a balance changes while someone writes a new one).
    const opened = $$('details[open][id]', current).map((details) => details.id);
    const typing = document.activeElement;
    const typed =
      current.contains(typing) && typing.name && typing.form?.dataset.call
        ? { call: typing.form.dataset.call, name: typing.name, value: typing.value }
        : null;
    current.replaceWith(next);
    for (const openId of opened) document.getElementById(openId)?.setAttribute('open', '');
    if (typed) {
      const form = $$('form[data-call]', next).find((f) => f.dataset.call === typed.call);
      const field = form?.elements[typed.name];
      if (field) {
        field.value = typed.value;
        if (field.hasAttribute('data-naira')) showNaira(field);
        field.focus();
      }
    }
  } else if (position === 'append') list.append(next);
  else {
    list.prepend(next);
    trim(list);
  }
  filterRow(next);
  reattachResult(id, next);
  if (id.startsWith('batch-')) {
    const batchId = id.slice('batch-'.length);
    const items = document.getElementById(`items-${batchId}`);
    if (items) {
      next.after(items);
      renderItems(batchId);
    }
  }
  if (next.parentElement) refreshEmpty(next.parentElement);
}

function prependRequests(html) {
  const list = $('#requests');
  const rows = [...fromHtmlAll(html)].filter((row) => !ofOtherClient(row));
  list.prepend(...rows);
  for (const row of rows) filterRow(row);
  trim(list);
  refreshEmpty(list);
}

function connect() {
  const live = $('#live');
  const events = new EventSource(`${base}/__sandbox/ui/events`);
  events.addEventListener('ready', () => {
    live.textContent = 'live';
    live.className = 'badge ok';
  });
  events.addEventListener('patch', (e) => {
    // A patched option of a select (a business whose balance moved) is a new element: the select would fall back
    // to its first option. Each keeps what the reader chose.
    const business = $('#business-filter').value;
    for (const patch of JSON.parse(e.data)) applyPatch(patch);
    $('#client-picker').value = picked;
    if ($('#business-filter').value !== business) {
      $('#business-filter').value = business;
      filterList($('#transactions'));
    }
    ledgerSummary();
    tick();
  });
  events.addEventListener('remove', (e) => {
    for (const id of JSON.parse(e.data)) {
      if (id.startsWith('batch-')) document.getElementById(`items-${id.slice('batch-'.length)}`)?.remove();
      const element = document.getElementById(id);
      const owner = element?.parentElement;
      element?.remove();
      if (owner) refreshEmpty(owner);
    }
  });
  events.addEventListener('requests', (e) => prependRequests(JSON.parse(e.data)));
  events.addEventListener('reload', () => window.location.reload());
  events.addEventListener('error', () => {
    live.textContent = 'reconnecting…';
    live.className = 'badge failed';
  });
}

filterAll();
tick();
connect();

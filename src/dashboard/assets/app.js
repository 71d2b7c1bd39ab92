// The dashboard's client: it sends the page's buttons and forms to the control API, and applies the live feed
// (GET /__sandbox/ui/events) to the page. Rows arrive rendered by the server; this script only swaps them in.
// Plain browser JavaScript, no build step and no library.

const $ = (selector, root = document) => root.querySelector(selector);

const toast = (text, bad = false) => {
  const out = $('#toast');
  out.textContent = text;
  out.className = bad ? 'bad' : 'ok';
};

/** Calls the control API: `spec` is "METHOD /path". Answers the parsed envelope; shows its message. */
async function call(spec, body) {
  const [method, path] = spec.split(' ');
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const envelope = await res.json().catch(() => ({ message: res.statusText }));
  toast(`${res.status} ${envelope.message ?? ''}`, !res.ok);
  return envelope;
}

/** A form's fields as a JSON body: empty ones left out, `data-kobo` fields turned from naira into kobo. */
function bodyOf(form) {
  const body = {};
  for (const field of form.elements) {
    if (!field.name || field.value === '') continue;
    body[field.name] = field.hasAttribute('data-kobo') ? Math.round(Number(field.value) * 100) : field.value;
  }
  return body;
}

document.addEventListener('submit', async (event) => {
  const form = event.target.closest('form[data-call]');
  if (!form) return;
  event.preventDefault();
  await call(form.dataset.call, bodyOf(form));
  if (form.id === 'payment-form') form.reset();
});

document.addEventListener('click', async (event) => {
  const button = event.target.closest('button');
  if (!button) return;
  if (button.dataset.items) {
    await toggleItems(button.dataset.items);
    return;
  }
  if (!button.dataset.call || button.type === 'submit') return;
  if (button.dataset.confirm && !window.confirm(button.dataset.confirm)) return;
  await call(button.dataset.call, button.dataset.item ? { itemId: button.dataset.item } : {});
});

// ------------------------------------------------------------------ bulk items

const naira = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN' });

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

/** The items of a batch, under its row, fetched from the control API. */
async function renderItems(batchId) {
  const res = await fetch(`/__sandbox/bulk-transfers/${batchId}`);
  if (!res.ok) return;
  const { data } = await res.json();
  const row = document.getElementById(`items-${batchId}`);
  if (!row) return;
  const table = document.createElement('table');
  table.className = 'items';
  table.innerHTML =
    '<thead><tr><th>#</th><th>Receiver</th><th class="num">Amount</th><th>Status</th><th>Error</th><th>Reprocessed</th><th></th></tr></thead>';
  const body = document.createElement('tbody');
  for (const item of data.items) {
    const tr = document.createElement('tr');
    tr.dataset.status = item.status;
    tr.append(
      cell(String(item.itemIndex + 1)),
      cell(`${item.receiverAccountNumber} (${item.receiverBankCode})`),
      cell(naira.format(Number(item.amount) / 100), 'num'),
      cell(item.status),
      cell(item.errorCode ? `${item.errorCode} ${item.errorMessage}` : '', 'error'),
      cell(String(item.reprocessCount)),
    );
    const actions = document.createElement('td');
    if (item.status === 'failed' && data.status !== 'processing') {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Reprocess';
      button.dataset.call = `POST /__sandbox/bulk-transfers/${batchId}/reprocess`;
      button.dataset.item = item.id;
      actions.append(button);
    }
    tr.append(actions);
    body.append(tr);
  }
  table.append(body);
  row.firstElementChild.replaceChildren(table);
}

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
  row.innerHTML = '<td colspan="6">loading…</td>';
  batchRow.after(row);
  await renderItems(batchId);
}

// ------------------------------------------------------------------ live feed

/** Drops rows past `data-keep` at the end of a list, so a long run keeps the page light. */
function trim(list) {
  const keep = Number(list.dataset.keep || 0);
  while (keep > 0 && list.children.length > keep) list.lastElementChild.remove();
}

function fromHtml(html, parent) {
  // A <tr> or an <option> only parses inside its own kind of parent.
  const holder = document.createElement(parent ? parent.tagName : 'div');
  holder.innerHTML = html;
  return holder.firstElementChild;
}

function applyPatch({ id, html, parent, position }) {
  const current = document.getElementById(id);
  const list = parent ? document.getElementById(parent) : null;
  const next = fromHtml(html, current ? current.parentElement : list);
  if (!next) return;
  if (current) {
    current.replaceWith(next);
  } else if (list) {
    if (position === 'append') list.append(next);
    else list.prepend(next);
    trim(list);
  }
  if (id.startsWith('batch-')) {
    const items = document.getElementById(`items-${id.slice('batch-'.length)}`);
    if (items) {
      next.after(items);
      renderItems(id.slice('batch-'.length));
    }
  }
}

// ------------------------------------------------------------------ request journal filter

function statusMatches(code, wanted) {
  if (!wanted) return true;
  if (/^\dxx$/i.test(wanted)) return code[0] === wanted[0];
  return code === wanted;
}

function filterRow(row) {
  const path = $('#filter-path').value.trim();
  const status = $('#filter-status').value.trim();
  const hideSandbox = $('#hide-sandbox').checked;
  const rowPath = row.dataset.path || '';
  const visible =
    (!path || rowPath.includes(path)) &&
    statusMatches(row.dataset.code || '', status) &&
    !(hideSandbox && rowPath.startsWith('/__sandbox'));
  row.hidden = !visible;
}

function filterAll() {
  for (const row of $('#requests').children) filterRow(row);
}

for (const id of ['#filter-path', '#filter-status', '#hide-sandbox'])
  $(id).addEventListener('input', filterAll);
filterAll();

function prependRequests(html) {
  const list = $('#requests');
  const holder = document.createElement('tbody');
  holder.innerHTML = html;
  const rows = [...holder.children];
  for (const row of rows) filterRow(row);
  list.prepend(...rows);
  trim(list);
}

// ------------------------------------------------------------------ connection

function connect() {
  const live = $('#live');
  const events = new EventSource('/__sandbox/ui/events');
  events.addEventListener('ready', () => {
    live.textContent = 'live';
    live.className = 'badge ok';
  });
  events.addEventListener('patch', (e) => {
    for (const patch of JSON.parse(e.data)) applyPatch(patch);
  });
  events.addEventListener('remove', (e) => {
    for (const id of JSON.parse(e.data)) document.getElementById(id)?.remove();
  });
  events.addEventListener('requests', (e) => prependRequests(JSON.parse(e.data)));
  events.addEventListener('reload', () => window.location.reload());
  events.addEventListener('error', () => {
    live.textContent = 'reconnecting…';
    live.className = 'badge failed';
  });
}

connect();

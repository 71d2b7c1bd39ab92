import { describe, expect, it } from 'vitest';
import { requestEntry } from '../../../src/contract/control/requests.js';
import type { Sandbox } from '../../../src/sandbox.js';
import { pageOf } from '../../support/answers.js';
import { bulkHelpers, drain, keysA1, processBatch } from '../../support/bulk.js';
import { A, call, closedAfterEach, ownerHeaders } from '../../support/sandbox.js';

// The pieces of the dashboard its page fetches when the reader asks for them, rendered on the server: a batch's
// items (`/__sandbox/ui/fragments/batches/{id}/items`) and a request's detail (`/__sandbox/ui/fragments/requests/
// {id}`, or `?requestId=` for the first POST with a record's `x-request-id`). The page's script swaps their
// elements in by id.

const FRAGMENTS = '/__sandbox/ui/fragments';
const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
/** A receiver account the default scenario fails with 51 Insufficient Funds. */
const FAILING_ACCOUNT = '0000000051';

const { transfer, transfers, create, getBatch } = bulkHelpers({
  label: 'frag',
  narration: 'Fragment payment',
  batchName: 'Fragment batch',
});

/** Sandboxes closed after each test. */
const { sandboxFor } = closedAfterEach();

/** A fragment's HTML; it must answer 200, as HTML the browser does not keep. */
async function fragment(
  sandbox: Sandbox,
  path: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const res = await sandbox.app.request(`${FRAGMENTS}${path}`, { headers });
  expect(res.status, path).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return res.text();
}

/** The journal's newest entry whose path holds `path`. */
async function journalEntry(sandbox: Sandbox, path: string) {
  const res = await call(sandbox, 'GET', `/__sandbox/requests?path=${encodeURIComponent(path)}`);
  const [entry] = pageOf(res, requestEntry).data;
  if (!entry) throw new Error(`no request to ${path} in the journal`);
  return entry;
}

/** The rows of an items table's body. */
const itemRows = (html: string) =>
  html
    .split('<tbody>')[1]
    ?.split('</tbody>')[0]
    ?.match(/<tr[^>]*>.*?<\/tr>/g) ?? [];

describe('GET /__sandbox/ui/fragments/batches/:id/items', () => {
  it("renders a batch's items in their order under the batch's row, numbered by itemIndex, a failed one with Reprocess and its request", async () => {
    const sandbox = await sandboxFor();
    const batch = await create(
      sandbox,
      [transfer(), transfer({ receiverAccountNumber: FAILING_ACCOUNT }), transfer({ amount: 250_050 })],
      keysA1,
      '<b>Payroll</b> & co',
    );
    expect((await processBatch(sandbox, batch.id)).status).toBe(202);
    await drain(sandbox);
    const stored = sandbox.store.get('bulkTransfers', batch.id);
    expect(stored?.status).toBe('partially_completed');

    const html = await fragment(sandbox, `/batches/${batch.id}/items`);
    expect(html.startsWith(`<tr id="items-${batch.id}" class="items-row" data-client="${A.id}">`)).toBe(true);
    expect(html).toContain('aria-label="Failed items only of &lt;b&gt;Payroll&lt;/b&gt; &amp; co"');
    expect(html).toContain(`data-failed-only="${batch.id}"`);
    expect(html).toContain(' failed only (1 of 3)');
    const rows = itemRows(html);
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.match(/^<tr data-status="(\w+)"><td>(\d+)<\/td>/)?.slice(1))).toEqual([
      ['completed', '0'],
      ['failed', '1'],
      ['completed', '2'],
    ]);
    // Each item carries the number the API gives it, its itemIndex (from 0), and not a count from 1 of its own.
    const answered = await getBatch(sandbox, batch.id);
    expect(rows.map((r) => r.match(/^<tr[^>]*><td>(\d+)<\/td>/)?.[1])).toEqual(
      answered.items.map((i) => String(i.itemIndex)),
    );
    expect(html).toContain('<th>itemIndex</th>');
    expect(rows[2]).toContain('<td class="num">₦2,500.50</td>');
    const [, failed] = rows;
    expect(failed).toContain(`${FAILING_ACCOUNT} (`);
    expect(failed).toContain('<td class="error">51 ');
    const item = sandbox.store
      .where('bulkItems', 'bulkTransferId', batch.id)
      .find((i) => i.status === 'failed');
    expect(failed).toContain(
      `data-call="POST /__sandbox/bulk-transfers/${batch.id}/reprocess" data-body="{&quot;itemId&quot;:&quot;${item?.id}&quot;}"`,
    );
    expect(failed).toContain(`data-request-id="${stored?.requestId}"`);
    // The items that went through offer neither.
    expect(rows[0]).not.toContain('<button');
  });

  it('answers 404 with the error envelope for a batch that does not exist', async () => {
    const sandbox = await sandboxFor();
    const res = await call(sandbox, 'GET', `${FRAGMENTS}/batches/nope/items`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ status: false, message: 'Bulk transfer not found', data: null });
  });
});

describe('GET /__sandbox/ui/fragments/requests/:id and ?requestId=', () => {
  it("renders a request's detail: its title, what it carried redacted, what it got, and a curl command", async () => {
    const sandbox = await sandboxFor();
    const sent = await call(sandbox, 'POST', TRANSFER, {
      headers: await ownerHeaders(sandbox),
      body: { ...transfer(), retrievalReference: 'frag-rent-<1>', narration: 'Rent' },
    });
    expect(sent.status).toBe(200);
    const entry = await journalEntry(sandbox, TRANSFER);

    const html = await fragment(sandbox, `/requests/${entry.id}`);
    expect(html.startsWith(`<h2 id="request-title">POST ${TRANSFER} → 200</h2><div id="request-body">`)).toBe(
      true,
    );
    expect(html).toContain(`<tr><th>Request id</th><td>${entry.requestId}</td></tr>`);
    expect(html).toContain('<tr><th>Scenario rule</th><td>none fired</td></tr>');
    expect(html).toContain('frag-rent-&lt;1&gt;');
    expect(html).not.toContain('frag-rent-<1>');
    expect(html).toContain(`****${A.secretKey.slice(-4)}`);
    expect(html).not.toContain(A.secretKey);
    expect(html).toContain(`<h3>Response: 200 ${sent.body.message}</h3>`);
    expect(html).toContain('Copy as curl</button>');
    expect(html).toMatch(/<pre class="curl">curl -X POST /);
  });

  it('shows the request body and the answer first, the headers the API read after them, the transport headers folded', async () => {
    const sandbox = await sandboxFor();
    const sent = await call(sandbox, 'POST', TRANSFER, {
      headers: { ...(await ownerHeaders(sandbox)), 'user-agent': 'frag-agent/1.0', 'accept-language': 'yo' },
      body: { ...transfer(), retrievalReference: 'frag-order-1', narration: 'Order' },
    });
    expect(sent.status).toBe(200);
    const entry = await journalEntry(sandbox, TRANSFER);
    const html = await fragment(sandbox, `/requests/${entry.id}`);
    const at = (text: string) => {
      const i = html.indexOf(text);
      expect(i, text).toBeGreaterThanOrEqual(0);
      return i;
    };
    // The request's body, then the answer's, then the facts; the transport's headers last, inside a fold.
    const order = [
      at('<h3>Request</h3>'),
      at('frag-order-1'),
      at('<h3>Response: 200 '),
      at('transactionCharge'),
      at('<h3>Details</h3>'),
      at('<tr><th>Request id</th>'),
      at('<details class="detail transport"><summary>Transport headers ('),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    const details = at('<h3>Details</h3>');
    const folded = at('<details class="detail transport">');
    for (const api of [
      `<tr><th>secret_key</th><td>****${A.secretKey.slice(-4)}</td></tr>`,
      `<tr><th>businessid</th><td>${A.a1.id}</td></tr>`,
    ]) {
      expect(at(api)).toBeGreaterThan(details);
      expect(at(api)).toBeLessThan(folded);
    }
    for (const transport of [
      '<tr><th>user-agent</th><td>frag-agent/1.0</td></tr>',
      '<tr><th>accept-language</th><td>yo</td></tr>',
    ])
      expect(at(transport)).toBeGreaterThan(folded);
    // The credentials and the business are not folded away: a 401's cause is read there.
    const fold = html.slice(at('<details class="detail transport">'), html.indexOf('</details>'));
    for (const name of ['authorization', 'secret_key', 'businessid', 'content-type'])
      expect(fold).not.toContain(`<th>${name}</th>`);
  });

  it('shows, for an x-request-id, the first POST the journal holds with it, not the reads around it', async () => {
    const sandbox = await sandboxFor();
    const headers = { ...(await ownerHeaders(sandbox)), 'x-request-id': 'frag-flow-1' };
    await call(sandbox, 'GET', '/__sandbox/health', { headers });
    for (const reference of ['frag-first', 'frag-second'])
      expect(
        (
          await call(sandbox, 'POST', TRANSFER, {
            headers,
            body: { ...transfer(), retrievalReference: reference },
          })
        ).status,
      ).toBe(200);
    await call(sandbox, 'GET', '/__sandbox/health', { headers });

    const html = await fragment(sandbox, '/requests?requestId=frag-flow-1');
    expect(html).toContain(`<h2 id="request-title">POST ${TRANSFER} → 200</h2>`);
    expect(html).toContain('frag-first');
    expect(html).not.toContain('frag-second');
  });

  it('answers 404 with the error envelope for an entry the journal does not hold', async () => {
    const sandbox = await sandboxFor();
    for (const id of ['999999', 'abc', '1e3']) {
      const res = await call(sandbox, 'GET', `${FRAGMENTS}/requests/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body, id).toEqual({
        status: false,
        message: `Request not found: no entry ${id} in the journal (it holds the last ones only)`,
        data: null,
      });
    }
    // A read alone does not count: the link means the request that made a record.
    await call(sandbox, 'GET', '/__sandbox/health', { headers: { 'x-request-id': 'frag-read' } });
    for (const requestId of ['frag-read', 'frag-none', '']) {
      const res = await call(sandbox, 'GET', `${FRAGMENTS}/requests?requestId=${requestId}`);
      expect(res.status, requestId).toBe(404);
      expect(res.body, requestId).toEqual({
        status: false,
        message: `Request not found: no POST with x-request-id ${requestId} in the journal (it holds the last ones only)`,
        data: null,
      });
    }
  });
});

describe('the fragments behind --control-token', () => {
  const TOKEN = 'secret';

  it('answer the JSON 401 without the token (even to a browser), and the fragment with the cookie or the header', async () => {
    const sandbox = await sandboxFor({ controlToken: TOKEN });
    const batch = await create(sandbox, transfers(2));
    const withToken = { 'x-sandbox-token': TOKEN };
    await call(sandbox, 'GET', '/__sandbox/health', { headers: withToken });
    const entry = await (async () => {
      const res = await call(sandbox, 'GET', '/__sandbox/requests?path=/__sandbox/health', {
        headers: withToken,
      });
      const [found] = pageOf(res, requestEntry).data;
      if (!found) throw new Error('no health check in the journal');
      return found;
    })();
    const paths = [
      `/batches/${batch.id}/items`,
      `/requests/${entry.id}`,
      `/requests?requestId=${encodeURIComponent(sandbox.store.get('bulkTransfers', batch.id)?.requestId ?? '')}`,
    ];
    for (const path of paths) {
      const refused: Record<string, string>[] = [
        {},
        { cookie: 'sandbox_token=wrong' },
        { accept: 'text/html' },
      ];
      for (const headers of refused) {
        const res = await call(sandbox, 'GET', `${FRAGMENTS}${path}`, { headers });
        expect(res.status, path).toBe(401);
        expect(res.body, path).toEqual({
          status: false,
          message: 'x-sandbox-token is missing or wrong',
          data: null,
        });
      }
      // `?token=` is taken on the page alone.
      const offered = await call(
        sandbox,
        'GET',
        `${FRAGMENTS}${path}${path.includes('?') ? '&' : '?'}token=${TOKEN}`,
      );
      expect(offered.status, path).toBe(401);
      expect(offered.headers.get('set-cookie'), path).toBeNull();
      await fragment(sandbox, path, { cookie: `sandbox_token=${TOKEN}` });
      await fragment(sandbox, path, withToken);
    }
  });
});

// Part `reversals`: ten thousand reversals pending on the sandbox clock (a batch of bulk items, each reversed an hour
// after it succeeds, file store), then one advance of the clock that runs them all: how long it takes, and that every
// one ran once.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ours, startServer, stopServer } from '../processes.js';
import { A, isRecord, requestJson } from '../sandbox-client.js';
import { envNumber, log } from '../settings.js';
import { int, ms, type Row, verdict } from '../table.js';

const REVERSALS = envNumber('BENCH_REVERSALS', 10_000);
const HOUR = 3_600_000;

export interface Reversals {
  /** The advance past their moment, from the call to its answer (every reversal written), ms. */
  advanceMs: number;
  /** Reversal entries in the ledger afterwards. */
  reversed: number;
}

export async function benchReversals(dir: string): Promise<Reversals> {
  log(`reversals: ${REVERSALS} pending on the clock, one advance`);
  const sandbox = await startServer('sandbox (reversals)', ours(join(dir, 'reversals.json')));
  try {
    const control = `${sandbox.url}/__sandbox`;
    const post = (url: string, body: unknown) =>
      requestJson(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post(`${control}/clock/freeze`, {});
    await post(`${control}/scenario/rules`, {
      rules: [{ on: 'bulk.item', effect: { reverse: { afterMs: HOUR } } }],
    });
    const base = `${sandbox.url}/api/v1/clients/business/customers/funds/bulk-transfer`;
    const headers = {
      'x-api-key': A.publicKey,
      'x-api-secret': A.secretKey,
      businessId: A.businessId,
      'content-type': 'application/json',
    };
    const transfers = Array.from({ length: REVERSALS }, (_, i) => ({
      amount: 1000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      retrievalReference: `bench-reversal-${i}`,
      narration: 'bench',
    }));
    const created = await requestJson(base, {
      method: 'POST',
      headers,
      body: JSON.stringify({ batchName: 'bench', transfers }),
    });
    const id = isRecord(created) && isRecord(created.data) ? String(created.data.id) : '';
    await requestJson(`${base}/process`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ bulkTransferId: id }),
    });
    await post(`${control}/drain?timeoutMs=600000`, {});
    const start = performance.now();
    await post(`${control}/clock/advance`, { ms: HOUR });
    const advanceMs = performance.now() - start;
    let reversed = 0;
    for (let page = 1; ; page++) {
      const answer = await requestJson(
        `${control}/businesses/${A.businessId}/ledger?limit=1000&page=${page}`,
      );
      const data = isRecord(answer) && isRecord(answer.data) ? answer.data : {};
      const entries = Array.isArray(data.transactions) ? data.transactions : [];
      reversed += entries.filter((t) => isRecord(t) && t.kind === 'reversal').length;
      if (entries.length < 1000) break;
    }
    return { advanceMs, reversed };
  } finally {
    await stopServer(sandbox);
  }
}

export function reversalsRows(r: Reversals): Row[] {
  return [
    [
      `reversals: one advance runs ${int.format(REVERSALS)} pending (${int.format(r.reversed)} ran)`,
      ms(r.advanceMs),
      '',
      '',
      'all run, once',
      verdict(r.reversed === REVERSALS),
    ],
  ];
}

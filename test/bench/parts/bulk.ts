// Part `bulk`: one batch of bulk transfers, from the process call to every item settled and on disk.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { peakRss } from '../proc.js';
import { ours, startServer, stopServer } from '../processes.js';
import { A, isRecord, requestJson } from '../sandbox-client.js';
import { envNumber, log } from '../settings.js';
import { int, ms, type Row, verdict } from '../table.js';

const BULK_ITEMS = envNumber('BENCH_BULK_ITEMS', 10_000);

export interface Bulk {
  /** From the process call to the batch settled and every change on disk (drain), ms. */
  settleMs: number;
  itemsPerSecond: number;
  /** Peak resident memory of the sandbox over its whole life, MB. */
  peakRssMb: number;
  status: string;
}

/** A batch of BULK_ITEMS transfers, zero item delay, file store: process, then drain until settled. */
export async function benchBulk(dir: string): Promise<Bulk> {
  log(`bulk: ${BULK_ITEMS} items, file store, no item delay`);
  const sandbox = await startServer('sandbox (bulk)', ours(join(dir, 'bulk.json')));
  try {
    const base = `${sandbox.url}/api/v1/clients/business/customers/funds/bulk-transfer`;
    const headers = {
      'x-api-key': A.publicKey,
      'x-api-secret': A.secretKey,
      businessId: A.businessId,
      'content-type': 'application/json',
    };
    const transfers = Array.from({ length: BULK_ITEMS }, (_, i) => ({
      amount: 1000,
      receiverAccountNumber: '0123456789',
      receiverBankCode: '058',
      retrievalReference: `bench-bulk-${i}`,
      narration: 'bench',
    }));
    const created = await requestJson(base, {
      method: 'POST',
      headers,
      body: JSON.stringify({ batchName: 'bench', transfers }),
    });
    const id = isRecord(created) && isRecord(created.data) ? String(created.data.id) : '';
    const start = performance.now();
    await requestJson(`${base}/process`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ bulkTransferId: id }),
    });
    await requestJson(`${sandbox.url}/__sandbox/drain?timeoutMs=600000`, { method: 'POST' });
    const settleMs = performance.now() - start;
    const batch = await requestJson(`${base}/${id}`, { headers });
    const status = isRecord(batch) && isRecord(batch.data) ? String(batch.data.status) : 'unknown';
    return {
      settleMs,
      itemsPerSecond: (BULK_ITEMS / settleMs) * 1000,
      peakRssMb: await peakRss(sandbox.child.pid),
      status,
    };
  } finally {
    await stopServer(sandbox);
  }
}

export function bulkRows(bulk: Bulk): Row[] {
  return [
    [
      `bulk: ${int.format(BULK_ITEMS)} items, process to settled (${bulk.status})`,
      ms(bulk.settleMs),
      '',
      '',
      '< 5000 ms',
      verdict(bulk.settleMs < 5000 && bulk.status === 'completed'),
    ],
    ['bulk: items per second', int.format(bulk.itemsPerSecond), '', '', '', ''],
    [
      'bulk: peak RSS of the sandbox',
      `${bulk.peakRssMb.toFixed(0)} MB`,
      '',
      '',
      '< 200 MB',
      verdict(bulk.peakRssMb < 200),
    ],
  ];
}

import type { MetricsView } from '../../contract/control/sandbox.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../domain/errors.js';
import { collectionNames } from '../../domain/records.js';
import type { BulkProcessor } from '../../engine/bulk-processor.js';
import type { WebhookDispatcher } from '../../engine/webhook-dispatcher.js';
import type { RequestJournal } from '../../http/request-log.js';

/**
 * What the process holds now: memory, records per collection, the bounded request journal, the background
 * queues and the store's journal. With `gc`, garbage is collected first, so that two readings compare what is
 * live (it needs `node --expose-gc`; the soak benchmark starts the sandbox so).
 */
export function metricsNow(
  deps: Deps,
  requests: RequestJournal,
  engines: { bulk: BulkProcessor; webhooks: WebhookDispatcher },
  gc: boolean,
): MetricsView {
  if (gc) {
    // `gc` exists only when node runs with `--expose-gc`.
    if (!globalThis.gc) throw new ApiError(409, 'Garbage collection needs node started with --expose-gc');
    globalThis.gc();
  }
  const memory = process.memoryUsage();
  const records = Object.fromEntries(collectionNames.map((name) => [name, deps.store.count(name)]));
  return {
    memory: {
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      externalBytes: memory.external,
    },
    records,
    requestJournal: {
      entries: requests.size,
      capacity: deps.config.journalSize,
      bytes: requests.bytes,
      byteLimit: deps.config.journalBytes,
    },
    queues: { bulkItems: engines.bulk.backlog, webhookDeliveries: engines.webhooks.backlog },
    store: deps.store.stats(),
  };
}

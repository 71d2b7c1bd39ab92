import type { Deps } from '../../deps.js';
import { ApiError } from '../../domain/errors.js';
import type { BulkProcessor } from '../../engine/bulk-processor.js';
import type { WebhookDispatcher } from '../../engine/webhook-dispatcher.js';
import type { RequestJournal } from '../../http/request-log.js';
import { type CollectionName, collectionNames } from '../../store/records.js';

/** `global.gc` exists only when node runs with `--expose-gc`. */
const collectGarbage = (globalThis as { gc?: () => void }).gc;

/**
 * What the process holds now: memory, records per collection, the bounded request journal, the background
 * queues and the store's journal. With `gc`, garbage is collected first, so that two readings compare what is
 * live (it needs `node --expose-gc`; the soak benchmark starts the sandbox so).
 */
export function metrics(
  deps: Deps,
  requests: RequestJournal,
  engines: { bulk: BulkProcessor; webhooks: WebhookDispatcher },
  gc: boolean,
) {
  if (gc) {
    if (!collectGarbage) throw new ApiError(409, 'Garbage collection needs node started with --expose-gc');
    collectGarbage();
  }
  const memory = process.memoryUsage();
  const records = {} as Record<CollectionName, number>;
  for (const name of collectionNames) records[name] = deps.store.count(name);
  return {
    memory: {
      rssBytes: memory.rss,
      heapUsedBytes: memory.heapUsed,
      heapTotalBytes: memory.heapTotal,
      externalBytes: memory.external,
    },
    records,
    requestJournal: { entries: requests.size, capacity: deps.config.journalSize },
    queues: { bulkItems: engines.bulk.backlog, webhookDeliveries: engines.webhooks.backlog },
    store: deps.store.stats(),
  };
}

import type { BulkProcessor } from './bulk-processor.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';

/** The background workers the routes hand work to. */
export interface Engines {
  bulk: BulkProcessor;
  webhooks: WebhookDispatcher;
}

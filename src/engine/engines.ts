import type { BulkProcessor } from './bulk-processor.js';
import type { Scheduler } from './scheduler.js';
import type { WebhookDispatcher } from './webhook-dispatcher.js';

/** The background workers the routes hand work to. */
export interface Engines {
  bulk: BulkProcessor;
  webhooks: WebhookDispatcher;
  /** What is due later on the sandbox clock: reversals, refunds, late duplicate webhooks. */
  later: Scheduler;
}

import { A } from './sandbox.js';

/**
 * A state import body: `doc` (an exported state) with one webhook delivery whose payload holds a value nested
 * `depth` levels deep, built as text so that building it cannot overflow the stack of the test itself.
 */
export function deepDeliveryImport(doc: { collections: Record<string, unknown[]> }, depth: number): string {
  doc.collections.deliveries = [
    {
      id: 'deep-delivery',
      clientId: A.id,
      businessId: A.a1.id,
      transactionReference: 'SBXDEEP',
      url: null,
      payload: { amount: 1, deep: 'DEEP' },
      status: 'skipped',
      attempts: [],
      attemptsLeft: 0,
      nextAttemptAt: null,
      createdAt: new Date().toISOString(),
    },
  ];
  return JSON.stringify(doc).replace('"DEEP"', '['.repeat(depth) + ']'.repeat(depth));
}

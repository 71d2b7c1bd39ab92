import { selfPointing } from '../../bank/settings/service.js';
import type { Deps } from '../../deps.js';
import { REAL_TIME } from '../../domain/clock.js';
import { ApiError } from '../../domain/errors.js';
import type { StateDocument } from '../../domain/records.js';
import { ledgerEffect } from '../../ledger/ledger.js';
import { isFixtureState } from '../../store/fixtures.js';
import { readStateDocument } from './state-reader.js';

/**
 * The invariants the sandbox keeps, checked across records: non-empty unique ids, every transaction and bulk
 * item belonging to a record that exists, every balance equal to its opening balance plus its ledger, and every
 * batch's counters equal to its items' states. Returns the first one broken, as a 400 message.
 */
function brokenInvariant(doc: StateDocument): string | null {
  for (const [name, records] of Object.entries(doc.collections)) {
    const ids = new Set<string>();
    for (const r of records) {
      if (r.id === '') return `collections.${name} has a record with an empty id`;
      if (ids.has(r.id)) return `collections.${name} has the id ${r.id} twice`;
      ids.add(r.id);
    }
  }
  const { businesses, transactions, bulkTransfers, bulkItems } = doc.collections;
  const effect = new Map(businesses.map((b) => [b.id, 0]));
  for (const t of transactions) {
    const sum = effect.get(t.businessId);
    if (sum === undefined)
      return `collections.transactions: ${t.id} belongs to no business (${t.businessId})`;
    effect.set(t.businessId, sum + ledgerEffect(t));
  }
  for (const b of businesses) {
    const expected = b.openingBalance + (effect.get(b.id) ?? 0);
    if (b.balance !== expected) {
      return `collections.businesses: ${b.id} has balance ${b.balance}, but its opening balance and ledger make ${expected}`;
    }
  }
  const counts = new Map(bulkTransfers.map((t) => [t.id, { total: 0, completed: 0, failed: 0 }]));
  for (const item of bulkItems) {
    const c = counts.get(item.bulkTransferId);
    if (!c) return `collections.bulkItems: ${item.id} belongs to no bulk transfer (${item.bulkTransferId})`;
    c.total++;
    if (item.status === 'completed') c.completed++;
    if (item.status === 'failed') c.failed++;
  }
  for (const t of bulkTransfers) {
    const c = counts.get(t.id) ?? { total: 0, completed: 0, failed: 0 };
    if (t.totalItems !== c.total || t.completedItems !== c.completed || t.failedItems !== c.failed) {
      return `collections.bulkTransfers: ${t.id} counts ${t.totalItems}/${t.completedItems}/${t.failedItems} (total/completed/failed) but its items make ${c.total}/${c.completed}/${c.failed}`;
    }
  }
  return null;
}

/**
 * A client's webhook URL, or a pending delivery's URL, that points at the sandbox itself, as a 400 message: set
 * by an import, it would let a delivery call the sandbox's own API. A finished delivery is history, and is let be.
 */
function selfPointingWebhook(deps: Deps, doc: StateDocument): string | null {
  const check = selfPointing(deps);
  for (const client of doc.collections.clients) {
    const problem = client.webhookUrl === null ? null : check(client.webhookUrl);
    if (problem) return `collections.clients: ${client.id} has a webhookUrl that ${problem}`;
  }
  for (const delivery of doc.collections.deliveries) {
    if (delivery.status !== 'pending' || delivery.url === null) continue;
    const problem = check(delivery.url);
    if (problem) return `collections.deliveries: ${delivery.id} is pending to a url that ${problem}`;
  }
  return null;
}

/**
 * Replaces the state with an exported document (its JSON text), validated record by record
 * (`readStateDocument`), and the clock with the document's clock. It must hold one meta record, keep the
 * sandbox's invariants (see `brokenInvariant`) and put the clock inside its range; otherwise nothing changes.
 */
export async function importState(deps: Deps, text: string): Promise<void> {
  const doc = await readStateDocument(text, isFixtureState(deps.fixtures));
  if (doc.collections.meta.length !== 1)
    throw new ApiError(400, 'collections.meta must hold exactly one record');
  const broken = brokenInvariant(doc) ?? selfPointingWebhook(deps, doc);
  if (broken) throw new ApiError(400, broken);
  const clock = doc.collections.meta[0]?.clock ?? REAL_TIME;
  // Checked against real time now: a running clock's offset is only a time once real time is added.
  const clockProblem = deps.clock.stateProblem(clock);
  if (clockProblem) throw new ApiError(400, `collections.meta.0.clock.${clockProblem}`);
  // The state brings its own clock, so time never runs behind the records it holds. Taken in the same step as
  // the state, before anything can read the time between the two.
  const previous = deps.clock.state();
  const imported = deps.store.replaceState(doc);
  deps.clock.restore(clock);
  try {
    await imported;
  } catch (error) {
    // The disk refused it and the store put the old state back: its clock comes back with it.
    deps.clock.restore(previous);
    throw error;
  }
}

import type { Deps } from '../deps.js';
import { ApiError } from '../http/envelope.js';
import { parseInput } from '../http/validate.js';
import { type StateDocument, stateDocument } from '../store/records.js';

/**
 * Replaces the state with an exported document. It must validate record by record, hold one meta record and
 * have unique ids per collection; otherwise nothing changes.
 */
export async function importState(deps: Deps, body: unknown): Promise<void> {
  const doc: StateDocument = parseInput(stateDocument, body);
  if (doc.collections.meta.length !== 1)
    throw new ApiError(400, 'collections.meta must hold exactly one record');
  for (const [name, records] of Object.entries(doc.collections)) {
    const ids = new Set<string>();
    for (const r of records as { id: string }[]) {
      if (ids.has(r.id)) throw new ApiError(400, `collections.${name} has the id ${r.id} twice`);
      ids.add(r.id);
    }
  }
  await deps.store.replaceState(doc);
}

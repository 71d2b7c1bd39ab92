import {
  type CustomerRecord,
  collectionNames,
  type StateDocument,
  stateDocument,
} from '../../src/store/records.js';

/** An empty state: every collection empty but the meta record. */
export function baseState(): StateDocument {
  const collections: Record<string, unknown[]> = Object.fromEntries(
    collectionNames.map((name) => [name, []]),
  );
  collections.meta = [{ id: 'meta', seed: 1, jwtSecret: 'k' }];
  return stateDocument.parse({ version: 1, collections });
}

/** A customer record of `businessId`. */
export function customer(id: string, businessId = 'b1'): CustomerRecord {
  return {
    id,
    businessId,
    name: `Customer ${id}`,
    phoneNo: '',
    email: '',
    dateCreated: '',
    nuban: '0000000000',
  };
}

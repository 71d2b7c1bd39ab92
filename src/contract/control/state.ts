import roles from '../../../fixtures/roles.json' with { type: 'json' };
import { collectionNames, currentStateDocument, stateDocument } from '../../domain/records.js';
import { contract, done, lazy, raw } from '../kit.js';

/**
 * The smallest state an import takes: the seed, a token key and the three roles, and nothing else (no client). What
 * `GET /state` gives is the usual body; this one empties the sandbox (a reset brings the fixtures back).
 */
const EMPTY_STATE = {
  version: 1,
  collections: {
    ...Object.fromEntries(collectionNames.map((name) => [name, []])),
    meta: [{ id: 'meta', seed: 1, jwtSecret: '0'.repeat(64) }],
    roles,
  },
};

// The whole state, as `GET /state` gives it and `PUT /state` takes it back: the store's own record schemas, which
// validate an import record by record.

/** An export holds every record in its current shape (an import also takes the shapes earlier versions wrote). */
export const stateExport = lazy('StateDocument', () => currentStateDocument);

/** `--import-limit` bounds a state import, not `--body-limit`. */
export const importLimit = (config: { importLimit: number }) => ({
  bytes: config.importLimit,
  message: `Request body too large: a state import holds at most ${config.importLimit} bytes (--import-limit)`,
});

const TAG = 'State';

export const exportStateContract = contract({
  operationId: 'exportState',
  method: 'get',
  path: '/state',
  summary: 'Export the state',
  description:
    'The whole state as one JSON document, sent a chunk at a time as the client reads it (the state at the moment it was asked for): however large the state, one export holds about a chunk of it in memory, and other requests are answered meanwhile.',
  tag: TAG,
  auth: { scheme: 'none' },
  responses: { 200: raw('The whole state', stateExport) },
});

export const importStateContract = contract({
  operationId: 'importState',
  method: 'put',
  path: '/state',
  summary: 'Import a state',
  description:
    'Replaces the whole state with a document of `GET /state`, validated record by record. The body may hold up to `--import-limit` bytes (64 MiB by default).',
  tag: TAG,
  auth: { scheme: 'none' },
  // Read as text and parsed a batch of records at a time, so that other requests get their turn.
  text: true,
  body: stateDocument,
  example: EMPTY_STATE,
  bodyLimit: importLimit,
  responses: {
    200: done('State imported'),
    400: [
      'A record is invalid, or a collection missing (named in the message)',
      '`collections.meta must hold exactly one record`',
      'An invariant is broken (named): an empty or repeated id, a transaction or bulk item of no record, a balance that is not its opening balance plus its ledger, a batch whose counters are not its items’',
      'The document’s clock is outside the clock’s range, 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (frozen, or running with its offset from real time now)',
      'A client’s webhook URL, or a pending delivery’s, points at the sandbox itself',
    ],
    413: 'A body over `--import-limit` bytes (answered with `Connection: close`)',
  },
});

import { lazy } from '../../http/route.js';
import { stateDocument } from '../../store/records.js';

// The whole state, as `GET /state` gives it and `PUT /state` takes it back: the store's own record schemas, which
// validate an import record by record.

export const stateExport = lazy('StateDocument', () => stateDocument);

/** `--import-limit` bounds a state import, not `--body-limit`. */
export const importLimit = (config: { importLimit: number }) => ({
  bytes: config.importLimit,
  message: `Request body too large: a state import holds at most ${config.importLimit} bytes (--import-limit)`,
});

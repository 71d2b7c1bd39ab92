import { currentStateDocument } from '../../domain/records.js';
import { lazy } from '../../http/route.js';

// The whole state, as `GET /state` gives it and `PUT /state` takes it back: the store's own record schemas, which
// validate an import record by record.

/** An export holds every record in its current shape (an import also takes the shapes earlier versions wrote). */
export const stateExport = lazy('StateDocument', () => currentStateDocument);

/** `--import-limit` bounds a state import, not `--body-limit`. */
export const importLimit = (config: { importLimit: number }) => ({
  bytes: config.importLimit,
  message: `Request body too large: a state import holds at most ${config.importLimit} bytes (--import-limit)`,
});

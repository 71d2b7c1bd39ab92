// Where each door of the sandbox is mounted: the client, the documents and the doors themselves name these.

/** The bank's API (`src/api/`). */
export const API_PREFIX = '/api/v1';
/** The sandbox's control API (`src/control/`); the dashboard sits under it, so its guard covers both. */
export const CONTROL_PREFIX = '/__sandbox';
/** The live dashboard (`src/dashboard/`), the only page that takes `--control-token` and asks for it. */
export const DASHBOARD_PATH = `${CONTROL_PREFIX}/ui`;
/** The reference page of both documents (`src/openapi/`). */
export const DOCS_PATH = '/docs';
/** The control document's name in the reference page's selector; `?urls.primaryName=` opens the page on it. */
export const CONTROL_DOCUMENT_NAME = `Sandbox control (${CONTROL_PREFIX})`;
/** The reference page opened on the control document: where the token page may send the browser back. */
export const CONTROL_DOCS_URL = `${DOCS_PATH}?urls.primaryName=${encodeURIComponent(CONTROL_DOCUMENT_NAME)}`;

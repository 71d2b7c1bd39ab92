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

/** Where each isolated sandbox's doors are: `/sandboxes/{id}/api/v1`, `/sandboxes/{id}/__sandbox`. */
export const ISOLATED_PREFIX = '/sandboxes';

/** What the paths of the isolated sandbox `id` start with. */
export const sandboxPath = (id: string) => `${ISOLATED_PREFIX}/${id}`;

/** Whether `path` is one of a control API's: the root's (`/__sandbox…`), or an isolated sandbox's. */
export function isControlPath(path: string): boolean {
  const inside = path.startsWith(`${ISOLATED_PREFIX}/`)
    ? path.slice(path.indexOf('/', ISOLATED_PREFIX.length + 1) >>> 0)
    : path;
  return inside === CONTROL_PREFIX || inside.startsWith(`${CONTROL_PREFIX}/`);
}

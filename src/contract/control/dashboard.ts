import * as z from 'zod';
import { contract, deferred, rawOf } from '../kit.js';

const TAG = 'Dashboard';

/**
 * An HTML page's content type exactly as the sandbox sends it (Hono's `c.html` writes it so, and the token page
 * uses the same), so that the control document names what a client receives.
 */
export const HTML_TYPE = 'text/html; charset=UTF-8';

export const dashboardContract = contract({
  operationId: 'dashboard',
  method: 'get',
  path: '/ui',
  summary: 'The live dashboard',
  description:
    'An HTML page: the clock and the scenario, clients and businesses with their balances, transfers and the ledger, bulk transfers with live progress, webhook deliveries with their payload and headers, virtual accounts and an incoming-payment form, the outbox, disputes, and the request journal with each request’s detail. `?client=` shows one client’s records in every section. With `--control-token`, open it once as `/__sandbox/ui?token=T`: the token becomes a same-site cookie and the page redirects to itself, or to `next` when that is `/docs` (optionally `/docs?urls.primaryName=…` on the control document). Without a valid token, a browser (`accept` with `text/html`) gets 401 with an HTML page that asks for the token: its form POSTs `token` (and `next` when given) to `/__sandbox/ui` as `application/x-www-form-urlencoded`, so the token stays out of the URL; the right one sets the same cookie and answers 303 to `next` or the dashboard. A wrong token (posted, or a wrong `?token=`) gets the page again saying so, with no cookie; a form body over 4 KB or of another type counts as no token. Any other client gets the JSON 401 envelope.',
  tag: TAG,
  auth: { scheme: 'none' },
  // Without a valid token (`--control-token`), a browser is asked for it by a page.
  htmlErrors: [401],
  query: deferred(() =>
    z.object({
      client: z
        .string()
        .optional()
        .describe(
          'a client’s `id`: every section shows that client’s records only (an unknown one shows all)',
        ),
      unfold: z
        .literal('1')
        .optional()
        .describe(
          'render the rows of the clients table even when it starts folded (more than 8 clients, none picked): the page fetches them so when the table is opened',
        ),
    }),
  ),
  responses: {
    200: rawOf('The page (text/html)', HTML_TYPE),
    303: 'The token was taken from `?token=` into a cookie; `location` is the accepted `next`, else the page itself',
  },
});

export const dashboardEventsContract = contract({
  operationId: 'dashboardEvents',
  method: 'get',
  path: '/ui/events',
  summary: 'The dashboard’s live feed',
  description:
    'Server-sent events, ten frames a second at most: `ready`, then `patch` (rows and panels rendered as HTML to swap in by id), `remove` (ids), `requests` (journal rows) and `reload` (after a reset or an import). Every page gets the same frames; each row says its client in `data-client`, and a page showing one client hides the others’ rows itself.',
  tag: TAG,
  auth: { scheme: 'none' },
  responses: { 200: rawOf('An event stream (text/event-stream)', 'text/event-stream') },
});

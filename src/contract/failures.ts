import { permits } from '../domain/roles.js';
import { isReply, type RouteContract } from './kit.js';

// Why a route answers each error status: what its auth, body and query imply, then its own causes. The documents
// list them, the tests hold every error answer against them, and the upstream drift report compares the real
// bank's messages with the ones given here.

export const PRODUCTION_KEY_MESSAGE = 'Production credentials cannot be used in the sandbox environment';
export const BUSINESS_ID_REQUIRED = 'businessId is required in headers';
/** Scheme A: a `businessId` header that names no business of the caller's client, an invalid credential. */
export const INVALID_BUSINESS_ID = 'Invalid businessId';
/** A rotated-out `SECRET_KEY` where the current one is required (get-keys), grace period or not. */
export const CURRENT_SECRET_REQUIRED = 'SECRET_KEY must be the current key';

/** Only Admin may call a scheme A route whose area the Manager role may not touch (settings, inviting members). */
const adminOnly = (op: RouteContract) =>
  op.auth.scheme === 'A' && !permits('Manager', op.auth.area, op.method.toUpperCase());

/** The status a missing `businessId` header gets, for a route that reads one. */
export function missingBusinessStatus(op: RouteContract): 400 | 401 | undefined {
  if (op.auth.scheme === 'B') return op.auth.missingBusiness;
  if (op.auth.scheme === 'A' && op.auth.business === 'header') return 401;
  return undefined;
}

/** Why each error status happens: what the operation's security, body and query imply, then its own causes. */
export function failures(op: RouteContract, api: boolean): Map<number, string[]> {
  const causes = new Map<number, string[]>();
  const add = (status: number, ...lines: string[]) =>
    causes.set(status, [...(causes.get(status) ?? []), ...lines]);
  if (op.body || op.query)
    add(400, 'Validation failed: `message` names the first bad field, `errors` each one');
  if (op.body) {
    add(400, '`Malformed JSON body`');
    // A route whose bound says what is too large in its own terms answers 400, never 413 (its status does not
    // depend on the settings, which only size the bound).
    if (op.bodyLimit?.({ bodyLimit: 0, uploadLimit: 0, importLimit: 0 }).status !== 400)
      add(413, '`Request body too large`');
    add(415, '`Content-Type must be application/json`');
  }
  const scheme = op.auth.scheme;
  const business = missingBusinessStatus(op);
  if (scheme === 'A') add(401, 'Missing, invalid or expired access token; missing or wrong `SECRET_KEY`');
  if (scheme === 'secretKey') add(401, 'Missing or wrong `SECRET_KEY`');
  if (scheme === 'B') add(401, '`x-api-key` and `x-api-secret` missing, wrong, or not of one client');
  if (scheme !== 'none') add(401, `A live key: \`${PRODUCTION_KEY_MESSAGE}\``);
  if (business === 400) add(400, `\`${BUSINESS_ID_REQUIRED}\` (400 here, as the spec says)`);
  if (business === 401) add(401, `\`${BUSINESS_ID_REQUIRED}\``);
  if (op.auth.scheme === 'A' && business)
    add(401, `\`${INVALID_BUSINESS_ID}\`: the \`businessId\` is unknown or another client’s`);
  if (op.auth.scheme === 'A' && op.auth.currentKeyOnly)
    add(401, `\`${CURRENT_SECRET_REQUIRED}\`: a rotated-out key, even in its grace period`);
  if (op.auth.scheme === 'B')
    add(404, '`Business not found`: the `businessId` is unknown or another client’s');
  if (adminOnly(op)) add(403, 'Only the Admin role may do this (Manager, Viewer)');
  else if (scheme === 'A' && op.method !== 'get') add(403, 'The Viewer role only reads');
  if (!api) {
    add(401, '`x-sandbox-token is missing or wrong` (only with `--control-token`)');
    add(403, '`Webhook deliveries cannot call the control API`: the request has their `user-agent`');
    add(
      403,
      '`Control calls from another origin are refused`: an `Origin` that is not the sandbox’s own, or `Sec-Fetch-Site` `cross-site` or `same-site` (without `--control-token`)',
    );
    if (op.method !== 'get')
      add(
        415,
        '`Content-Type must be application/json: a control call that changes state takes a JSON body or none` (without `--control-token`)',
      );
  }
  add(
    403,
    '`Host … is not allowed`: listening on a loopback address without `--control-token`, a `Host` that is not a loopback name or one of `--allowed-hosts`',
  );
  for (const [status, response] of Object.entries(op.responses)) {
    if (!isReply(response)) add(Number(status), ...(typeof response === 'string' ? [response] : response));
  }
  return causes;
}

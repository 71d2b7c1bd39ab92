import type { Config } from '../config.js';
import { ApiError } from '../domain/errors.js';
import { isLoopback, normalHost } from '../domain/loopback.js';

// Who may drive the sandbox when no --control-token guards it. A sandbox on the developer's machine is reached by
// the developer's browser too, and so by every page it opens: a page of another site can send a form to it (a
// "simple" cross-site request, which needs no permission), and a site whose name is made to resolve to the
// sandbox's address (DNS rebinding) can even read its answers. The rules here close both without a token: a request
// must name the sandbox by a name no page can rebind (see `hostCheck`), and a control call must come from the
// sandbox's own pages and carry JSON or no body. Bound to an address other machines reach, the control API is open
// to them: start-up says so.

/** Whether the sandbox, listening on `host`, takes connections from this machine only. */
export function listensOnLoopback(host: string): boolean {
  const normal = normalHost(host);
  return normal !== null && isLoopback(normal);
}

/** How many `Host` values the check remembers its answer for: a browser sends one or two, a scanner many. */
const REMEMBERED_HOSTS = 64;

/** An IP address as `normalHost` writes it: a dotted IPv4 quad, or an IPv6 address (it holds colons). */
const isIpLiteral = (host: string) => /^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || host.includes(':');

/** A name of one label (`sandbox`, `bank-sandbox`): what a compose service or a container's link is called. */
const isSingleLabel = (host: string) => /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/.test(host);

/**
 * The check of a request's `Host` header, made on every path whenever no control token guards the sandbox: a page
 * that reached the sandbox by a name of its own choosing (DNS rebinding: `attacker.example` made to resolve to the
 * sandbox's address) names it by that name, which nobody else uses.
 * - Listening on a loopback address, it passes a loopback name or address (`localhost:4010`, `127.0.0.1`, `[::1]`)
 *   and the names of `--allowed-hosts`.
 * - Listening on any other address (the Docker image's `0.0.0.0`), also an IP address (a published port reached by
 *   the host's or the container's address) and a single-label name (a compose service, `sandbox:4010`, or a
 *   container link): names no public DNS answers, so no page can rebind them.
 * No `Host` at all passes (a call made in the process, `app.request()`). Null with a control token: a header no
 * page can send guards everything then.
 */
export function hostCheck(
  config: Pick<Config, 'host' | 'controlToken' | 'allowedHosts'>,
): ((host: string | undefined) => boolean) | null {
  if (config.controlToken !== undefined) return null;
  const onLoopback = listensOnLoopback(config.host);
  const allowed = new Set(config.allowedHosts);
  const seen = new Map<string, boolean>();
  const passes = (normal: string) =>
    isLoopback(normal) ||
    allowed.has(normal) ||
    (!onLoopback && (isIpLiteral(normal) || isSingleLabel(normal)));
  return (host) => {
    if (host === undefined) return true;
    let ok = seen.get(host);
    if (ok === undefined) {
      const normal = normalHost(host);
      ok = normal !== null && passes(normal);
      if (seen.size >= REMEMBERED_HOSTS) seen.clear();
      seen.set(host, ok);
    }
    return ok;
  };
}

/** The refusal of a request whose `Host` names the sandbox by a name its rules do not take (see `hostCheck`). */
export function foreignHost(host: string, listening: string): ApiError {
  const names = listensOnLoopback(listening)
    ? 'a loopback name (localhost, 127.0.0.1, [::1])'
    : 'a loopback name, an IP address or a single-label name (a compose service such as sandbox)';
  return new ApiError(
    403,
    `Host ${JSON.stringify(host)} is not allowed: listening on ${listening} without --control-token, the sandbox answers requests that name it by ${names} only; add the name with --allowed-hosts, or set --control-token`,
  );
}

/** Methods that change nothing, whatever their origin or body. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `application/json`, or a `+json` type (`application/merge-patch+json`), with any parameters. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** What the cross-site and body rules read of a control request. */
export interface ControlRequest {
  method: string;
  /** The request's `Host` (or, in the process, its URL's host). */
  host: string | undefined;
  origin: string | undefined;
  fetchSite: string | undefined;
  contentType: string | undefined;
  /** Whether the request carries a body (see `carriesBody`). */
  hasBody: boolean;
  /** The dashboard's own token form: a form body is what it is, the origin rules still hold. */
  tokenForm?: boolean;
}

/**
 * The refusal of a control call a page of another origin sent (a cross-site form or script), or a call that
 * changes state with a content type other than JSON, even with no body (what a form of another site sends without
 * asking: a form, `text/plain`; a `<form>` with no fields is the classic cross-site reset), or with a body and no
 * type; null for a call that may go on. Applied when no control token guards the control API, and with one to the
 * calls the dashboard's cookie authenticates (see `refuseForeignCall`).
 */
export function controlRefusal(request: ControlRequest): ApiError | null {
  const { origin, fetchSite, host } = request;
  const crossSite = fetchSite === 'cross-site' || fetchSite === 'same-site';
  if (crossSite || (origin !== undefined && !sameOrigin(origin, host))) {
    return new ApiError(
      403,
      `Control calls from another origin are refused (${origin ?? `Sec-Fetch-Site: ${fetchSite}`}): without --control-token only the sandbox's own pages and clients that send no Origin (tests, curl) may drive it`,
    );
  }
  if (READS.has(request.method) || request.tokenForm) return null;
  const type = request.contentType;
  if (type === undefined ? !request.hasBody : JSON_TYPE.test(type)) return null;
  return new ApiError(
    415,
    `Content-Type must be application/json: a control call that changes state takes a JSON body or none, not ${request.contentType ?? 'a body without a type'}`,
  );
}

/** Whether `origin` is the sandbox's own: the scheme's host and port the request named the sandbox by. */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    return new URL(origin).host === new URL(`http://${host}`).host;
  } catch {
    // `null` (a sandboxed frame, a file) and anything else that is no origin.
    return false;
  }
}

/**
 * Whether a request carries a body: from the network, one its headers announce (a length above 0, or chunks); in
 * the process (`app.request()`, no headers of the kind), one it was given.
 */
export function carriesBody(
  contentLength: string | undefined,
  transferEncoding: string | undefined,
  fromNetwork: boolean,
  request: Request,
): boolean {
  if (fromNetwork)
    return (contentLength !== undefined && contentLength !== '0') || transferEncoding !== undefined;
  return request.body !== null;
}

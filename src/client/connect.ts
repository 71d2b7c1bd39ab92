import { isControlPath } from '../contract/mounts.js';
import { SandboxError } from '../errors.js';
import type { SandboxHandle } from './handle.js';
import { handleOverHttp } from './over-http.js';

export interface ConnectOptions {
  /** The sandbox's `--control-token`, sent as `x-sandbox-token` on every control call (none when empty). */
  controlToken?: string;
}

/**
 * The handle of a sandbox that runs elsewhere (a container, a compose service, another process), driven over its
 * control API with the global `fetch`: the same methods and types as `startSandbox()`. Nothing is sent until the
 * first call. `close()` closes nothing: the sandbox keeps running, and stopping it is up to whoever started it.
 *
 * ```ts
 * const sandbox = connectSandbox('http://localhost:4010');
 * await sandbox.drain();
 * ```
 */
export function connectSandbox(url: string, options: ConnectOptions = {}): SandboxHandle {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new SandboxError(`connectSandbox: "${url}" is not a URL (e.g. http://localhost:4010)`, 400);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new SandboxError(
      `connectSandbox: "${url}" is not an http(s) URL (e.g. http://localhost:4010)`,
      400,
    );
  // `http://bank:4010/` and `http://bank:4010` are the same sandbox; a path before `/__sandbox` is kept (a proxy).
  const root = base.href.replace(/\/+$/, '');
  const token = options.controlToken;
  return handleOverHttp(root, (path, init) => {
    const headers = new Headers(init.headers);
    // An isolated sandbox's control API too (`/sandboxes/{id}/__sandbox/…`): the same token guards it.
    if (token && isControlPath(path)) headers.set('x-sandbox-token', token);
    return fetch(root + path, { ...init, headers });
  });
}

import { isLoopback, mappedIpv4 } from './loopback.js';

/** What a webhook URL is compared with: the sandbox's own port and the names and addresses of its machine. */
export interface SelfAddress {
  port: number;
  /** The machine's host name and interface addresses (`os.hostname()`, `os.networkInterfaces()`). */
  local: readonly string[];
}

/** An IPv6 address as the URL parser writes it (compressed, lowercase), or the text unchanged. */
function canonicalIpv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address.toLowerCase();
  }
}

/** Whether a host, as the URL parser writes it, reaches this machine: loopback, "any", or one of its own. */
function isOwnHost(hostname: string, local: readonly string[]): boolean {
  const bare = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const host = mappedIpv4(bare) ?? bare;
  // The URL parser has already turned 127.1, 2130706433 and 0x7f.1 into dotted quads, and 0 into 0.0.0.0.
  if (isLoopback(host) || host === '0.0.0.0' || host === '::') return true;
  return local.some((name) => {
    const own = name.includes(':') ? canonicalIpv6(name) : name.toLowerCase();
    return own === host;
  });
}

/**
 * Whether `value` points at the sandbox itself: its own port on a loopback or local address of its machine,
 * whatever the path or scheme. A delivery there would call the sandbox's own API (one payment that resets the
 * sandbox, or that becomes four credits). A URL that does not parse is not this rule's concern.
 */
export function pointsAtSelf(value: string, self: SelfAddress): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const defaultPort = url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : null;
  const port = url.port === '' ? defaultPort : Number(url.port);
  return port === self.port && isOwnHost(url.hostname, self.local);
}

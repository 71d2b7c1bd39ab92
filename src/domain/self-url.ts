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

/** `::ffff:7f00:1`, the URL parser's form of an IPv4-mapped address, as `127.0.0.1`. */
function mappedIpv4(host: string): string | null {
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!m?.[1] || !m[2]) return null;
  const hi = Number.parseInt(m[1], 16);
  const lo = Number.parseInt(m[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether a host, as the URL parser writes it, reaches this machine: loopback, "any", or one of its own. */
function isOwnHost(hostname: string, local: readonly string[]): boolean {
  const bare = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const host = mappedIpv4(bare) ?? bare;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  // The URL parser has already turned 127.1, 2130706433 and 0x7f.1 into dotted quads, and 0 into 0.0.0.0.
  if (/^127\.\d+\.\d+\.\d+$/.test(host) || host === '0.0.0.0') return true;
  if (host === '::1' || host === '::') return true;
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

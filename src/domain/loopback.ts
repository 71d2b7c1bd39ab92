/**
 * A host name or address as the URL parser writes it: lowercase, without brackets or a trailing dot, numeric forms
 * of IPv4 as dotted quads (`127.1` → `127.0.0.1`), an IPv4-mapped IPv6 address as its IPv4 address. Null for
 * something that is no host. `host` may carry a port (`localhost:4010`, `[::1]:4010`), as a `Host` header does, or
 * be a bare IPv6 address (`::1`).
 */
export function normalHost(host: string): string | null {
  // A bare IPv6 address (`::1`, as a server reports the address it listens on) has colons a port never has.
  const bracketed = !host.startsWith('[') && host.split(':').length > 2 ? `[${host}]` : host;
  let hostname: string;
  try {
    hostname = new URL(`http://${bracketed}/`).hostname;
  } catch {
    return null;
  }
  const bare = hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return mappedIpv4(bare) ?? bare;
}

/** `::ffff:7f00:1`, the URL parser's form of an IPv4-mapped address, as `127.0.0.1`. */
export function mappedIpv4(host: string): string | null {
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (!m?.[1] || !m[2]) return null;
  const hi = Number.parseInt(m[1], 16);
  const lo = Number.parseInt(m[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether a host, as `normalHost` writes it, is this machine's loopback: `localhost` (and `*.localhost`), 127/8, ::1. */
export function isLoopback(host: string): boolean {
  return (
    host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1'
  );
}

import { isValidNuban } from './nuban.js';

// Where the sandbox accepts what production will not: it answers as asked and warns (the `x-sandbox-warning`
// header, the request journal), so the sandbox checks the integration as well as serving it. Each text is one
// header value: no commas, so a client that reads repeated headers joined with ", " can split them again.

/** The `x-sandbox-warning` header. */
export const WARNING_HEADER = 'x-sandbox-warning';

/** Host names production cannot reach: this machine, a private network, a name only local DNS knows. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  if (host.endsWith('.internal') || host.endsWith('.home.arpa') || host.endsWith('.lan')) return true;
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host.replace(/^::ffff:/, ''));
  if (v4) {
    const a = Number(v4[1]);
    const b = Number(v4[2]);
    return (
      a === 0 || // this network
      a === 10 || // RFC 1918
      a === 127 || // loopback
      (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT (RFC 6598)
      (a === 169 && b === 254) || // link-local
      (a === 172 && b >= 16 && b <= 31) || // RFC 1918
      (a === 192 && b === 168) // RFC 1918
    );
  }
  if (host.includes(':')) {
    // IPv6: unspecified, loopback, unique local (fc00::/7), link-local (fe80::/10).
    return host === '::' || host === '::1' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  // A single-label name (a compose service, a machine on the LAN): no public DNS answers it.
  return !host.includes('.');
}

/** An IPv4 literal's first two numbers, `::ffff:`-mapped ones included; undefined for anything else. */
function ipv4Head(host: string): [number, number] | undefined {
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host.replace(/^::ffff:/, ''));
  return v4 ? [Number(v4[1]), Number(v4[2])] : undefined;
}

/**
 * Hosts a plain-http webhook may name: a receiver on the tester's machine or in its containers' network, never a
 * host on the internet, where an http URL would carry the AUTH-KEY in clear. `localhost` and `*.localhost`;
 * `*.local` (mDNS) and `*.internal` (`host.docker.internal`, Podman's `host.containers.internal`,
 * Testcontainers' `host.testcontainers.internal`); a loopback or private-range IP literal (`127/8`, `10/8`,
 * `172.16/12`, `192.168/16`, `::1`, `fc00::/7`); a single-label name (a compose service). `hostname` is as a WHATWG
 * URL gives it (lowercase, IPv6 in brackets, `127.1` spelled out).
 */
export function isLocalReceiverHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host.endsWith('.local') || host.endsWith('.internal')) return true;
  const v4 = ipv4Head(host);
  if (v4) {
    const [a, b] = v4;
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  if (host.includes(':')) return host === '::1' || /^f[cd][0-9a-f]{2}:/.test(host);
  return /^[a-z0-9-]+$/.test(host);
}

/** What production would say of a webhook URL the sandbox accepts: one warning per reason, none for a good one. */
export function webhookUrlWarnings(url: string, field = 'webhookUrl'): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const warnings: string[] = [];
  if (parsed.protocol !== 'https:')
    warnings.push(
      `${field} is plain ${parsed.protocol.replace(':', '')}: production accepts only https URLs`,
    );
  if (isPrivateHost(parsed.hostname))
    warnings.push(
      `${field} host ${parsed.hostname} is not publicly reachable: production accepts only a public host`,
    );
  return warnings;
}

/** Whether an account number and a bank code, each of its shape, fail the NUBAN check digit. */
function failsNuban(accountNumber: string, bankCode: string): boolean {
  if (!/^\d{10}$/.test(accountNumber) || !/^\d{3}$|^\d{6}$/.test(bankCode)) return false;
  return !isValidNuban(bankCode, accountNumber);
}

/** The warning for one receiver account whose NUBAN check digit is wrong for its bank, or null. */
export function nubanWarning(
  field: string,
  accountNumber: string,
  bankCode: string,
  consequence: string,
): string | null {
  if (!failsNuban(accountNumber, bankCode)) return null;
  return `${field} ${accountNumber} fails the NUBAN check digit for bank ${bankCode}: ${consequence}`;
}

/**
 * One warning for the items of a batch whose receiver account fails the check digit (however many there are: a
 * batch holds up to 10 000), naming the first; or null.
 */
export function bulkNubanWarning(
  transfers: readonly { receiverAccountNumber: string; receiverBankCode: string }[],
): string | null {
  let first: string | null = null;
  let count = 0;
  transfers.forEach((t, i) => {
    const { receiverAccountNumber: account, receiverBankCode: bank } = t;
    // Told apart without a message for each item: the batch's warning names only the first.
    if (!failsNuban(account, bank)) return;
    count++;
    first ??= `transfers[${i}] (${account} at bank ${bank})`;
  });
  if (first === null) return null;
  return `${count} of ${transfers.length} transfers have a receiverAccountNumber that fails the NUBAN check digit for its bank (first ${first}): production would fail those items`;
}

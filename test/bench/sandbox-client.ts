// Talking to a running sandbox: JSON requests, signing in as business A1 of the fixtures, and the transfer that
// the writes and the dashboard fan-out both load it with.
import clients from '../../fixtures/clients.json' with { type: 'json' };
import type { Server } from './processes.js';
import type { LoadTarget } from './wrk.js';

const clientA = clients[0];
const businessA1 = clientA?.businesses[0];
if (!clientA || !businessA1) throw new Error('fixtures/clients.json must hold client A with business A1');
/** Client A of the fixtures and its business A1, whose keys every part signs in with. */
export const A = {
  email: clientA.owner.email,
  password: clientA.owner.password,
  secretKey: clientA.secretKey,
  publicKey: clientA.publicKey,
  businessId: businessA1.id,
};

export async function requestJson(url: string, init: RequestInit = {}): Promise<unknown> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function signIn(server: Server): Promise<string> {
  const body = await requestJson(`${server.url}/api/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: A.email, password: A.password }),
  });
  const data = isRecord(body) ? body.data : undefined;
  const token = isRecord(data) ? data.accessToken : undefined;
  if (typeof token !== 'string')
    throw new Error(`sign-in answered without an access token: ${JSON.stringify(body)}`);
  return token;
}

export function schemeA(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, SECRET_KEY: A.secretKey, businessId: A.businessId };
}

/** A new transfer each request (`{n}` makes its reference unique). */
export const transferWrite = (server: Server, headers: Record<string, string>): LoadTarget => ({
  url: `${server.url}/api/v1/clients/business/customers/funds/transfer`,
  method: 'POST',
  headers,
  body: '{"amount":100,"receiverAccountNumber":"0123456789","receiverBankCode":"058","retrievalReference":"bench-{n}","narration":"bench"}',
});

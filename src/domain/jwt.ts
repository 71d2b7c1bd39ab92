import { createHmac, timingSafeEqual } from 'node:crypto';

/** The claims of an access token. */
export interface TokenClaims {
  /** User id. */
  sub: string;
  clientId: string;
  role: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expires at, seconds since the epoch. */
  exp: number;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function sign(input: string, key: string): Buffer {
  return createHmac('sha256', key).update(input).digest();
}

/** A signed HS256 JWT. */
export function signToken(claims: TokenClaims, key: string): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${sign(body, key).toString('base64url')}`;
}

export type VerifyResult =
  | { ok: true; claims: TokenClaims }
  | { ok: false; reason: 'invalid' | 'expired' | 'not-yet-valid' };

/** Whether a token was issued after `nowMs`: minted at a time the clock has not reached (it was reset, or imported). */
export function issuedLater(claims: TokenClaims, nowMs: number): boolean {
  return claims.iat * 1000 > nowMs;
}

/** Checks the signature (constant time), the algorithm, the time of issue and the expiry against `nowMs`. */
export function verifyToken(token: string, key: string, nowMs: number): VerifyResult {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'invalid' };
  const [header, payload, signature] = parts as [string, string, string];
  if (header !== HEADER) return { ok: false, reason: 'invalid' };
  // Compared as the canonical base64url text, not as the bytes it decodes to: Node's decoder also takes padding
  // (`=`), standard base64 (`+`, `/`) and stray characters, so a token altered that way would still verify.
  const expected = Buffer.from(sign(`${header}.${payload}`, key).toString('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: 'invalid' };
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number' || typeof claims.sub !== 'string')
    return { ok: false, reason: 'invalid' };
  if (issuedLater(claims, nowMs)) return { ok: false, reason: 'not-yet-valid' };
  if (claims.exp * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, claims };
}

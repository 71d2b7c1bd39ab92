import { credentialOf } from '../domain/redact.js';

// A journal entry as a `curl` command that sends it again: one line of POSIX shell. It is built from what the
// journal shows (redacted), never from a secret: a credential header asks the shell for it instead.

/** What a command is built from: the request as the journal shows it. */
export interface CurlRequest {
  method: string;
  /** Absolute, query string included (its secret parameters already redacted). */
  url: string;
  /** Lower-case names; credentials redacted (`redactHeader`). */
  headers: Readonly<Record<string, string>>;
  /** The JSON text of the body as shown (secret fields redacted); null for none. */
  body: string | null;
}

/**
 * Headers curl sets itself, or that belong to one connection: sending the recorded ones would contradict what
 * curl computes (a length, an encoding it cannot decode) or hold up the request (`expect: 100-continue`).
 */
const LEFT_OUT = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'accept-encoding',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'proxy-connection',
  'expect',
]);

/** `text` as one POSIX single-quoted word: a `'` inside ends the quote, adds an escaped `'` and opens another. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** The shell variable a credential header's secret is read from: `secret_key` → `SECRET_KEY`, `x-api-secret` → `X_API_SECRET`. */
export function secretVariable(header: string): string {
  const name = header.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

/**
 * One `-H` argument, single-quoted; for a credential, everything up to the secret single-quoted and then the
 * variable alone double-quoted, in one shell word (`-H 'authorization: Bearer '"$AUTHORIZATION"`). Nothing recorded
 * sits inside double quotes: there interactive bash would still expand a `!` (history) and any shell a `` ` `` or
 * `$`, so a pasted command could run an earlier one.
 */
function headerArgument(name: string, value: string): string {
  const credential = credentialOf(name, value);
  if (credential === null) return `-H ${shellQuote(`${name}: ${value}`)}`;
  const scheme = credential.scheme === '' ? '' : `${credential.scheme} `;
  return `-H ${shellQuote(`${name}: ${scheme}`)}"$${secretVariable(name)}"`;
}

/**
 * The one-line command: `curl -X METHOD 'url' -H 'name: value' … --data-raw '<body>'`. Every word single-quoted;
 * a credential header's secret replaced by a shell variable named after it, the only double-quoted part of the
 * word (`-H 'authorization: Bearer '"$AUTHORIZATION"`), to be set to the real secret before running it. Connection headers and the ones curl computes
 * (`LEFT_OUT`) are left out. A JSON body's line breaks, whitespace between its tokens, become spaces, so the
 * command stays one line and sends the same JSON. `HEAD` is `--head` (curl waits for a body after `-X HEAD`); a URL
 * with brackets or braces gets `--globoff`, which curl would otherwise read as a range.
 */
export function curlCommand(request: CurlRequest): string {
  const { method } = request;
  // A method is a token, which may hold a quote: quoted unless it is plain letters.
  const methodWord = /^[A-Za-z]+$/.test(method) ? method : shellQuote(method);
  const words = ['curl', method === 'HEAD' ? '--head' : `-X ${methodWord}`];
  if (/[[\]{}]/.test(request.url)) words.push('--globoff');
  words.push(shellQuote(request.url));
  for (const [name, value] of Object.entries(request.headers))
    if (!LEFT_OUT.has(name.toLowerCase())) words.push(headerArgument(name, value));
  if (request.body !== null) words.push(`--data-raw ${shellQuote(request.body.replace(/\r\n|\r|\n/g, ' '))}`);
  return words.join(' ');
}

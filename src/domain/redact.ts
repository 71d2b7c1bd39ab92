// What the request journal, its HAR export and the log never show: credentials in headers, query strings and
// JSON bodies. One place, so that the three agree; `test/api/control/requests.journal.test.ts` walks every route's body and
// response schemas and fails on a field whose name looks secret and is not covered here.

/** What a secret shows: its last 4 characters, or nothing of it when it is 8 characters or fewer. */
export function masked(value: string): string {
  return value.length <= 8 ? '****' : `****${value.slice(-4)}`;
}

/** What a report shows of a text from outside at most, in characters (`maskedText`). */
export const SHOWN_TEXT_LIMIT = 200;

/** A run of key-like characters this long or longer is taken for a key (`maskedText`). */
export const KEY_RUN = 24;

/** `[A-Za-z0-9_-]`: the characters keys, tokens and ids are made of. */
function isKeyChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 45 ||
    code === 95
  );
}

/**
 * A text from outside (a message the bank wrote, a path an app sent) as a report may show it: every run of
 * `KEY_RUN` (24) or more key-like characters (`[A-Za-z0-9_-]`) masked as `masked` shows a secret (a message could
 * quote a key it was given), control characters as spaces (one line), and at most `limit` characters of the
 * result, an ending `…` (counted in them) marking a cut. One pass over the text and no regular expression: a run
 * of 10 MB costs its length once, where a pattern's backtracking overflowed the stack.
 */
export function maskedText(text: string, limit: number = SHOWN_TEXT_LIMIT): string {
  const parts: string[] = [];
  let length = 0;
  let i = 0;
  while (i < text.length && length < limit) {
    const code = text.charCodeAt(i);
    if (!isKeyChar(code)) {
      const shown = code < 32 || code === 127 ? ' ' : text.charAt(i);
      parts.push(shown);
      length += 1;
      i += 1;
      continue;
    }
    let end = i + 1;
    while (end < text.length && isKeyChar(text.charCodeAt(end))) end += 1;
    const run = end - i >= KEY_RUN ? masked(text.slice(i, end)) : text.slice(i, end);
    parts.push(run);
    length += run.length;
    i = end;
  }
  const out = parts.join('');
  if (i >= text.length && out.length <= limit) return out;
  // The mark counts in the limit, so a text shown once is shown again as it is.
  let cut = out.slice(0, Math.max(0, limit - 1));
  // Half of a surrogate pair is not a character: it goes with the rest.
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * Headers whose value is a credential: the sandbox's own (`authorization`, `secret_key`, `x-api-secret`,
 * `x-sandbox-token`, the dashboard's cookie, the `AUTH-KEY` a webhook delivery carries) and any whose name says
 * token, secret, password, cookie or auth-key. `x-api-key` is the public key (`pk_…`) and stays readable, like the
 * `publicKey` field.
 */
const SECRET_HEADER = /authorization|secret|token|password|cookie|auth-key/i;

/**
 * JSON fields (and query parameters) whose value is a secret, by name, case-insensitively: passwords, access
 * and invitation tokens, the secret key, the webhook auth key, the JWT key of the state, retired secret keys,
 * OTPs. A password or an OTP shows nothing of itself (its last characters are a real part of it); the others show
 * their last 4 characters, enough to tell two keys apart.
 */
const SECRET_FIELDS = new Set([
  'password',
  'newpassword',
  'oldpassword',
  'currentpassword',
  'confirmpassword',
  'accesstoken',
  'refreshtoken',
  'authorizationtoken',
  'token',
  'secretkey',
  'secret_key',
  'secret',
  'apisecret',
  'webhookauthkey',
  'jwtsecret',
  'key',
  'otp',
  'pin',
]);
const WHOLLY_HIDDEN = new Set([
  'password',
  'newpassword',
  'oldpassword',
  'currentpassword',
  'confirmpassword',
  'otp',
  'pin',
]);

/** Whether a JSON field or query parameter of this name holds a secret. */
export const isSecretField = (name: string): boolean => SECRET_FIELDS.has(name.toLowerCase());

/** Whether a header of this (any case) name holds a credential. */
export const isSecretHeader = (name: string): boolean => SECRET_HEADER.test(name);

/** A secret field's value as shown. */
function hiddenField(name: string, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (WHOLLY_HIDDEN.has(name.toLowerCase())) return '****';
  if (typeof value === 'string') return masked(value);
  // A secret given as a number, an object or a list: nothing of it is shown.
  return '****';
}

/**
 * A credential header's value in its two parts: the scheme word an `Authorization` shows (`Bearer`; '' for none)
 * and the secret after it. Null for a header that is not a credential. What `redactHeader` hides is the secret,
 * and what a `curl` command of the journal asks a shell variable for.
 */
export function credentialOf(name: string, value: string): { scheme: string; secret: string } | null {
  if (!isSecretHeader(name)) return null;
  const space = value.indexOf(' ');
  if (/authorization/i.test(name) && space > 0)
    return { scheme: value.slice(0, space), secret: value.slice(space + 1).trim() };
  return { scheme: '', secret: value };
}

/** A header's value as shown: `Bearer ****9f3a` keeps the scheme word of an `Authorization`. */
export function redactHeader(name: string, value: string): string {
  const credential = credentialOf(name, value);
  if (credential === null) return value;
  const secret = masked(credential.secret);
  return credential.scheme === '' ? secret : `${credential.scheme} ${secret}`;
}

/** A secret's value shorter than this is not looked for in other texts: too many false hits. */
const SHORTEST_SOUGHT = 6;

/** The values of the secret fields of a document, each with what it shows, to find them in its other texts. */
function secretsOf(value: unknown, found: Map<string, string>): void {
  if (Array.isArray(value)) {
    for (const element of value) secretsOf(element, found);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, field] of Object.entries(value)) {
    if (!isSecretField(key)) secretsOf(field, found);
    else if (typeof field === 'string' && field.length >= SHORTEST_SOUGHT)
      found.set(field, hiddenField(key, field) as string);
  }
}

function redactWith(value: unknown, secrets: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') {
    let text = value;
    for (const [secret, shown] of secrets) if (text.includes(secret)) text = text.replaceAll(secret, shown);
    return text;
  }
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const shown = redactWith(value[i], secrets);
      if (shown !== value[i]) {
        out ??= value.slice();
        out[i] = shown;
      }
    }
    return out ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    const shown = isSecretField(key) ? hiddenField(key, field) : redactWith(field, secrets);
    if (shown !== field) {
      out ??= { ...value };
      // Defined, not assigned: a `__proto__` field of parsed JSON is a field like any other.
      Object.defineProperty(out, key, { value: shown, enumerable: true, writable: true, configurable: true });
    }
  }
  return out ?? value;
}

/**
 * A parsed JSON value with every secret field redacted, at any depth, and each secret's value wherever else the
 * document repeats it (an outbox message's text quoting the invitation token of its `data`). The value itself when
 * it holds no secret (so a caller can tell whether its text can be shown as it was), else a copy.
 */
export function redactJson(value: unknown): unknown {
  const secrets = new Map<string, string>();
  secretsOf(value, secrets);
  return redactWith(value, secrets);
}

/** A query string's parameters as shown (the dashboard's `?token=` redacted). */
export function redactQuery(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) out[key] = isSecretField(key) ? masked(value) : value;
  return out;
}

/** A URL with its secret query parameters redacted. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark === -1) return url;
  const params = new URLSearchParams(url.slice(mark + 1));
  let changed = false;
  for (const [key, value] of params) {
    if (isSecretField(key)) {
      params.set(key, masked(value));
      changed = true;
    }
  }
  return changed ? `${url.slice(0, mark)}?${params.toString()}` : url;
}

// The log's webhook lines: a receiver's URL is the user's own, and which of its parts is a secret only its owner
// knows, so its userinfo and every query value are hidden, in the URL and in an error that quotes it.

const HIDDEN = '***';

/**
 * A webhook receiver's URL fit for a log line: userinfo (`user:pass@`) and every query value replaced by `***`, the fragment
 * dropped. Which query parameters carry a secret is the receiver's business, so none is shown. Text that is not
 * a URL is shown as `***`.
 */
export function redactWebhookUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return HIDDEN;
  }
  const userinfo = parsed.username || parsed.password ? `${HIDDEN}@` : '';
  const query = [...parsed.searchParams.keys()].map((k) => `${encodeURIComponent(k)}=${HIDDEN}`).join('&');
  return `${parsed.protocol}//${userinfo}${parsed.host}${parsed.pathname}${query ? `?${query}` : ''}`;
}

/**
 * `text` (an error message about a request to `url`) on one line, with the URL's secrets (its userinfo and query
 * values, as given and as decoded) replaced by `***`, wherever they appear in it.
 */
export function scrubWebhookError(text: string, url: string): string {
  let out = text.replace(/\s+/g, ' ').trim();
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    return out.split(url).join(HIDDEN);
  }
  const secrets = new Set<string>();
  const rawValues = parsed.search
    .slice(1)
    .split('&')
    .map((pair) => pair.slice(pair.indexOf('=') + 1));
  for (const s of [parsed.username, parsed.password, ...parsed.searchParams.values(), ...rawValues]) {
    if (!s) continue;
    secrets.add(s);
    try {
      secrets.add(decodeURIComponent(s));
    } catch {
      // Not percent-encoded text: the raw form is enough.
    }
  }
  // Longest first, so a secret that contains another is hidden whole.
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join(HIDDEN);
  return out;
}

// A recording (`--record`): what the real bank answered, kept in a file to replay offline. It must never hold a key,
// a token, a password or a person's BVN, whatever field the bank put it in: the journal's redaction by field name,
// every long key-like run masked as the drift report masks one (`maskedText`), and the fields that name a person.

/** Fields that identify a person, hidden from a recording whatever their value looks like. */
const PERSONAL_FIELDS = new Set(['bvn', 'nin']);

/** The words that make a field secret in a recording, wherever they stand in its name. */
const SECRET_WORDS = new Set(['pin', 'password', 'passcode', 'secret', 'token', 'otp', 'cookie', 'key']);
/** Of those, the ones whose every character is a real part of the secret: nothing of them is shown. */
const WHOLLY_HIDDEN_WORDS = new Set(['pin', 'password', 'passcode', 'otp']);

/**
 * A field name's words, lowercase: split at `_`, `-` and spaces, and where the case changes (`transactionPin`:
 * transaction, pin; `OTPCode`: otp, code; `apiKeyId`: api, key, id). `keyword` is one word.
 */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/** What a recording shows of a field whose name holds a secret word: null as null, nothing of anything else. */
function secretWordField(name: string, value: unknown): unknown | undefined {
  const words = nameWords(name);
  if (!words.some((word) => SECRET_WORDS.has(word))) return undefined;
  if (value === null) return null;
  if (typeof value !== 'string' || words.some((word) => WHOLLY_HIDDEN_WORDS.has(word))) return '****';
  return masked(value);
}

/** The request headers whose values are the app's own credentials: a recording never repeats them. */
const CREDENTIAL_HEADERS = ['authorization', 'secret_key', 'x-api-key', 'x-api-secret', 'cookie', 'auth-key'];

/** A credential shorter than this is not looked for in an answer: too many false hits. */
const SHORTEST_CREDENTIAL = 4;

/**
 * The values of a request's credentials, as an answer could repeat them: each of `CREDENTIAL_HEADERS` whole, and
 * the token after an `Authorization`'s scheme word; those of 4 characters or more, the longest first (a value that
 * holds another is hidden whole).
 */
export function credentialValues(headers: { get(name: string): string | null }): string[] {
  const found = new Set<string>();
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name)?.trim();
    if (!value) continue;
    found.add(value);
    const space = value.indexOf(' ');
    if (name === 'authorization' && space > 0) found.add(value.slice(space + 1).trim());
  }
  return [...found].filter((v) => v.length >= SHORTEST_CREDENTIAL).sort((a, b) => b.length - a.length);
}

/** A text with every one of `credentials` in it replaced by `****`. */
function withoutCredentials(text: string, credentials: readonly string[]): string {
  let out = text;
  for (const credential of credentials)
    if (out.includes(credential)) out = out.replaceAll(credential, '****');
  return out;
}

/** A uuid: an id the app sends back (a batch's, a business's), kept as it is though it is a long key-like run. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A string of a recording: every run of `KEY_RUN` or more key-like characters masked, but a uuid kept. */
function recordedText(text: string): string {
  if (text.length === 36 && UUID.test(text)) return text;
  const parts: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (!isKeyChar(text.charCodeAt(i))) {
      const start = i;
      while (i < text.length && !isKeyChar(text.charCodeAt(i))) i += 1;
      parts.push(text.slice(start, i));
      continue;
    }
    let end = i + 1;
    while (end < text.length && isKeyChar(text.charCodeAt(end))) end += 1;
    const run = text.slice(i, end);
    parts.push(run.length >= KEY_RUN && !UUID.test(run) ? masked(run) : run);
    i = end;
  }
  return parts.join('');
}

function recordedValue(value: unknown, field: string, credentials: readonly string[]): unknown {
  if (PERSONAL_FIELDS.has(field.toLowerCase()) && value !== null)
    return typeof value === 'string' ? masked(value) : '****';
  if (typeof value === 'string') return recordedText(withoutCredentials(value, credentials));
  if (Array.isArray(value)) return value.map((item) => recordedValue(item, field, credentials));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  // Defined, not assigned: a `__proto__` field of parsed JSON is a field like any other.
  for (const [key, item] of Object.entries(value))
    Object.defineProperty(out, recordedText(withoutCredentials(key, credentials)), {
      value: recordedField(key, item, credentials),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/** A field of a recorded object: one whose name holds a secret word masked whole, else recorded as any value. */
function recordedField(key: string, value: unknown, credentials: readonly string[]): unknown {
  // Redacted already, as the journal shows it (`redactJson`).
  if (isSecretField(key)) return value;
  const secret = secretWordField(key, value);
  return secret === undefined ? recordedValue(value, key, credentials) : secret;
}

/**
 * A parsed JSON answer as a recording keeps it: the secret fields redacted as the journal shows them (`redactJson`:
 * a key to its last 4 characters, a password to `****`); every field whose name holds a word `pin`, `password`,
 * `passcode`, `secret`, `token`, `otp`, `cookie` or `key` (`nameWords`) masked whatever its value (a string to its
 * last 4 characters, a pin, password, passcode or OTP and any value not a string to `****`); a BVN or NIN to its
 * last 4; the request's own credentials (`credentials`, from `credentialValues`) as `****` wherever the answer
 * repeats them; and in every other text (keys included) every run of 24 or more key-like characters masked to its
 * last 4, as the drift report shows one; a uuid is kept (the ids an app sends back). Recursive: the caller bounds
 * the nesting.
 */
export function recordedJson(value: unknown, credentials: readonly string[] = []): unknown {
  return recordedValue(redactJson(value), '', credentials);
}

/**
 * A path as a recording matches it, a regular expression of the whole path: each segment as it is, but one that
 * looks like a key (a run of 24 or more key-like characters, not a uuid) any segment, so that no secret is kept.
 */
export function recordedPathPattern(path: string): string {
  const segments = path
    .split('/')
    .map((segment) =>
      recordedText(segment) === segment ? segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : '[^/]+',
    );
  return `^${segments.join('/')}$`;
}

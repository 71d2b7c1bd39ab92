import { signToken } from '../../src/domain/jwt.js';
import type { Sandbox } from '../../src/sandbox.js';
import { transferEntry } from '../support/money.js';
import { A, B, call, memorySandbox, schemeA, schemeB, tokenFor } from '../support/sandbox.js';
import {
  type AuthSpec,
  type BodySpec,
  type BusinessRef,
  type FileSpec,
  Live,
  type RequestSpec,
  type SecretVariant,
  type UserKey,
} from './model.js';

/** The sandbox every generated request goes to, with the tokens of the fixture users. */
export interface Target {
  sandbox: Sandbox;
  tokens: Record<UserKey, string>;
  /** The state each run starts from: the fixtures plus one record of every kind (see `buildWorld`). */
  world: string;
}

/** A request as sent: what a failure report shows. */
export interface Sent {
  method: string;
  url: string;
  headers: [string, string][];
  body: string | null;
  /** The form fields and files, when the body is `multipart/form-data`. */
  form: [string, string][] | null;
  /** What a body too long to show is (the state export with its edits). */
  summary: string | null;
}

export interface Received {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
}

const USERS: Record<UserKey, { email: string; password: string }> = {
  ownerA: A.owner,
  managerA: A.manager,
  viewerA: A.viewer,
  ownerB: B.owner,
};
const USER_CLIENT: Record<UserKey, 'A' | 'B'> = { ownerA: 'A', managerA: 'A', viewerA: 'A', ownerB: 'B' };
const CLIENT_IDS = { A: A.id, B: B.id };
const BUSINESS_IDS = { a1: A.a1.id, a2: A.a2.id, b1: B.b1.id };
const RECEIVER = '0123456789';
const BANK = '044';

export async function createTarget(): Promise<Target> {
  const sandbox = await memorySandbox({
    // Webhooks only ever go to addresses that refuse at once; keep their retries short.
    webhookTimeout: 500,
    webhookRetryBase: 5,
    webhookAttempts: 2,
  });
  // A token from before a reset is refused: the reset first, then the sign-ins.
  await sandbox.reset();
  const tokens = {} as Record<UserKey, string>;
  for (const [key, user] of Object.entries(USERS) as [UserKey, { email: string; password: string }][]) {
    tokens[key] = await tokenFor(sandbox, user);
  }
  const world = await buildWorld(sandbox, tokens);
  return { sandbox, tokens, world };
}

async function must(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: Parameters<typeof call>[3],
  status: number,
): Promise<Record<string, unknown>> {
  const res = await call(sandbox, method, path, options);
  if (res.status !== status) {
    throw new Error(`fuzz world: ${method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
  }
  return (res.body.data ?? {}) as Record<string, unknown>;
}

/**
 * The fixtures plus one record of every kind, so that single generated requests find ids to name: a transfer
 * and a failed one, a payout account, a dispute, a virtual account with an incoming payment (and its webhook
 * delivery, failed: the URL refuses), an invitation, a new business with its OTP, a settled batch with a failed
 * item and a pending batch; and B1 with a balance near the largest one allowed and a virtual account.
 */
async function buildWorld(sandbox: Sandbox, tokens: Record<UserKey, string>): Promise<string> {
  const a = schemeA(tokens.ownerA, A.secretKey, A.a1.id);
  const b = schemeB(A.publicKey, A.secretKey, A.a1.id);
  const transfer = (retrievalReference: string, receiverAccountNumber: string) => ({
    amount: 150_000,
    receiverAccountNumber,
    receiverBankCode: BANK,
    retrievalReference,
    narration: 'fuzz world',
  });
  const TRANSFER = '/api/v1/clients/business/customers/funds/transfer';
  await must(sandbox, 'POST', TRANSFER, { headers: a, body: transfer('seed-ok', RECEIVER) }, 200);
  // The answer carries only the amounts (the docs): the reference a dispute names is on the ledger entry.
  const okEntry = await transferEntry(sandbox, 'seed-ok');
  await must(sandbox, 'POST', TRANSFER, { headers: a, body: transfer('seed-fail', '0000000051') }, 400);
  await must(
    sandbox,
    'POST',
    '/api/v1/clients/business/payouts',
    {
      headers: a,
      body: { accountName: 'Fuzz Payee', accountNumber: RECEIVER, bankName: 'Access', bankCode: BANK },
    },
    201,
  );
  await must(
    sandbox,
    'POST',
    '/api/v1/clients/business/disputes',
    {
      headers: a,
      body: { transactionId: okEntry.id, description: 'fuzz world dispute' },
    },
    201,
  );
  await must(
    sandbox,
    'PATCH',
    '/api/v1/clients/settings/update-webhook-url',
    { headers: a, body: { webhookUrl: 'http://127.0.0.1:9/hooks' } },
    200,
  );
  const va = await must(
    sandbox,
    'POST',
    '/api/v1/clients/business/virtual-accounts',
    { headers: a, body: { firstName: 'Fuzz', lastName: 'World', type: 'temporal', reference: 'seed-va' } },
    201,
  );
  await must(
    sandbox,
    'POST',
    '/__sandbox/incoming-payments',
    { body: { accountNumber: String(va.accountNumber), amount: 500_000 } },
    201,
  );
  await must(
    sandbox,
    'POST',
    '/api/v1/clients/members',
    {
      headers: a,
      body: { email: 'invited@adebayo.test', memberRoleId: '7a1e0000-0000-4000-8000-000000000003' },
    },
    201,
  );
  await must(
    sandbox,
    'POST',
    '/api/v1/clients/business',
    { headers: a, body: { businessName: 'Fuzz World Ltd', countryId: 'NG', isNewBusiness: true } },
    201,
  );
  const BULK = '/api/v1/clients/business/customers/funds/bulk-transfer';
  const settled = await must(
    sandbox,
    'POST',
    BULK,
    {
      headers: b,
      body: {
        batchName: 'Fuzz settled',
        transfers: [
          transfer('bulk-1', RECEIVER),
          transfer('bulk-2', '0000000091'),
          transfer('bulk-3', RECEIVER),
        ],
      },
    },
    201,
  );
  await must(
    sandbox,
    'POST',
    `${BULK}/process`,
    { headers: b, body: { bulkTransferId: String(settled.id) } },
    202,
  );
  await must(
    sandbox,
    'POST',
    BULK,
    { headers: b, body: { batchName: 'Fuzz pending', transfers: [transfer('bulk-4', RECEIVER)] } },
    201,
  );
  // B1 sits near the largest balance the control API sets (Number.MAX_SAFE_INTEGER), with a virtual account of
  // its own: the edge of what a balance may hold.
  await must(
    sandbox,
    'PUT',
    `/__sandbox/businesses/${B.b1.id}/balance`,
    { body: { balance: Number.MAX_SAFE_INTEGER - 1_000_000 } },
    200,
  );
  await must(
    sandbox,
    'POST',
    '/api/v1/clients/business/virtual-accounts',
    {
      headers: schemeA(tokens.ownerB, B.secretKey, B.b1.id),
      body: { firstName: 'Fuzz', lastName: 'Edge', type: 'permanent', reference: 'seed-va-b' },
    },
    201,
  );
  await sandbox.drain();
  return JSON.stringify(sandbox.store.exportState());
}

/**
 * Back to the world: the state, the queues, the clock, the scenario, and an empty request journal (what the
 * journal's routes read is the run's own requests, not those of every run before it).
 */
export async function restoreWorld(target: Target): Promise<void> {
  await target.sandbox.reset();
  await target.sandbox.store.replaceState(JSON.parse(target.world));
  const cleared = await target.sandbox.app.request('/__sandbox/requests', { method: 'DELETE' });
  if (cleared.status !== 200) throw new Error(`DELETE /__sandbox/requests answered ${cleared.status}`);
}

// ---------------------------------------------------------------------------------------------------------
// Resolving a generated request against the live state.

function idsOf(sandbox: Sandbox, source: Live['source']): string[] {
  const { store } = sandbox;
  switch (source) {
    case 'invitationTokens':
      return store.all('invitations').map((i) => i.token);
    case 'virtualAccountNumbers':
      return store.all('virtualAccounts').map((v) => v.accountNumber);
    case 'businessAccountNumbers':
      return store.all('businesses').flatMap((b) => (b.account ? [b.account.accountNumber] : []));
    case 'otps':
      return store.all('outbox').flatMap((m) => (m.data.otp ? [m.data.otp] : []));
    default:
      return store.all(source).map((r) => r.id);
  }
}

function resolveLive(sandbox: Sandbox, value: Live): string {
  const ids = idsOf(sandbox, value.source);
  return ids[value.index % Math.max(ids.length, 1)] ?? '00000000-0000-4000-8000-00000000dead';
}

/** The value with every `Live` in it replaced by what it names now. */
function resolveDeep(sandbox: Sandbox, value: unknown): unknown {
  if (value instanceof Live) return resolveLive(sandbox, value);
  if (Array.isArray(value)) return value.map((v) => resolveDeep(sandbox, v));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: resolveDeep(sandbox, v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

function clientOf(sandbox: Sandbox, name: 'A' | 'B') {
  const client = sandbox.store.get('clients', CLIENT_IDS[name]);
  return { publicKey: client?.publicKey ?? '', secretKey: client?.secretKey ?? '' };
}

function secretOf(
  sandbox: Sandbox,
  variant: SecretVariant,
  name: 'A' | 'B',
  kind: 'secret' | 'public',
): string {
  const own = clientOf(sandbox, name);
  const other = clientOf(sandbox, name === 'A' ? 'B' : 'A');
  if (variant === 'valid') return kind === 'secret' ? own.secretKey : own.publicKey;
  if (variant === 'other') return kind === 'secret' ? other.secretKey : other.publicKey;
  if (variant === 'swapped') return kind === 'secret' ? own.publicKey : own.secretKey;
  return variant;
}

function businessHeader(sandbox: Sandbox, ref: BusinessRef): string | null {
  if (ref instanceof Live) return resolveLive(sandbox, ref);
  if (typeof ref === 'string') return ref;
  if (ref.kind === 'none') return null;
  return BUSINESS_IDS[ref.name];
}

function tokenOf(target: Target, user: UserKey, variant: AuthSpec & { kind: 'A' }): string {
  const valid = target.tokens[user];
  const meta = target.sandbox.store.meta();
  const now = Math.floor(target.sandbox.clock.now() / 1000);
  const claims = {
    sub: '',
    clientId: CLIENT_IDS[USER_CLIENT[user]],
    role: 'Admin',
    iat: now,
    exp: now + 3600,
  };
  switch (variant.token) {
    case 'valid':
      return `Bearer ${valid}`;
    case 'expired':
      return `Bearer ${signToken({ ...claims, sub: userId(target, user), iat: now - 7200, exp: now - 3600 }, meta.jwtSecret)}`;
    case 'wrong-key':
      return `Bearer ${signToken({ ...claims, sub: userId(target, user) }, 'not-the-key')}`;
    case 'unknown-user':
      return `Bearer ${signToken({ ...claims, sub: 'a0a00000-0000-4000-8000-00000000dead' }, meta.jwtSecret)}`;
    case 'alg-none': {
      const [, payload] = valid.split('.');
      return `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload ?? ''}.`;
    }
    case 'lowercase-bearer':
      return `bearer ${valid}`;
    case 'no-scheme':
      return valid;
    case 'truncated':
      return `Bearer ${valid.slice(0, -5)}`;
  }
}

function userId(target: Target, user: UserKey): string {
  return target.sandbox.store.where('users', 'email', USERS[user].email)[0]?.id ?? '';
}

function authHeaders(target: Target, auth: AuthSpec): [string, string][] {
  const { sandbox } = target;
  const withBusiness = (h: [string, string][], ref: BusinessRef) => {
    const id = businessHeader(sandbox, ref);
    return id === null ? h : [...h, ['businessId', id] as [string, string]];
  };
  switch (auth.kind) {
    case 'none':
      return [];
    case 'raw':
      return auth.headers;
    case 'A':
      return withBusiness(
        [
          ['authorization', tokenOf(target, auth.user, auth)],
          ['SECRET_KEY', secretOf(sandbox, auth.secret, USER_CLIENT[auth.user], 'secret')],
        ],
        auth.business,
      );
    case 'B':
      return withBusiness(
        [
          ['x-api-key', secretOf(sandbox, auth.publicKey, auth.client, 'public')],
          ['x-api-secret', secretOf(sandbox, auth.secret, auth.client, 'secret')],
        ],
        auth.business,
      );
    case 'secretKey':
      return [['SECRET_KEY', secretOf(sandbox, auth.secret, auth.client, 'secret')]];
  }
}

/** Header values as a client library can send them: Latin-1, no line breaks or NUL (UTF-8 bytes as Latin-1). */
function headerValue(value: string): string {
  const bytes = Buffer.from(value, 'utf8').toString('latin1');
  return bytes.replace(/[\r\n\0]/g, ' ');
}

const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d];
const GIF = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];

function fileOf(spec: FileSpec): File {
  const bytes =
    spec.bytes === 'jpeg'
      ? JPEG
      : spec.bytes === 'png'
        ? PNG
        : spec.bytes === 'gif'
          ? GIF
          : spec.bytes === 'empty'
            ? []
            : spec.bytes === 'text'
              ? [...Buffer.from('hello')]
              : spec.bytes;
  return new File([new Uint8Array(bytes)], spec.name, { type: spec.type });
}

function setPath(doc: unknown, path: string[], value: unknown): void {
  let node = doc;
  for (const [i, key] of path.entries()) {
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (i === path.length - 1) {
      Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
      return;
    }
    node = Object.hasOwn(record, key) ? record[key] : undefined;
  }
}

function bodyOf(
  target: Target,
  body: BodySpec,
): { text: string | null; form: FormData | null; fields: [string, string][] | null; summary?: string } {
  const { sandbox } = target;
  switch (body.kind) {
    case 'none':
      return { text: null, form: null, fields: null };
    case 'raw':
      return { text: body.text, form: null, fields: null };
    case 'huge':
      return { text: `{"x":"${'a'.repeat(body.bytes)}"}`, form: null, fields: null };
    case 'json': {
      const value = resolveDeep(sandbox, body.value);
      if (!body.patch) return { text: JSON.stringify(value) ?? 'null', form: null, fields: null };
      const PLACEHOLDER = '\u0001patch\u0001';
      const base =
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? (value as Record<string, unknown>)
          : {};
      Object.defineProperty(base, body.patch.key, {
        value: PLACEHOLDER,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      const text = JSON.stringify(base).replace(JSON.stringify(PLACEHOLDER), body.patch.raw);
      return { text, form: null, fields: null };
    }
    case 'state': {
      const doc = sandbox.store.exportState() as unknown as { collections: Record<string, unknown> };
      const copy = JSON.parse(JSON.stringify(doc)) as { collections: Record<string, unknown> };
      if (body.drop) delete copy.collections[body.drop];
      const edits: string[] = [];
      for (const [path, value] of body.edits) {
        const resolved = resolveDeep(sandbox, value);
        setPath(copy, path, resolved);
        edits.push(`${path.join('.')} = ${JSON.stringify(resolved)}`);
      }
      const summary = `the export of GET /__sandbox/state${body.drop ? ` without collections.${body.drop}` : ''}${edits.length > 0 ? `, with ${edits.join(', ')}` : ''}`;
      return { text: JSON.stringify(copy), form: null, fields: null, summary };
    }
    case 'form': {
      const form = new FormData();
      const fields: [string, string][] = [];
      for (const [key, value] of body.fields) {
        if (value instanceof Live) {
          const v = resolveLive(sandbox, value);
          form.append(key, v);
          fields.push([key, v]);
        } else if (typeof value === 'string') {
          form.append(key, value);
          fields.push([key, value]);
        } else {
          form.append(key, fileOf(value), value.name);
          fields.push([
            key,
            `<file ${JSON.stringify(value.name)} ${value.type} ${JSON.stringify(value.bytes)}>`,
          ]);
        }
      }
      return { text: null, form, fields };
    }
  }
}

function urlOf(sandbox: Sandbox, spec: RequestSpec): string {
  let path = spec.rawPath ?? spec.path;
  if (spec.rawPath === null) {
    for (const [name, value] of Object.entries(spec.params)) {
      path = path.replace(
        `{${name}}`,
        value instanceof Live ? encodeURIComponent(resolveLive(sandbox, value)) : value,
      );
    }
  }
  if (spec.query.kind === 'raw') return `${path}?${spec.query.text}`;
  if (spec.query.entries.length === 0) return path;
  const search = new URLSearchParams();
  for (const [key, value] of spec.query.entries) {
    const v = resolveDeep(sandbox, value);
    search.append(key, typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
  }
  return `${path}?${search.toString()}`;
}

/** Sends a generated request to the app in process. */
export async function send(target: Target, spec: RequestSpec): Promise<{ sent: Sent; received: Received }> {
  const { sandbox } = target;
  const url = urlOf(sandbox, spec);
  const headers: [string, string][] = [...authHeaders(target, spec.auth), ...spec.headers].map(([k, v]) => [
    k,
    headerValue(v),
  ]);
  const body = bodyOf(target, spec.body);
  // A form sets its own multipart content type (with the boundary).
  if (spec.body.contentType !== null && !body.form) headers.push(['content-type', spec.body.contentType]);
  const sent: Sent = {
    method: spec.method,
    url,
    headers,
    body: body.text,
    form: body.fields,
    summary: body.summary ?? null,
  };
  let res: Response;
  try {
    res = await sandbox.app.request(url, {
      method: spec.method,
      headers,
      body: body.form ?? body.text ?? undefined,
    });
  } catch (error) {
    // The app itself threw instead of answering: as bad as a 500.
    return {
      sent,
      received: {
        status: 599,
        contentType: '',
        text: `app.request threw: ${(error as Error).stack ?? error}`,
        json: null,
      },
    };
  }
  // An event stream (the dashboard's feed) never ends by itself: its status and type are the answer.
  const streaming = res.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  if (streaming) await res.body?.cancel();
  const text = streaming ? '' : await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return {
    sent,
    received: { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The state, as the control API shows it.

export type StateCollections = Record<string, { id: string }[]>;

/** `GET /__sandbox/state` as sent, parsed only when it is looked into. */
export class StateSnapshot {
  #collections: StateCollections | undefined;
  constructor(readonly text: string) {}
  get collections(): StateCollections {
    this.#collections ??= (JSON.parse(this.text) as { collections: StateCollections }).collections;
    return this.#collections;
  }
}

/**
 * The state as `GET /__sandbox/state` sends it: its handler answers `store.exportState()` as JSON, and reading it
 * here spares each step two requests through the router and the answer check of the whole state, most of the
 * file's time then (docs/performance.md). The route itself is fuzzed like every other, and the re-import check of
 * property (3) sends it.
 */
export async function stateOf(target: Target): Promise<StateSnapshot> {
  return new StateSnapshot(JSON.stringify(target.sandbox.store.exportState()));
}

/**
 * `POST /__sandbox/drain`. With the clock frozen a pending webhook retry never comes due, so the drain answers
 * 408 after its `timeoutMs` (nothing moves while the clock stands still, so the state is settled all the same);
 * a 408 with the clock running is a failure.
 */
export async function drain(target: Target): Promise<void> {
  // A frozen clock's drain waits its whole timeout, so it gets a short one; a running clock's drain answers as
  // soon as the queues are idle, and gets the default's room for retries that come due on a loaded machine.
  const query = target.sandbox.clock.describe().frozen ? '?timeoutMs=500' : '';
  const res = await target.sandbox.app.request(`/__sandbox/drain${query}`, { method: 'POST' });
  if (res.status === 200) return;
  if (res.status === 408 && target.sandbox.clock.describe().frozen) return;
  throw new Error(`POST /__sandbox/drain answered ${res.status}: ${await res.text()}`);
}

/** Added, removed and changed ids of each collection that differs. */
export interface StateDiff {
  collection: string;
  added: string[];
  removed: string[];
  changed: string[];
}

/** JSON with the keys of every object sorted: two records are the same whatever order their fields were set in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * What changed between two snapshots. The same text is the same state (most runs: a refusal or a read), and
 * skips parsing and comparing record by record; a text that differs may still hold the same records with their
 * fields set in another order, which the comparison by record sees through.
 */
export function diffStates(was: StateSnapshot, is: StateSnapshot): StateDiff[] {
  if (was.text === is.text) return [];
  const before = was.collections;
  const after = is.collections;
  const diffs: StateDiff[] = [];
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = new Map((before[name] ?? []).map((r) => [r.id, canonical(r)]));
    const now = new Map((after[name] ?? []).map((r) => [r.id, canonical(r)]));
    const added = [...now.keys()].filter((id) => !was.has(id));
    const removed = [...was.keys()].filter((id) => !now.has(id));
    const changed = [...now.keys()].filter((id) => was.has(id) && was.get(id) !== now.get(id));
    const reordered =
      added.length + removed.length + changed.length === 0 &&
      JSON.stringify([...was.keys()]) !== JSON.stringify([...now.keys()]);
    if (added.length + removed.length + changed.length > 0 || reordered) {
      diffs.push({ collection: name, added, removed, changed: reordered ? ['(order)'] : changed });
    }
  }
  return diffs;
}

/** A request and its answer, short enough to read in a failure report. */
export function describeExchange(sent: Sent, received: Received): string {
  const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  return [
    `request:  ${sent.method} ${clip(sent.url, 300)}`,
    `headers:  ${clip(JSON.stringify(sent.headers), 900)}`,
    sent.summary
      ? `body:     ${clip(sent.summary, 900)}`
      : sent.form
        ? `form:     ${clip(JSON.stringify(sent.form), 900)}`
        : `body:     ${sent.body === null ? '(none)' : clip(JSON.stringify(sent.body), 900)}`,
    `response: ${received.status} ${received.contentType}`,
    `          ${clip(received.text, 900)}`,
  ].join('\n');
}

import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import clients from '../../fixtures/clients.json' with { type: 'json' };
import { signIn } from '../../src/contract/api/auth.js';
import { fixture } from '../../src/contract/examples.js';
import { systemClock } from '../../src/domain/clock.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox.js';
import { dataOf } from './answers.js';
import { answerCheck } from './contract.js';

/** The fixture clients, as the tests address them. */
const [clientA, clientB] = clients;
if (!clientA || !clientB) throw new Error('fixtures/clients.json must hold clients A and B');
const [a1, a2] = clientA.businesses;
const [b1] = clientB.businesses;
if (!a1 || !a2 || !b1) throw new Error('fixtures: A needs two businesses, B one');
const manager = clientA.members.find((m) => m.role === 'Manager');
const viewer = clientA.members.find((m) => m.role === 'Viewer');
if (!manager || !viewer) throw new Error('fixtures: A needs a Manager and a Viewer');

export const A = {
  id: clientA.id,
  owner: clientA.owner,
  manager,
  viewer,
  publicKey: clientA.publicKey,
  secretKey: clientA.secretKey,
  webhookAuthKey: clientA.webhookAuthKey,
  /** Approved, with a payment account and a balance. */
  a1,
  /** Not approved, no payment account. */
  a2,
  /** The payout account the fixtures give A (a client holds at most three). */
  payout: { id: fixture.payout },
};
export const B = {
  id: clientB.id,
  owner: clientB.owner,
  publicKey: clientB.publicKey,
  secretKey: clientB.secretKey,
  b1,
};

/** A sandbox on a memory store, quiet. */
export function memorySandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return createSandbox({ inMemory: true, log: () => undefined, ...options }, systemClock, {
    checkAnswers: answerCheck,
  });
}

/**
 * One memory sandbox for the tests of the enclosing `describe` block (or of the file, at its top level), opened
 * before the first of them and closed after the last: the `let sandbox` / `beforeAll` / `afterAll` every such
 * block wrote. It answers a stand-in that reaches that sandbox, so a test passes and reads it as the sandbox itself
 * (and the block's own `beforeAll`, registered after it, finds it open); reached outside a test or a hook, it
 * throws. A test that needs a sandbox of its own still calls `memorySandbox()`.
 */
export function useSandbox(options: SandboxOptions = {}): Sandbox {
  let open: Sandbox | undefined;
  beforeAll(async () => {
    open = await memorySandbox(options);
  });
  afterAll(async () => {
    await open?.close();
    open = undefined;
  });
  return standIn(() => open, 'useSandbox()');
}

/** Where a block of tests runs: at the root of a process, or inside an isolated sandbox of it. */
export const EVERY_WORLD = ['at the root', 'in an isolated sandbox'] as const;
export type Where = (typeof EVERY_WORLD)[number];

/**
 * `useSandbox(options)`, or an isolated sandbox made in it (closed with it), as `where` says: the same tests run in
 * either world with `describe.each(EVERY_WORLD)`.
 */
export function useWorld(where: Where, options: SandboxOptions = {}): Sandbox {
  const root = useSandbox(options);
  if (where === 'at the root') return root;
  let open: Sandbox | undefined;
  beforeAll(async () => {
    open = await root.isolate();
  });
  afterAll(() => {
    open = undefined;
  });
  return standIn(() => open, 'useWorld()');
}

/**
 * A stand-in that reaches the sandbox `open()` answers when it is used, so a test reads it as the sandbox itself
 * (and a block's own `beforeAll`, registered after the one that opens it, finds it open); reached outside a test or
 * a hook, it throws. A proxy rather than a getter, so that the tests read as they did when they held the sandbox.
 */
function standIn(open: () => Sandbox | undefined, maker: string): Sandbox {
  const current = (): Sandbox => {
    const sandbox = open();
    if (sandbox) return sandbox;
    throw new Error(`${maker}: the sandbox is open only in the tests and hooks of its block`);
  };
  return new Proxy(Object.create(null) as Sandbox, { get: (_target, key) => Reflect.get(current(), key) });
}

/**
 * What a file's tests open and must close after each test, undone the newest first (a stream before the sandbox it
 * reads): `cleanups` takes anything; `sandboxFor()` opens an in-memory sandbox closed so.
 */
export function closedAfterEach(): {
  cleanups: (() => Promise<unknown>)[];
  sandboxFor: (options?: SandboxOptions) => Promise<Sandbox>;
} {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const sandboxFor = async (options: SandboxOptions = {}) => {
    const sandbox = await memorySandbox(options);
    cleanups.push(() => sandbox.close());
    return sandbox;
  };
  return { cleanups, sandboxFor };
}

type Body = Record<string, unknown> | unknown[];

/** Calls the app in process. A plain object body is sent as JSON. */
export async function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: Body | string } = {},
): Promise<{ status: number; body: Record<string, unknown> & { data?: unknown }; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await sandbox.app.request(path, { method, headers, body });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Signs in and returns the access token. */
export async function tokenFor(sandbox: Sandbox, user: { email: string; password: string }): Promise<string> {
  const res = await call(sandbox, 'POST', '/api/v1/auth/signin', {
    body: { email: user.email, password: user.password },
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return dataOf(res, signIn).accessToken;
}

/** Scheme A headers. */
export function schemeA(token: string, secretKey: string, businessId?: string): Record<string, string> {
  const h: Record<string, string> = { authorization: `Bearer ${token}`, SECRET_KEY: secretKey };
  if (businessId !== undefined) h.businessId = businessId;
  return h;
}

/** Scheme B headers. */
export function schemeB(publicKey: string, secretKey: string, businessId?: string): Record<string, string> {
  const h: Record<string, string> = { 'x-api-key': publicKey, 'x-api-secret': secretKey };
  if (businessId !== undefined) h.businessId = businessId;
  return h;
}

/** Scheme A headers of client A's owner, signed in afresh, on business A1. */
export async function ownerHeaders(sandbox: Sandbox): Promise<Record<string, string>> {
  return schemeA(await tokenFor(sandbox, A.owner), A.secretKey, A.a1.id);
}

/**
 * Resolves with the milliseconds of the next sleep started on `clock` (a request waiting on a delay rule): a request
 * is no clock task an advance waits for, so a test waits until it sleeps, then moves the clock. The sleep itself
 * goes on as usual.
 */
export function nextSleepOn(clock: Sandbox['clock']): Promise<number> {
  const sleep = clock.sleep.bind(clock);
  return new Promise<number>((resolve) => {
    vi.spyOn(clock, 'sleep').mockImplementation((ms) => {
      resolve(ms);
      return sleep(ms);
    });
  });
}

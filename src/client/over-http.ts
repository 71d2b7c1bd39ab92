import type { WaitingWork } from '../contract/control/sandbox.js';
import { MAX_LONG_PAGE } from '../domain/pagination.js';
import {
  ControlApiError,
  DrainTimeoutError,
  SandboxError,
  SandboxUnreachableError,
  VerificationError,
} from '../errors.js';
import type {
  BusinessChoice,
  ClientCredentials,
  ClientLogin,
  Ledger,
  NewClientCredentials,
  RequestEntryView,
  SandboxHandle,
  SchemeBHeaders,
  Subscription,
  VerificationView,
} from './handle.js';

/** Sends one request to the sandbox: `fetch` against a URL, or the app's own `request()` in-process. */
export type Transport = (path: string, init: RequestInit) => Promise<Response>;

interface Envelope {
  status?: unknown;
  message?: unknown;
  data?: unknown;
  errors?: unknown;
  waiting?: unknown;
}

/** The envelope's `data` of a success; the error the answer stands for otherwise. */
async function answerOf(res: Response, where: string, what: string): Promise<unknown> {
  const text = await res.text();
  let body: Envelope;
  try {
    body = JSON.parse(text) as Envelope;
  } catch {
    throw new SandboxUnreachableError(
      `${where} did not answer ${what} as a banking sandbox does (${res.status}, not JSON): is it the sandbox's URL?`,
      where,
    );
  }
  if (res.ok) return body.data;
  const message = typeof body.message === 'string' ? body.message : `${what} answered ${res.status}`;
  if (res.status === 408 && body.waiting !== undefined) {
    const timeout = /after (\d+) ms/.exec(message)?.[1];
    throw new DrainTimeoutError(Number(timeout ?? 0), body.waiting as WaitingWork, message);
  }
  const data = (body.data ?? null) as { count?: unknown; expected?: unknown; nearest?: unknown } | null;
  if (res.status === 409 && data && typeof data.count === 'number') {
    const nearest = Array.isArray(data.nearest) ? (data.nearest as RequestEntryView[]) : [];
    throw new VerificationError<RequestEntryView>(message, data.count, data.expected, nearest);
  }
  const errors = Array.isArray(body.errors) ? (body.errors as { field: string; message: string }[]) : [];
  throw new ControlApiError(message, res.status, body.data ?? null, errors);
}

/** Calls the sandbox; a connection that fails is a `SandboxUnreachableError` naming the URL and the cause. */
export function caller(transport: Transport, where: string) {
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const what = `${method} ${path.split('?')[0]}`;
    let res: Response;
    try {
      res = await transport(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new SandboxUnreachableError(`cannot reach the sandbox at ${where} (${reason})`, where);
    }
    return answerOf(res, where, what);
  };
}

/** The business headers name: the one given, or the client's first approved one. */
function businessIdOf(client: ClientLogin, business: BusinessChoice | undefined): string {
  if (typeof business === 'string') return business;
  if (business) return business.id;
  const chosen = client.businesses.find((b) => b.isApproved) ?? client.businesses[0];
  if (!chosen) throw new SandboxError(`client ${client.email} has no business: name one`, 400);
  return chosen.id;
}

/** The journal (`requests`, `verify`), the credential headers and the ledger and plans of a business, over HTTP. */
function journalAndAuth(
  transport: Transport,
  where: string,
): Pick<SandboxHandle, 'requests' | 'verify' | 'signIn' | 'schemeB' | 'ledger' | 'addSubscription'> {
  const call = caller(transport, where);
  return {
    ledger: async (businessId, query = {}) => {
      const search = new URLSearchParams(
        Object.entries(query).flatMap(([name, value]): [string, string][] =>
          value === undefined ? [] : [[name, String(value)]],
        ),
      ).toString();
      const path = `/__sandbox/businesses/${encodeURIComponent(businessId)}/ledger`;
      return (await call('GET', search ? `${path}?${search}` : path)) as Ledger;
    },
    addSubscription: async (businessId, plan) =>
      (await call(
        'POST',
        `/__sandbox/businesses/${encodeURIComponent(businessId)}/subscriptions`,
        plan,
      )) as Subscription,
    requests: async (filter = {}) =>
      (await call('POST', '/__sandbox/requests/search', filter)) as RequestEntryView[],
    verify: async (expectation) =>
      (await call('POST', '/__sandbox/requests/verify', expectation)) as VerificationView,
    signIn: async (client, business) => {
      const businessId = businessIdOf(client, business);
      const data = (await call('POST', '/api/v1/auth/signin', {
        email: client.email,
        password: client.password,
      })) as { accessToken: string };
      return { authorization: `Bearer ${data.accessToken}`, SECRET_KEY: client.secretKey, businessId };
    },
    schemeB: (client, business): SchemeBHeaders => ({
      'x-api-key': client.publicKey,
      'x-api-secret': client.secretKey,
      businessId: businessIdOf(client, business),
    }),
  };
}

/**
 * Every method of the handle over the control API. `close()` closes nothing: the sandbox is not ours. In-process,
 * with the app's own `request()` as transport, `startSandbox()` takes the journal, the credential headers and the
 * scenario from here, so that those have one implementation.
 */
export function handleOverHttp(url: string, transport: Transport): SandboxHandle {
  const call = caller(transport, url);
  return {
    url,
    ...journalAndAuth(transport, url),
    // Every client, a page at a time: one answer stays small however many clients tests made.
    credentials: async () => {
      const clients: ClientCredentials[] = [];
      for (let page = 1; ; page++) {
        const answer = (await call('GET', `/__sandbox/credentials?limit=${MAX_LONG_PAGE}&page=${page}`)) as {
          clients: ClientCredentials[];
          pagination: { hasNextPage: boolean };
        };
        clients.push(...answer.clients);
        if (!answer.pagination.hasNextPage) return clients;
      }
    },
    newClient: async (options = {}) =>
      (await call('POST', '/__sandbox/clients', options)) as NewClientCredentials,
    incomingPayment: async (payment) =>
      (await call('POST', '/__sandbox/incoming-payments', payment)) as Awaited<
        ReturnType<SandboxHandle['incomingPayment']>
      >,
    setScenario: async (scenario) => {
      if (scenario === null) await call('DELETE', '/__sandbox/scenario');
      else
        await call(
          'PUT',
          '/__sandbox/scenario',
          typeof scenario === 'string' ? { name: scenario } : scenario,
        );
    },
    clock: {
      advance: async (ms) => {
        await call('POST', '/__sandbox/clock/advance', { ms });
      },
      freeze: async (frozen = true) => {
        await call('POST', '/__sandbox/clock/freeze', { frozen });
      },
      get: async () =>
        (await call('GET', '/__sandbox/clock')) as Awaited<ReturnType<SandboxHandle['clock']['get']>>,
    },
    drain: async ({ timeoutMs } = {}) => {
      await call('POST', `/__sandbox/drain${timeoutMs === undefined ? '' : `?timeoutMs=${timeoutMs}`}`);
    },
    reset: async () => {
      await call('POST', '/__sandbox/reset');
    },
    close: async () => undefined,
  };
}

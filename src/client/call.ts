import * as z from 'zod';
import { type WaitingWork, waitingWork } from '../contract/control/sandbox.js';
import type { Failure, LazySchema, Method, Params } from '../contract/kit.js';
import { API_PREFIX, CONTROL_PREFIX } from '../contract/mounts.js';
import {
  controlErrorEnvelope,
  dataEnvelope,
  doneEnvelope,
  errorEnvelope,
  pageEnvelope,
} from '../contract/wire.js';
import { ControlApiError, SandboxError, SandboxUnreachableError } from '../errors.js';

// Calls a route by its contract: the path, the method, the input's types and the answer's schema all come from
// the contract, so the handle restates none of them. Every answer is parsed with the schema its route documents:
// one that does not fit is a `SandboxError` naming the operation, never a value of another shape typed as this one.

/** Sends one request to the sandbox: `fetch` against a URL, or the app's own `request()` in-process. */
export type Transport = (path: string, init: RequestInit) => Promise<Response>;

/** What a refusal's envelope says, read with the control document's schema (the bank's is a part of it). */
type ErrorEnvelope = z.output<ReturnType<typeof controlErrorEnvelope>>;

/** The doors the handle calls: where each is mounted, and the error envelope its document shows. */
const doors: Record<'api' | 'control', { prefix: string; refusal: () => z.ZodType<ErrorEnvelope> }> = {
  api: { prefix: API_PREFIX, refusal: errorEnvelope },
  control: { prefix: CONTROL_PREFIX, refusal: controlErrorEnvelope },
};

/** A refusal as its envelope gives it, with the status it came with and a drain's `waiting` read in full. */
export interface Refusal {
  status: number;
  message: string;
  data: ErrorEnvelope['data'];
  errors: NonNullable<ErrorEnvelope['errors']>;
  waiting: WaitingWork | undefined;
}

/** A success that carries `data` of `T` (`reply()`), a page of `T`s (`page()`), or nothing more (`done()`). */
interface DataReply<T extends z.ZodType> {
  readonly kind: 'data';
  readonly schema: LazySchema<T>;
}
interface PageReply<T extends z.ZodType> {
  readonly kind: 'page';
  readonly schema: LazySchema<T>;
}
interface DoneReply {
  readonly kind: 'done';
}

/** What the caller reads of a contract: where the route is, its input schemas, and its replies of one kind. */
interface Callable<P extends string, B, Q, Rep> {
  readonly operationId: string;
  readonly method: Method;
  readonly path: P;
  readonly body?: B;
  readonly query?: Q;
  readonly responses: Readonly<Record<number, Rep | Failure>>;
}

type ParamsOption<P extends string> = [keyof Params<P>] extends [never]
  ? { params?: undefined }
  : { params: Params<P> };
type BodyOption<B> = [B] extends [z.ZodType] ? { body: z.input<B> } : { body?: undefined };
type QueryOption<Q> = [Q] extends [z.ZodObject] ? { query?: z.input<Q> } : { query?: undefined };

/** A call's path parameters, query and body, typed by the contract: what it has, and nothing it has not. */
export type CallOptions<P extends string, B, Q> = ParamsOption<P> &
  BodyOption<B> &
  QueryOption<Q> & {
    /**
     * Turns a refusal the route documents into an error of its own (a drain's 408, a verification's 409);
     * `undefined` leaves it a `ControlApiError`.
     */
    refused?: (refusal: Refusal) => SandboxError | undefined;
  };

/** The options, which may be left out when the contract needs none. */
type OptionsArg<P extends string, B, Q> =
  object extends CallOptions<P, B, Q> ? [options?: CallOptions<P, B, Q>] : [options: CallOptions<P, B, Q>];

/** Reads a part of an answer (`value`: the whole body unless given) with its schema, or throws what does not fit. */
type Reader = <S extends z.ZodType>(schema: S, part: string, value?: unknown) => z.output<S>;

/** The options as the sending reads them, whatever the contract. */
interface Sent {
  params?: Readonly<Record<string, string>> | undefined;
  query?: unknown;
  body?: unknown;
  refused?: ((refusal: Refusal) => SandboxError | undefined) | undefined;
}

/** A transport that failed: the cause fetch gives (`ECONNREFUSED`, `ENOTFOUND`), else its own message. */
const transportFailure = z.object({
  message: z.string().optional(),
  cause: z.object({ code: z.string().optional(), message: z.string().optional() }).optional(),
});

/** A body that is not the documented envelope but says what went wrong (a proxy's refusal, say). */
const someMessage = z.object({ message: z.string() });

/** `{id}` in a path template, for its parameter. */
const PARAM = /\{(\w+)\}/g;

/** How many of a misfit's issues a message names: the first few say what is wrong. */
const ISSUES_NAMED = 3;

/** `businessId: expected string, received undefined; …; and 2 more`: where each issue is, and what it is. */
function issuesOf(error: z.ZodError): string {
  const named = error.issues.slice(0, ISSUES_NAMED).map((issue) => {
    const at = issue.path.map(String).join('.');
    return at ? `${at}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length - named.length;
  return more > 0 ? `${named.join('; ')}; and ${more} more` : named.join('; ');
}

/** The path of a call under its door: the parameters filled in, and the query (its given values, in order). */
function pathOf(prefix: string, template: string, sent: Sent): { path: string; url: string } {
  const path = `${prefix}${template.replace(PARAM, (_, name: string) => {
    const value = sent.params?.[name];
    if (value === undefined) throw new SandboxError(`${template} needs its "${name}" parameter`, 400);
    return encodeURIComponent(value);
  })}`;
  const query = typeof sent.query === 'object' && sent.query !== null ? Object.entries(sent.query) : [];
  const search = new URLSearchParams(
    query.flatMap(([name, value]): [string, string][] =>
      value === undefined ? [] : [[name, String(value)]],
    ),
  ).toString();
  return { path, url: search ? `${path}?${search}` : path };
}

/**
 * Calls the routes of one door (`api`: `/api/v1`, `control`: `/__sandbox`) through `transport`; `where` names the
 * sandbox in errors. A connection that fails, or an answer that is not JSON, is a `SandboxUnreachableError`; a
 * refusal is a `ControlApiError` (or the route's own error, see `refused`); an answer that does not fit its
 * documented schema is a `SandboxError` (502) naming the operation.
 */
export function contractCaller(transport: Transport, where: string, door: keyof typeof doors) {
  const { prefix, refusal } = doors[door];

  /** The documented success the route answered, and its body; every other answer is thrown as its error. */
  async function answer<Rep extends { readonly kind: string }>(
    contract: Callable<string, unknown, unknown, Rep>,
    sent: Sent = {},
  ): Promise<{ reply: Rep; read: Reader }> {
    const { path, url } = pathOf(prefix, contract.path, sent);
    const what = `${contract.method.toUpperCase()} ${path}`;
    let res: Response;
    try {
      res = await transport(url, {
        method: contract.method.toUpperCase(),
        headers: sent.body === undefined ? {} : { 'content-type': 'application/json' },
        body: sent.body === undefined ? undefined : JSON.stringify(sent.body),
      });
    } catch (error) {
      const failed = transportFailure.safeParse(error);
      const reason = failed.success
        ? (failed.data.cause?.code ?? failed.data.cause?.message ?? failed.data.message)
        : undefined;
      throw new SandboxUnreachableError(
        `cannot reach the sandbox at ${where} (${reason ?? String(error)})`,
        where,
      );
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new SandboxUnreachableError(
        `${where} did not answer ${what} as a banking sandbox does (${res.status}, not JSON): is it the sandbox's URL?`,
        where,
      );
    }
    const status = res.status;
    /** `value` parsed with `schema`, or the error that says which part of which answer does not fit. */
    const read: Reader = (schema, part, value = body) => {
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      throw new SandboxError(
        `${where} answered ${what} (${contract.operationId}) with a ${status} whose ${part} does not fit the route's documented schema: ${issuesOf(parsed.error)}. Is the sandbox of this package's version?`,
        502,
      );
    };
    const reply = contract.responses[status];
    if (typeof reply === 'object' && 'kind' in reply) return { reply, read };
    if (res.ok)
      throw new SandboxError(
        `${where} answered ${what} (${contract.operationId}) with a ${status}, which the route does not document. Is the sandbox of this package's version?`,
        502,
      );
    const envelope = refusal().safeParse(body);
    if (!envelope.success) {
      // Not the sandbox's envelope (a proxy in front of it, say): its message if it has one, and the status.
      const said = someMessage.safeParse(body);
      throw new ControlApiError(said.success ? said.data.message : `${what} answered ${status}`, status);
    }
    const { message, data, errors = [], waiting } = envelope.data;
    const refused: Refusal = {
      status,
      message,
      data,
      errors,
      waiting: waiting === undefined ? undefined : read(waitingWork(), '`waiting`', waiting),
    };
    throw sent.refused?.(refused) ?? new ControlApiError(message, status, data, errors);
  }

  return {
    /** Calls a route that answers `data` (`reply()`): the data, parsed with its schema. */
    data: async <P extends string, B, Q, T extends z.ZodType>(
      contract: Callable<P, B, Q, DataReply<T>>,
      ...[options]: OptionsArg<P, B, Q>
    ): Promise<z.output<T>> => {
      const { reply, read } = await answer(contract, options);
      // The envelope, then its data with the reply's schema: the compiler follows the data's type that way.
      const { data } = read(dataEnvelope(z.unknown()), 'body');
      return read(reply.schema(), `data (${reply.schema.schemaName})`, data);
    },
    /** Calls a route that answers a page (`page()`): the page's items, parsed with the item's schema. */
    page: async <P extends string, B, Q, T extends z.ZodType>(
      contract: Callable<P, B, Q, PageReply<T>>,
      ...[options]: OptionsArg<P, B, Q>
    ): Promise<z.output<T>[]> => {
      const { reply, read } = await answer(contract, options);
      // As `data`: the envelope, then its items.
      const { data } = read(pageEnvelope(z.unknown()), 'body');
      return read(z.array(reply.schema()), `data (a page of ${reply.schema.schemaName})`, data);
    },
    /** Calls a route that answers no data (`done()`): resolves once it has answered so. */
    done: async <P extends string, B, Q>(
      contract: Callable<P, B, Q, DoneReply>,
      ...[options]: OptionsArg<P, B, Q>
    ): Promise<void> => {
      const { read } = await answer(contract, options);
      read(doneEnvelope(), 'body');
    },
  };
}

/** What `contractCaller` answers: the typed calls of one door. */
export type ContractCaller = ReturnType<typeof contractCaller>;

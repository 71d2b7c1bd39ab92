import http from 'node:http';
import { type Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { lazyHttps, lazyZlib } from '../http/lazy-modules.js';

// One call to the upstream, over Node's own HTTP client rather than `fetch`: `fetch` parses the URL it is given, so
// it resolved a `..` the app's path held once decoded and took a backslash for a slash, and the call left the
// upstream's base path (issue #36); `http.request` sends the path as it is given. The answer is read as a stream,
// decoded as it comes and counted after decoding: past `maxBody` the connection is destroyed, so an endless answer
// or a decompression bomb costs at most `maxBody` of memory, and the time it takes to send that much.

/** One call, as the proxy makes it. */
export interface UpstreamCall {
  /** The upstream's base URL (`--upstream`): its path comes first. */
  base: URL;
  method: string;
  /** The request target after the base's path, as the app sent it: `/clients/business/audits/1?x=1`. */
  target: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** The whole exchange, connection to the last byte of the answer. */
  timeoutMs: number;
  /** The most bytes the answer's body may have, counted after decoding. */
  maxBody: number;
}

/** The upstream's answer, whole. */
export interface UpstreamAnswer {
  status: number;
  /** The answer's headers as sent: name and value by turns (`IncomingMessage.rawHeaders`). */
  rawHeaders: string[];
  body: Buffer;
  /** The body was decoded from its `content-encoding`, so that header and the length no longer hold. */
  decoded: boolean;
}

/** Why a call has no answer to give the app. */
export type UpstreamFailure =
  /** No answer came: a refused connection, a timeout, bytes that are not HTTP (`why`: the error's code). */
  | { kind: 'no-answer'; why: string }
  /** An answer began and broke off, or would not decode. */
  | { kind: 'broken'; status: number; why: string }
  /** An answer past `maxBody`, after decoding. */
  | { kind: 'too-large'; status: number }
  /** A status an answer to the app cannot have (below 200, above 599). */
  | { kind: 'bad-status'; status: number };

export type UpstreamOutcome = { ok: true; answer: UpstreamAnswer } | { ok: false; failure: UpstreamFailure };

/**
 * Decoding as browsers and `fetch` do it: a body cut short gives what it holds so far (the drift check then finds
 * it is not JSON), rather than an error.
 */
const lenient = () => {
  const { Z_SYNC_FLUSH } = lazyZlib().constants;
  return { flush: Z_SYNC_FLUSH, finishFlush: Z_SYNC_FLUSH };
};
const DECODERS: Record<string, () => Transform> = {
  gzip: () => lazyZlib().createGunzip(lenient()),
  'x-gzip': () => lazyZlib().createGunzip(lenient()),
  deflate: () => lazyZlib().createInflate(lenient()),
  br: () => lazyZlib().createBrotliDecompress(),
};
/** Codings one answer may stack (`fetch` allows as many); more is not an answer anyone sends. */
const MAX_CODINGS = 5;

/**
 * The decoders of a `content-encoding`, the last coding applied first undone; undefined where one of them is not
 * known (or there are too many), and the body goes to the app as it came, with its header.
 */
export function decodersOf(header: string | undefined): Transform[] | undefined {
  const codings = (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > MAX_CODINGS || codings.some((coding) => !Object.hasOwn(DECODERS, coding)))
    return undefined;
  return codings.reverse().map((coding) => (DECODERS[coding] as () => Transform)());
}

/** Why a call or its answer failed, in a word: the error's code where it has one (`ECONNREFUSED`, `Z_DATA_ERROR`). */
function reasonOf(error: unknown): string {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return code;
  return typeof message === 'string' ? message : String(error);
}

/** Statuses whose answer has no body, whatever its headers say (RFC 9110, 15.3.5, 15.3.6, 15.4.5). */
const BODYLESS = new Set([204, 205, 304]);

/** Thrown into the pipeline when the body passes `maxBody`: the pipeline then destroys every stream of it. */
class TooLarge extends Error {}

/** Makes one call and reads its whole answer, within `timeoutMs` and `maxBody`. Never rejects. */
export function exchange(call: UpstreamCall): Promise<UpstreamOutcome> {
  const { base, timeoutMs, maxBody } = call;
  return new Promise((resolve) => {
    let settled = false;
    let status: number | undefined;
    let request: http.ClientRequest | undefined;
    const settle = (outcome: UpstreamOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      // Whatever is still open of a failed call goes: an answer past the limit stops here, and the upstream sees
      // its connection closed. A whole answer leaves its connection to the agent, for the next call.
      if (!outcome.ok) request?.destroy();
      resolve(outcome);
    };
    const fail = (why: string) =>
      settle({
        ok: false,
        failure: status === undefined ? { kind: 'no-answer', why } : { kind: 'broken', status, why },
      });
    const deadline = setTimeout(
      () =>
        fail(status === undefined ? `no answer within ${timeoutMs} ms` : `not whole within ${timeoutMs} ms`),
      timeoutMs,
    );
    try {
      request = (base.protocol === 'https:' ? lazyHttps() : http).request({
        // `URL.hostname` keeps an IPv6 address in brackets; the client takes it bare.
        hostname: base.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: base.port === '' ? undefined : Number(base.port),
        method: call.method,
        path: `${base.pathname.replace(/\/+$/, '')}${call.target}`,
        headers: call.headers,
      });
    } catch (error) {
      // A header value or a path the client will not send (a control character).
      fail(reasonOf(error));
      return;
    }
    request.on('error', (error) => fail(reasonOf(error)));
    // A protocol switch (101) is an answer the app's request could not have asked for: its headers were not sent on.
    request.on('upgrade', (_res, socket) => {
      socket.destroy();
      settle({ ok: false, failure: { kind: 'bad-status', status: 101 } });
    });
    request.on('response', (res) => {
      const code = res.statusCode ?? 0;
      status = code;
      if (code < 200 || code > 599) {
        res.destroy();
        settle({ ok: false, failure: { kind: 'bad-status', status: code } });
        return;
      }
      // An answer to HEAD, and a 204, 205 or 304, has no body: its `content-length` is the length a GET would have
      // had, not bytes on their way, so it is neither held against `maxBody` nor read. Node knows it for HEAD, 204
      // and 304 (the response ends at once, and its connection goes back to the agent); it would wait for a 205's
      // declared body, so that connection is closed instead.
      if (call.method === 'HEAD' || BODYLESS.has(code)) {
        settle({
          ok: true,
          answer: { status: code, rawHeaders: res.rawHeaders, body: Buffer.alloc(0), decoded: false },
        });
        if (code === 205) res.destroy();
        else res.resume();
        return;
      }
      const decoders = decodersOf(res.headers['content-encoding']);
      const decoded = decoders !== undefined && decoders.length > 0;
      // Sent as it is and too long by its own word: not a byte of it is read.
      if (!decoded && Number(res.headers['content-length']) > maxBody) {
        res.destroy();
        settle({ ok: false, failure: { kind: 'too-large', status: code } });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (size > maxBody) return done(new TooLarge());
          chunks.push(chunk);
          done();
        },
      });
      pipeline([res, ...(decoders ?? []), sink]).then(
        () =>
          settle({
            ok: true,
            answer: { status: code, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks, size), decoded },
          }),
        (error: unknown) =>
          error instanceof TooLarge
            ? settle({ ok: false, failure: { kind: 'too-large', status: code } })
            : fail(reasonOf(error)),
      );
    });
    request.end(call.body);
  });
}

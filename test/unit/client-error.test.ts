import { once } from 'node:events';
import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { answerClientError } from '../../src/http/client-error.js';
import type { ClientRefusal } from '../../src/log-events.js';

// The branches a real socket does not reach on demand (a timeout, a reset, an answer half sent), over a stand-in
// socket that keeps what is written to it. test/api/http/client-error.test.ts covers the real server.

/** A parser error as Node gives it to `clientError`. */
const parseError = (code: string) => Object.assign(new Error(code), { code });

/** A stand-in socket: a Duplex that keeps every byte written to it in `written`. */
function standIn() {
  const written: Buffer[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk);
      done();
    },
  });
  return { socket, text: () => Buffer.concat(written).toString('utf8') };
}

/** Runs the listener on a stand-in socket, `prepare`d first: what it wrote and what it reported. */
function refuse(code: string, prepare: (socket: Duplex) => void = () => undefined) {
  const { socket, text } = standIn();
  prepare(socket);
  const reported: ClientRefusal[] = [];
  answerClientError((r) => reported.push(r))(parseError(code), socket);
  return { socket, text, reported };
}

describe('answerClientError', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'Request Header Fields Too Large', 'Request headers too large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'Request Timeout', 'Request not received in time'],
    ['HPE_CHUNK_EXTENSIONS_OVERFLOW', 413, 'Payload Too Large', 'Request chunk extensions too large'],
    ['HPE_INVALID_METHOD', 400, 'Bad Request', 'Malformed HTTP request'],
    ['HPE_INVALID_HEADER_TOKEN', 400, 'Bad Request', 'Malformed HTTP request'],
  ])(
    '%s: a complete %i answer with the envelope, then the socket closes',
    async (code, status, reason, message) => {
      const { socket, text, reported } = refuse(code);
      await once(socket, 'close');
      const [head = '', body = ''] = text().split('\r\n\r\n');
      const [statusLine, ...headers] = head.split('\r\n');
      expect(statusLine).toBe(`HTTP/1.1 ${status} ${reason}`);
      const requestId = headers.find((h) => h.startsWith('x-request-id: '))?.slice(14);
      expect(headers).toEqual([
        'content-type: application/json',
        `content-length: ${Buffer.byteLength(body)}`,
        'connection: close',
        `x-request-id: ${requestId}`,
      ]);
      expect(JSON.parse(body)).toEqual({ status: false, message, data: null });
      expect(reported).toEqual([{ status, message, code, requestId }]);
    },
  );

  it.each([
    ['a reset', 'ECONNRESET', () => undefined],
    ['a socket no longer writable', 'HPE_INVALID_METHOD', (s: Duplex) => s.end()],
    [
      'a socket whose response has sent its headers',
      'HPE_INVALID_METHOD',
      (s: Duplex) => Object.assign(s, { _httpMessage: { headersSent: true } }),
    ],
  ])('%s: destroyed, nothing written or reported', (_what, code, prepare) => {
    const { socket, text, reported } = refuse(code, prepare);
    expect(socket.destroyed).toBe(true);
    expect(text()).toBe('');
    expect(reported).toEqual([]);
  });

  it('answers where a response is under way but has sent nothing yet, as Node does', () => {
    const { text } = refuse('HPE_INVALID_METHOD', (s) =>
      Object.assign(s, { _httpMessage: { headersSent: false } }),
    );
    expect(text().startsWith('HTTP/1.1 400 Bad Request\r\n')).toBe(true);
  });
});

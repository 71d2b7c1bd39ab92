import net from 'node:net';

/** An HTTP/1.1 answer as read off the socket. */
export interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Sends `bytes` to the server at `url` on a fresh connection and reads everything it sends until it closes the
 * connection: a request `fetch` would not send as it is (one Node's parser refuses, a path it would resolve).
 */
export function rawExchange(url: string, bytes: string): Promise<RawAnswer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server closes once it has answered; bytes of ours it had not read may make that a reset, after the answer.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end === -1) return reject(new Error(`no complete answer: ${JSON.stringify(text)}`));
      const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) });
    });
  });
}

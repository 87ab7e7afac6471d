import { once } from 'node:events';
import { connect } from 'node:net';

/** An HTTP answer read off a raw connection. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body parsed as JSON (undefined when empty or not JSON), and as text. */
  json: Record<string, unknown> | undefined;
  text: string;
  /** The server had not closed the connection after `timeoutMs`. */
  timedOut: boolean;
}

/**
 * Sends bytes as they are on a new TCP connection to `url`'s host (what no HTTP client would send: a broken
 * request line, oversized headers, a handshake without its key) and reads what comes back until the server
 * closes the connection, at most `timeoutMs` (then `timedOut`). `end: false` leaves the sending side open (a
 * client that stops mid-request).
 */
export async function rawExchange(
  url: string,
  data: string | Buffer,
  options: { end?: boolean; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined); // a reset after the answer still leaves the answer
  if (options.end === false) socket.write(data);
  else socket.end(data);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    socket.destroy();
  }, options.timeoutMs ?? 5000);
  await once(socket, 'close');
  clearTimeout(timer);
  return { ...parseAnswer(Buffer.concat(chunks).toString('latin1')), timedOut };
}

function parseAnswer(raw: string): Omit<RawAnswer, 'timedOut'> {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = (split < 0 ? raw : raw.slice(0, split)).split('\r\n');
  const headers = Object.fromEntries(
    lines.filter(Boolean).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  const text = split < 0 ? '' : raw.slice(split + 4);
  let json: Record<string, unknown> | undefined;
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    json = undefined;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, json, text };
}

import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** False when its client had gone before the server answered (killed mid-exchange): the sender will send it again. */
  acknowledged: boolean;
}

/**
 * A real SMTP server on loopback (smtp-server). `delayMs` holds each message before accepting it (to catch a
 * worker mid-job); `reject` makes it refuse every message, `rejectFirst` the first n (to exercise retries).
 */
export async function startSmtp(options: { delayMs?: number; reject?: boolean; rejectFirst?: number } = {}) {
  const received: ReceivedMail[] = [];
  let started = 0;
  const closed = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      started++;
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        setTimeout(() => {
          if (options.reject || started <= (options.rejectFirst ?? 0))
            return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
            acknowledged: !closed.has(session.id),
          });
          callback();
        }, options.delayMs ?? 0);
      });
    },
    onClose(session) {
      closed.add(session.id);
    },
  });
  // A client that dies mid-session (a worker killed) resets its connection: nothing the server did wrong.
  server.on('error', () => undefined);
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Messages whose transfer began (accepted or not yet). */
    get started() {
      return started;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from './addressPolicy';
import { RefusedTarget, resolveTarget } from './resolveTarget';

export interface PostOutcome {
  /** HTTP status; null when no answer came. */
  status: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

/**
 * POSTs a body to an endpoint and reads at most `excerptBytes` of the answer, within `timeoutMs` for the whole
 * exchange. The host is resolved and every address checked first (resolveTarget), then the connection is made to
 * those very addresses (the lookup handed to the socket answers them, no second resolution): a name rebinding to
 * an internal address between the check and the connection reaches nothing. Redirects are not followed (a 3xx is
 * a failure). Never throws.
 */
export async function postWebhook(
  url: URL,
  policy: AddressPolicy,
  headers: Record<string, string>,
  body: string,
  { timeoutMs, excerptBytes }: { timeoutMs: number; excerptBytes: number },
): Promise<PostOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolveTarget(url, policy);
  } catch (err) {
    const message = err instanceof RefusedTarget ? `refused: ${err.message}` : (err as Error).message;
    return { status: null, durationMs: took(), excerpt: null, error: message };
  }
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const done = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: took() });
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'platform-suite-webhooks/1',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, excerptBytes).toString('utf8');
          done({ status: res.statusCode ?? null, excerpt: excerpt || null, error: null });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          if (size < excerptBytes) chunks.push(chunk);
          size += chunk.length;
          if (size >= excerptBytes) finish();
        });
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      done({ status: null, excerpt: null, error: `timed out after ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => done({ status: null, excerpt: null, error: err.message }));
    req.end(body);
  });
}

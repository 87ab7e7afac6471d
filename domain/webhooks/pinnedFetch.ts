import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressPolicy } from './addressPolicy';
import { resolveTarget } from './resolveTarget';

export interface PinnedFetchOptions {
  method: string;
  headers: Record<string, string>;
  body?: string | URLSearchParams | ArrayBuffer | Uint8Array | ReadableStream | null;
  signal?: AbortSignal | null;
}

function bytesOf(body: PinnedFetchOptions['body']): Buffer | undefined {
  if (body == null) return undefined;
  if (typeof body === 'string' || body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new Error('a streamed request body is not sent to a tenant-chosen URL');
}

/**
 * A fetch for URLs a tenant chose (an OpenID provider's endpoints): the host is resolved and every address checked
 * by the policy (resolveTarget: no private, loopback or link-local address unless exempt), then the connection goes
 * to those very addresses (no second resolution, so a DNS rebinding reaches nothing), within `timeoutMs` and at
 * most `maxBytes` of answer; redirects are not followed (the caller sees the 3xx). Throws RefusedTarget or an Error.
 */
export function pinnedFetch(policy: AddressPolicy, { timeoutMs, maxBytes }: { timeoutMs: number; maxBytes: number }) {
  return async (raw: string | URL, options: PinnedFetchOptions): Promise<Response> => {
    const url = new URL(raw);
    const addresses = await resolveTarget(url, policy);
    const pinned: LookupFunction = (_host, opts, callback) => {
      if (opts.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    };
    const body = bytesOf(options.body);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const req = client.request(
        url,
        {
          method: options.method,
          lookup: pinned,
          agent: false,
          signal: options.signal ?? undefined,
          headers: { ...options.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) res.destroy(new Error(`the answer of ${url.host} is over ${maxBytes} bytes`));
            else chunks.push(chunk);
          });
          res.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers))
              for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
                headers.append(name, v);
            const status = res.statusCode ?? 502;
            const nullBody = status === 204 || status === 304;
            resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers }));
          });
          res.on('error', reject);
        },
      );
      const timer = setTimeout(
        () => req.destroy(new Error(`${url.host}: no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      req.on('close', () => clearTimeout(timer));
      req.on('error', reject);
      req.end(body);
    });
  };
}

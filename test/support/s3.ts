import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver ships without type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
};

const xmlError = (res: ServerResponse, status: number, code: string) => {
  res.writeHead(status, { 'Content-Type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
};

/**
 * What s3rver 3.7.1 lacks of multipart uploads, answered in front of it from its own files
 * (<directory>/<bucket>/._S3rver_uploads/<uploadId>/: `key`, `<n>` and `<n>.md5` per part): ListParts (GET with
 * uploadId), AbortMultipartUpload (DELETE with uploadId), and NoSuchUpload for a part PUT or a completion of an
 * upload that is gone (s3rver would take the part into a new folder, or fail with 500). Everything else passes.
 */
function multipartShim(directory: string, s3Port: number) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://s3');
    const uploadId = url.searchParams.get('uploadId');
    const [, bucket = '', ...key] = url.pathname.split('/');
    if (uploadId !== null) {
      const dir = join(directory, decodeURIComponent(bucket), '._S3rver_uploads', uploadId);
      if (!/^[0-9a-f]{1,64}$/.test(uploadId) || !existsSync(join(dir, 'key')))
        return xmlError(res, 404, 'NoSuchUpload');
      if (req.method === 'DELETE') {
        rmSync(dir, { recursive: true, force: true });
        res.writeHead(204).end();
        return;
      }
      if (req.method === 'GET') {
        const parts = readdirSync(dir)
          .filter((name) => /^\d+$/.test(name) && existsSync(join(dir, `${name}.md5`)))
          .map(Number)
          .sort((a, b) => a - b)
          .map((n) => {
            const s = statSync(join(dir, String(n)));
            const etag = readFileSync(join(dir, `${n}.md5`), 'utf8').trim();
            return `<Part><PartNumber>${n}</PartNumber><LastModified>${s.mtime.toISOString()}</LastModified><ETag>"${etag}"</ETag><Size>${s.size}</Size></Part>`;
          });
        res.writeHead(200, { 'Content-Type': 'application/xml' });
        res.end(
          `<?xml version="1.0" encoding="UTF-8"?><ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket><Key>${key.join('/')}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
        );
        return;
      }
    }
    const upstream = request(
      { host: '127.0.0.1', port: s3Port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => xmlError(res, 502, 'BadGateway'));
    req.pipe(upstream);
  };
}

/**
 * An S3-compatible server on loopback (s3rver, behind a shim for ListParts and AbortMultipartUpload). It does not
 * verify signatures (those are tested on the local adapter), nor S3's 5 MiB least part size.
 */
export interface S3Server {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  close(): Promise<void>;
}

/** The stack's environment for storing in `bucket` of this server; none (the local driver) without a server. */
export function s3Env(s3: S3Server | null | undefined, bucket: string): Record<string, string> {
  if (!s3) return {};
  return { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: bucket };
}

export async function startS3(): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    allowMismatchedSignatures: true,
  });
  const { port } = await server.run();
  const shim = createServer(multipartShim(directory, port));
  await new Promise<void>((resolve) => shim.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(shim.address() as AddressInfo).port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    async close() {
      shim.closeAllConnections();
      await new Promise<void>((resolve) => shim.close(() => resolve()));
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Express, Request } from 'express';
import helmet from 'helmet';
import swaggerUi from 'swagger-ui-express';
import type { Services } from '../../domain/services';
import { probe } from '../../lib/dependencies';
import { pingRedis } from '../../lib/redis';
import { forbidden, unauthorized } from '../../lib/errors';
import { LocalStorage } from '../../lib/storage/local';
import { contentDisposition } from '../../lib/storage';
import { receiveLocalPut } from '../../domain/cloud/receive';
import { receivePart } from '../../domain/cloud/receivePart';
import { secretsMatch } from '../http/guards';
import type { OpenApiRegistry } from '../http/openapi';
import { sendProblem } from '../http/problems';
import { Reply, type Routes } from '../http/routes';
import { asyncApiDocument } from '../asyncapi';
import type { SocketRouter } from '../ws';
import { packageInfo } from '../../lib/package';
import { HealthView, IndexView, ReadyView } from './views';

/** The outline of an API description document: its version member, info and its operations' member. */
const describedDocument = (version: string, operations: string) => ({
  type: 'object',
  properties: {
    [version]: { type: 'string' },
    info: { type: 'object', additionalProperties: true },
    [operations]: { type: 'object', additionalProperties: true },
  },
  required: [version, 'info', operations],
});

const ASYNCAPI_DESCRIPTION =
  'The WebSocket endpoints of the Platform Suite API. Every HTTP route is described in /openapi.json (browsable at /docs).';

/** Largest object accepted through a signed local upload address. */
const LOCAL_UPLOAD_MAX_BYTES = 5 * 1024 ** 3;

/** A readiness probe answers within a second whatever the dependencies do (a stalled link included). */
const READY_PROBE_MS = 800;

/** The index, health, readiness, metrics and the API descriptions. */
export function systemRoutes(
  routes: Routes,
  services: Services,
  openapi: OpenApiRegistry,
  sockets: SocketRouter,
): void {
  const base = services.config.PUBLIC_URL.replace(/\/$/, '');
  routes.get(
    '/',
    { summary: 'What this server is, and where its documentation lives', access: 'public', response: IndexView },
    (): IndexView => ({
      name: packageInfo.name,
      version: packageInfo.version,
      description: packageInfo.description,
      links: {
        docs: `${base}/docs`,
        openapi: `${base}/openapi.json`,
        asyncapi: `${base}/asyncapi.json`,
        health: `${base}/health`,
        ready: `${base}/ready`,
      },
    }),
  );

  routes.get(
    '/health',
    {
      summary: 'Liveness: the process answers (no token, no dependency checked)',
      access: 'public',
      response: HealthView,
    },
    (): HealthView => ({
      status: 'ok',
      version: packageInfo.version,
      uptimeSeconds: Math.round(process.uptime()),
    }),
  );

  routes.get(
    '/ready',
    {
      summary: 'Readiness: PostgreSQL and Redis answer',
      description:
        'Answers 503 `not_ready` (problem+json with a `checks` member) within a second when a dependency is down or does not answer, so a load balancer stops routing here. On a Redis Cluster (REDIS_CLUSTER_NODES) Redis is ready when CLUSTER INFO says cluster_state:ok and every master answers; a cluster node named by REDIS_URL is not ready.',
      access: 'public',
      response: ReadyView,
      errors: { 503: 'A dependency is down (`not_ready`)' },
    },
    async ({ res }) => {
      const [postgres, redis] = await Promise.all([
        probe(() => services.orm.em.getConnection().execute('select 1'), READY_PROBE_MS),
        probe(() => pingRedis(services.redis), READY_PROBE_MS),
      ]);
      const checks = { postgres, redis };
      if (postgres === 'ok' && redis === 'ok') return { status: 'ready', checks } satisfies ReadyView;
      res.status(503).type('application/problem+json').json({
        type: '/problems/not_ready',
        title: 'Service Unavailable',
        status: 503,
        detail: 'A dependency is unavailable',
        code: 'not_ready',
        checks,
      });
    },
  );

  routes.get(
    '/metrics',
    {
      summary: 'Prometheus metrics of this process',
      description:
        'Text exposition format. When METRICS_TOKEN is set, it must be sent as a Bearer token (401 `token_invalid` without it); otherwise no token is needed.',
      access: 'public',
      // No token, or the metrics token: an empty requirement makes it optional.
      security: [{}, { metricsToken: [] }],
      response: { description: 'Prometheus text format', schema: { type: 'string' }, contentType: 'text/plain' },
      errors: { 401: '`token_invalid`: METRICS_TOKEN is set and the request does not carry it as a Bearer token' },
    },
    async ({ req, res }) => {
      const token = services.config.METRICS_TOKEN;
      if (token && !secretsMatch(req.get('authorization') ?? '', `Bearer ${token}`))
        throw unauthorized('token_invalid', 'A valid metrics token is required');
      res.type(services.metrics.registry.contentType).send(await services.metrics.registry.metrics());
    },
  );

  // ~1 MB of JSON: compressed (api/app.ts), and revalidated with an ETag computed once per document, so a browser
  // that has it gets a 304 (no-cache: a new release's document is fetched at once).
  let etag: { of: object; value: string } | undefined;
  routes.get(
    '/openapi.json',
    {
      summary: 'This API description (OpenAPI 3.1)',
      access: 'public',
      response: { description: 'The OpenAPI 3.1 document', schema: describedDocument('openapi', 'paths') },
      alsoAnswers: { 304: 'Not modified (If-None-Match matched the ETag)' },
    },
    ({ res }) => {
      const document = openapi.document(services.config.PUBLIC_URL);
      if (etag?.of !== document)
        etag = { of: document, value: `"${createHash('sha1').update(JSON.stringify(document)).digest('base64url')}"` };
      res.set({ ETag: etag.value, 'Cache-Control': 'no-cache' });
      return document;
    },
  );

  routes.get(
    '/asyncapi.json',
    {
      summary: 'The WebSocket endpoints and their messages (AsyncAPI 3)',
      access: 'public',
      response: { description: 'The AsyncAPI 3 document', schema: describedDocument('asyncapi', 'channels') },
    },
    () =>
      asyncApiDocument(
        sockets.docs(),
        { title: 'Platform Suite WebSockets', version: packageInfo.version, description: ASYNCAPI_DESCRIPTION },
        services.config.PUBLIC_URL,
      ),
  );
}

/** Interactive documentation at /docs (Swagger UI, assets served locally). */
export function mountDocs(app: Express): void {
  app.use(
    '/docs',
    helmet(),
    swaggerUi.serve,
    swaggerUi.setup(undefined, { swaggerUrl: '/openapi.json', customSiteTitle: 'Platform Suite API' }),
  );
}

/**
 * The local storage adapter's signed addresses: PUT uploads the bytes, GET downloads them. The signature
 * (HMAC, expiry) is checked like S3 checks a presigned URL; a tampered or expired address gets 403.
 */
export function localStorageRoutes(routes: Routes, services: Services): void {
  const storage = services.storage;
  if (!(storage instanceof LocalStorage)) return;
  // The router splits the wildcard at its slashes and percent-decodes each segment, so a key sent percent-encoded as
  // one segment (`a%2Ffiles%2Fb`, as a generated client encodes a path parameter) is the same key as its slash
  // form (`a/files/b`): the signature covers the key, not how the URL spells it.
  const keyOf = (req: Request) => ([] as string[]).concat(req.params.key ?? []).join('/');
  const description = `An opaque signed address of the local storage adapter (used without S3_ENDPOINT), handed out as the \`url\` of an upload-url answer (POST /api/cloud/files/upload-url, /api/assets/upload-url, /api/images/upload-url) or as a download address (the redirect of the drive's download and inline addresses, media assets): call it as given, never build one. No token: it is authorised by its query parameters (\`exp\` and \`sig\`, and \`ct\`, \`fn\`, \`len\` when they are signed); a changed key or parameter is 403 \`signature_invalid\`, an expired address 403 \`signature_expired\`. The key is a path of several segments, opaque to clients: it is taken as in the address or percent-encoded as one segment (\`/\` as \`%2F\`, as a generated client sends a path parameter), both name the same object.`;

  routes.put(
    '/storage/*key',
    {
      summary: 'Upload an object to a signed local address',
      description: `${description} An address writes one object, never replacing one (409 \`object_exists\`), of at most its signed size (413). A cloud upload's address takes its bytes only while the upload is pending (409 \`upload_not_pending\` after its confirmation, discard or expiry). A part address of a resumable upload (POST /api/cloud/uploads/{id}/part-urls) carries \`uploadId\` and \`partNumber\` too, as S3's UploadPart does: it stores that part (a part PUT again replaces it) of at most the part's size (413), only while the upload is pending (409 \`upload_not_pending\`), and answers its \`ETag\` header.`,
      access: 'public',
      status: 204,
      // The handler streams the body itself (no parser): documented only.
      requestBody: {
        description:
          "The object's bytes, raw (not multipart), with the headers of the upload-url answer. Content-Type is signed: when the address carries `ct`, it must be exactly that value (403 `signature_invalid` otherwise). More bytes than the address takes (`len`) are refused with 413, from Content-Length when sent.",
        content: { '*/*': {} },
      },
      errors: {
        403: '`signature_invalid` or `signature_expired`',
        409: '`object_exists` or `upload_not_pending`',
        413: 'Object larger than the address takes',
      },
    },
    async ({ req }) => {
      const key = keyOf(req);
      const length = req.get('content-length');
      if (req.query.uploadId !== undefined || req.query.partNumber !== undefined) {
        const signedPart = storage.verifyPart(key, req.query);
        const part = await receivePart(
          services,
          storage,
          key,
          signedPart,
          req,
          length === undefined ? undefined : Number(length),
        );
        return new Reply(204, undefined, { ETag: `"${part.etag}"` });
      }
      const signed = storage.verify('put', key, req.query);
      if (signed.contentType && req.get('content-type') !== signed.contentType)
        throw forbidden('signature_invalid', 'Content-Type differs from the signed one');
      await receiveLocalPut(services, storage, key, req, {
        contentType: signed.contentType ?? req.get('content-type'),
        length: length === undefined ? undefined : Number(length),
        maxBytes: Math.min(signed.size ?? LOCAL_UPLOAD_MAX_BYTES, LOCAL_UPLOAD_MAX_BYTES),
      });
      return undefined;
    },
  );

  routes.get(
    '/storage/*key',
    {
      summary: 'Download an object from a signed local address',
      description,
      access: 'public',
      // The object's bytes, of the type it was stored with (or the signed one).
      response: {
        description: 'The object: its bytes, of the media type it was stored with (or application/octet-stream)',
        content: { '*/*': {} },
      },
      errors: { 403: '`signature_invalid` or `signature_expired`', 404: 'No object at this address (deleted since)' },
    },
    async ({ req, res }) => {
      const key = keyOf(req);
      const signed = storage.verify('get', key, req.query);
      const stat = await storage.stat(key);
      if (!stat) return sendProblem(res, 404, 'not_found', 'Object not found');
      res.setHeader('Content-Length', String(stat.size));
      res.setHeader('Content-Type', stat.contentType ?? 'application/octet-stream');
      if (signed.filename) res.setHeader('Content-Disposition', contentDisposition(signed.filename));
      await pipeline(await storage.get(key), res);
    },
  );
}

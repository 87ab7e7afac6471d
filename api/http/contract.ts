import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, RequestHandler } from 'express';
import type { ValidateFunction } from 'ajv';
import type Ajv2020Type from 'ajv/dist/2020';
import type { WebSocket } from 'ws';
import type { SocketDoc } from '../asyncapi';
import { answersWithoutBody, openApiPath, type OpenApiRegistry } from './openapi';

/*
 * The published contract, checked in tests (NODE_ENV=test; see api/app.ts and api/ws.ts): every HTTP answer
 * against /openapi.json, every WebSocket frame the server sends against /asyncapi.json. Violations are
 * recorded, never sent: test/support/contract.ts fails the test during which they happened, with the reasons.
 */

type Schema = Record<string, unknown>;
interface ResponseDoc {
  content?: Record<string, { schema?: Schema }>;
  headers?: Record<string, { required?: boolean }>;
}
export interface Document {
  paths: Record<
    string,
    Record<
      string,
      { requestBody?: { content: Record<string, { schema?: Schema }> }; responses: Record<string, ResponseDoc> }
    >
  >;
  components: { schemas: Record<string, Schema> };
}

const violations: string[] = [];

/** Contract violations recorded since the last call. */
export const takeContractViolations = (): string[] => violations.splice(0);

/** ajv is a devDependency: it is loaded only here, in test mode, so production never pays for it. */
function newAjv(): Ajv2020Type {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const Ajv2020 = (require('ajv/dist/2020') as { default: typeof Ajv2020Type }).default;
  const addFormats = (require('ajv-formats') as { default: (ajv: Ajv2020Type) => void }).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

/** ajv's errors as one line: `body/items/0/closedAt must be string; ...`. */
const explain = (validate: ValidateFunction) =>
  (validate.errors ?? [])
    .slice(0, 5)
    .map(
      (e) =>
        `body${e.instancePath} ${e.message ?? 'is invalid'}${e.params.additionalProperty ? ` (${String(e.params.additionalProperty)})` : ''}`,
    )
    .join('; ');

/**
 * HTTP: the status must be declared by the route's operation, a JSON body must match the schema declared for
 * that status and media type (problem+json included), and objects may not carry properties their schema does
 * not declare. A status without a body (204, 304 ...) must be declared without one, and the answer must carry
 * none. Headers a response declares required must be sent. Answers outside the declared routes (unknown paths,
 * docs) are checked against the Problem schema when they are errors.
 */
export function responseContract(openapi: OpenApiRegistry, serverUrl: string): RequestHandler {
  let contract: Contract | undefined;
  return (req, res, next) => {
    if (req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    let body: { value: unknown } | undefined;
    const json = res.json;
    res.json = function (value: unknown) {
      body = { value };
      return json.call(this, value);
    };
    res.once('finish', () => {
      try {
        contract ??= new Contract(contractDocument(openapi, serverUrl));
        const problem = contract.check(req, res.statusCode, (name) => res.get(name), body);
        if (problem) violations.push(`${req.method} ${req.originalUrl} answered ${res.statusCode}: ${problem}`);
      } catch (err) {
        violations.push(`${req.method} ${req.originalUrl}: the contract check failed: ${(err as Error).message}`);
      }
    });
    next();
  };
}

/**
 * The document answers are checked against. In a test run (TEST_OPENAPI_CACHE_DIR, made by the tests' global
 * setup) it is rendered once per shape (the routes a stack mounts: the local storage routes only without S3, say)
 * and read back by the later files: rendering it from the DTOs' decorators (class-validator-jsonschema) took
 * ~1.5 s of every test file, reading it takes milliseconds. The code does not change within a run; what the
 * configuration changes beside the shape is prose (rate limits' figures), which answers are not checked against.
 */
function contractDocument(openapi: OpenApiRegistry, serverUrl: string): Document {
  const dir = process.env.TEST_OPENAPI_CACHE_DIR;
  const render = () => openapi.document(serverUrl) as unknown as Document;
  if (!dir) return render();
  const file = join(dir, `${createHash('sha256').update(openapi.shape()).digest('hex').slice(0, 16)}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Document;
  const doc = render();
  // Written aside then renamed: a file rendering the same document at once never reads half of it.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify({ paths: doc.paths, components: doc.components }));
  renameSync(partial, file);
  return doc;
}

/** The check of answers against a document (exported for its own tests). */
export class Contract {
  private readonly ajv: Ajv2020Type;
  private readonly doc: Document;
  private readonly compiled = new Map<Schema, ValidateFunction>();

  constructor(published: Document) {
    // One copy whose references resolve from outside the document, with closed objects (see strict()).
    this.doc = JSON.parse(JSON.stringify(published).replaceAll('"#/components/', '"openapi#/components/')) as Document;
    for (const [name, schema] of Object.entries(this.doc.components.schemas)) if (name !== 'Problem') strict(schema);
    this.ajv = newAjv();
    this.ajv.addSchema({ $id: 'openapi', components: this.doc.components });
  }

  /**
   * `header` reads a header of the answer as sent. `body` is what res.json was given; a streamed or sent answer
   * has none, and only its media type is checked.
   */
  check(
    req: Pick<Request, 'route' | 'method'>,
    status: number,
    header: (name: string) => string | undefined,
    body: { value: unknown } | undefined,
  ): string | undefined {
    const route = req.route as { path?: unknown } | undefined;
    const operation = route ? this.doc.paths[openApiPath(String(route.path))]?.[req.method.toLowerCase()] : undefined;
    if (!operation)
      return status >= 400 && body
        ? this.validate({ $ref: 'openapi#/components/schemas/Problem' }, body.value)
        : undefined;
    const response =
      operation.responses[String(status)] ??
      operation.responses[`${String(status)[0]}XX`] ??
      operation.responses.default;
    if (!response) return `status ${status} is not declared (declared: ${Object.keys(operation.responses).join(', ')})`;
    const missing = Object.entries(response.headers ?? {})
      .filter(([name, h]) => h.required && header(name) === undefined)
      .map(([name]) => name);
    if (missing.length) return `the declared header ${missing.join(', ')} is missing`;
    const contentType = header('content-type');
    if (answersWithoutBody(status)) {
      // Express drops the body (and its Content-Type) of a 204 or 304, even one given to res.json: the declaration
      // must say so too, or a client expects one.
      if (response.content)
        return `a ${status} never has a body, but one is declared (${Object.keys(response.content).join(', ')})`;
      return contentType === undefined
        ? undefined
        : `a ${status} never has a body, but the answer has a Content-Type (${contentType})`;
    }
    if (!body && contentType === undefined) return undefined;
    const media = (contentType ?? 'application/json').split(';')[0].trim();
    const declared = response.content?.[media] ?? response.content?.['*/*'];
    if (!declared)
      return `a ${media} body is not declared for ${status} (declared: ${Object.keys(response.content ?? {}).join(', ') || 'no body'})`;
    return body && declared.schema ? this.validate(declared.schema, body.value) : undefined;
  }

  /**
   * Whether the document takes this request body for `method` on `path` (its OpenAPI template, `/api/deals/{id}`):
   * its media type declared, and a JSON value matching the schema (the server refusing what the document takes,
   * or taking what it refuses, is drift as well). Used by tests, which send the body themselves.
   */
  checkRequestBody(method: string, path: string, contentType: string, value: unknown): string | undefined {
    const operation = this.doc.paths[path]?.[method.toLowerCase()];
    if (!operation) return `${method.toUpperCase()} ${path} is not declared`;
    const content = operation.requestBody?.content;
    if (!content) return `${method.toUpperCase()} ${path} declares no request body`;
    const media = contentType.split(';')[0].trim();
    const declared = content[media] ?? content[`${media.split('/')[0]}/*`] ?? content['*/*'];
    if (!declared) return `a ${media} request body is not declared (declared: ${Object.keys(content).join(', ')})`;
    return declared.schema ? this.validate(declared.schema, value) : undefined;
  }

  private validate(schema: Schema, value: unknown): string | undefined {
    let validate = this.compiled.get(schema);
    if (!validate) this.compiled.set(schema, (validate = this.ajv.compile(schema)));
    // What the client receives: the JSON text, not the objects given to res.json (Dates become strings).
    return validate(JSON.parse(JSON.stringify(value) ?? 'null')) ? undefined : explain(validate);
  }
}

let socketAjv: Ajv2020Type | undefined;
const sendValidators = new WeakMap<SocketDoc, ValidateFunction>();

/** WebSocket: every frame the server sends on `path` must be one of the messages its SocketDoc declares it sends. */
export function socketContract(socket: WebSocket, path: string, doc: SocketDoc): void {
  const validate =
    sendValidators.get(doc) ??
    (socketAjv ??= newAjv()).compile({ oneOf: Object.values(doc.send).map((m) => m.payload) });
  sendValidators.set(doc, validate);
  const send = socket.send.bind(socket);
  socket.send = ((data: unknown, ...rest: unknown[]) => {
    let frame: unknown;
    try {
      frame = JSON.parse(String(data));
    } catch {
      frame = undefined;
    }
    if (!validate(frame))
      violations.push(
        `WebSocket ${path} sent ${String(data).slice(0, 200)}: ${frame === undefined ? 'not JSON' : explain(validate)}`,
      );
    return (send as (...args: unknown[]) => void)(data, ...rest);
  }) as WebSocket['send'];
}

/** Objects of the API's own schemas are closed in tests: a property the document does not declare is drift. */
function strict(schema: Schema): void {
  if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
}

/** WebSocket upgrade: a refusal (an HTTP problem instead of 101) must be one of those the endpoint publishes. */
export function upgradeContract(
  path: string,
  declared: readonly { status: number; code: string }[],
  refusal: { status: number; code: string },
): void {
  if (!declared.some((d) => d.status === refusal.status && d.code === refusal.code))
    violations.push(
      `WebSocket ${path} refused the upgrade with ${refusal.status} ${refusal.code}, which /asyncapi.json does not declare`,
    );
}

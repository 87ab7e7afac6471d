import type { ClassConstructor } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { RouteSpec } from './routes';

type Schema = Record<string, unknown>;

/** What a route answers on success: a view class (documented from its decorators), a list of them, or free text. */
export type ResponseDoc = ClassConstructor<object> | [ClassConstructor<object>] | { description: string; schema?: Schema; contentType?: string };

interface Operation {
  method: string;
  path: string;
  spec: RouteSpec<object, object, object>;
}

const problemCodes: Record<number, string> = {
  400: 'Invalid input (`validation_failed` with field-level `errors`, `malformed_json`)',
  401: 'Missing, expired, invalid or revoked access token (`token_missing`, `token_expired`, `token_invalid`, `token_revoked`)',
  403: 'Not allowed',
  404: 'Not found (also for resources of another organisation)',
  413: 'Body larger than the route accepts (`payload_too_large`)',
  415: 'Body is not application/json',
  429: 'Rate limited (`rate_limited`, see Retry-After)',
};

/**
 * Collects the operations declared through Routes and renders the OpenAPI 3.1 document from them and the
 * class-validator DTOs, so the description cannot drift from the code.
 */
export class OpenApiRegistry {
  private readonly operations: Operation[] = [];
  private cached?: Schema;

  constructor(private readonly info: { title: string; version: string; description: string }) {}

  add(method: string, path: string, spec: RouteSpec<object, object, object>) {
    this.operations.push({ method, path, spec });
    this.cached = undefined;
  }

  document(serverUrl: string): Schema {
    if (this.cached) return this.cached;
    assertUniqueSchemaNames();
    const schemas = validationMetadatasToSchemas({
      classTransformerMetadataStorage: defaultMetadataStorage,
      refPointerPrefix: '#/components/schemas/',
    }) as Record<string, Schema>;
    schemas.Problem = problemSchema;
    const paths: Record<string, Record<string, Schema>> = {};
    for (const op of this.operations) {
      const path = op.path.replace(/:(\w+)/g, '{$1}').replace(/\*(\w+)/g, '{$1}');
      (paths[path] ??= {})[op.method] = this.operation(op, schemas);
    }
    this.cached = {
      openapi: '3.1.0',
      info: this.info,
      servers: [{ url: serverUrl }],
      paths,
      components: {
        schemas,
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Access token from POST /auth/login (HS256, short-lived; refresh with POST /auth/refresh)' },
          internalSecret: { type: 'apiKey', in: 'header', name: 'X-Internal-Secret', description: 'Machine-to-machine secret; routes refuse everything when it is not configured' },
          serverApiKey: { type: 'apiKey', in: 'header', name: 'X-Server-API-Key', description: 'Integration key created by a member; mutations need the scope `write`' },
        },
      },
    };
    return this.cached;
  }

  private operation({ method, path, spec }: Operation, schemas: Record<string, Schema>): Schema {
    const parameters = [
      ...this.parameters(spec.params, 'path', schemas, path),
      ...this.parameters(spec.query, 'query', schemas, path),
    ];
    const problems = new Map<number, string>();
    if (spec.body || spec.query || spec.params) problems.set(400, problemCodes[400]);
    if (spec.access === 'user' || spec.access === 'admin') problems.set(401, problemCodes[401]);
    const forbidden = [
      spec.access === 'admin' && '`platform_admin_required`',
      spec.access === 'internal' && '`internal_secret_invalid`, `internal_routes_disabled`',
      spec.module && `\`module_not_entitled\` (module ${spec.module}), \`organization_suspended\``,
      spec.permission && `\`permission_denied\` (needs ${spec.permission})`,
    ].filter(Boolean);
    if (forbidden.length) problems.set(403, forbidden.join('; '));
    if (spec.params) problems.set(404, problemCodes[404]);
    if (spec.body) problems.set(413, problemCodes[413]).set(415, problemCodes[415]);
    if (spec.rateLimits?.length) {
      problems.set(429, `${problemCodes[429]}: ${spec.rateLimits.map((r) => `${r.limit} per ${r.windowSeconds ?? 60}s by ${r.by === undefined || r.by === 'ip' ? 'IP' : 'account'}`).join(', ')}`);
    }
    for (const [status, text] of Object.entries(spec.errors ?? {})) problems.set(Number(status), text);

    const responses: Record<string, Schema> = { [String(spec.status ?? 200)]: this.success(spec) };
    for (const [status, description] of [...problems].sort(([a], [b]) => a - b)) {
      responses[status] = { description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
    }
    const security = spec.security ?? (spec.access === 'user' || spec.access === 'admin' ? [{ bearerAuth: [] }] : spec.access === 'internal' ? [{ internalSecret: [] }] : []);
    return {
      operationId: `${method}${path.replace(/[:*](\w+)/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      tags: spec.tags,
      security,
      ...(parameters.length ? { parameters } : {}),
      ...(spec.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(spec.body) } } } } : {}),
      ...(spec.rawBody ? { requestBody: { required: true, content: { [spec.rawBody.type]: { schema: { type: 'string', format: 'binary' } } } } } : {}),
      responses,
    };
  }

  private success(spec: RouteSpec<object, object, object>): Schema {
    const r = spec.response;
    if (!r) return { description: spec.status === 204 ? 'No content' : 'Success' };
    if (Array.isArray(r)) return { description: `List of ${r[0].name}`, content: { 'application/json': { schema: { type: 'array', items: ref(r[0]) } } } };
    if (typeof r === 'function') return { description: r.name, content: { 'application/json': { schema: ref(r) } } };
    return { description: r.description, ...(r.schema ? { content: { [r.contentType ?? 'application/json']: { schema: r.schema } } } : {}) };
  }

  private parameters(dto: ClassConstructor<object> | undefined, where: 'path' | 'query', schemas: Record<string, Schema>, path: string): Schema[] {
    if (!dto) return [];
    const schema = schemas[dto.name] ?? {};
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    return Object.entries(props)
      .filter(([name]) => where === 'query' || path.includes(`:${name}`) || path.includes(`*${name}`))
      .map(([name, s]) => ({ name, in: where, required: where === 'path' || required.has(name), schema: s, ...(s.description ? { description: s.description } : {}) }));
  }
}

/** Schemas are named after their classes: two DTO or view classes with one name would silently overwrite each other. */
function assertUniqueSchemaNames(): void {
  const byName = new Map<string, Set<unknown>>();
  for (const m of (getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown[]> }).validationMetadatas.keys()) {
    const target = m as { name?: string };
    if (target.name) byName.set(target.name, (byName.get(target.name) ?? new Set()).add(target));
  }
  const clashes = [...byName].filter(([, classes]) => classes.size > 1).map(([name]) => name);
  if (clashes.length) throw new Error(`Several DTO/view classes are named ${clashes.join(', ')}: rename them, OpenAPI schemas are keyed by class name`);
}

const ref = (dto: ClassConstructor<object>) => ({ $ref: `#/components/schemas/${dto.name}` });

const problemSchema: Schema = {
  type: 'object',
  description: 'RFC 9457 problem details. `code` is stable and machine-readable; `errors` lists field-level problems of a 400.',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', example: '/problems/validation_failed' },
    title: { type: 'string', example: 'Bad Request' },
    status: { type: 'integer', example: 400 },
    detail: { type: 'string' },
    code: { type: 'string', example: 'validation_failed' },
    errors: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } } },
    instance: { type: 'string' },
    requestId: { type: 'string' },
  },
};

import type { ClassConstructor } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { IS_DATE_STRING, getMetadataStorage } from 'class-validator';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { INSTANT_RANGE } from '../../lib/calendar';
import { IS_CALENDAR_DATE, IS_INSTANT } from './dtos';
import { neededScope } from './guards';
import { nullableProperties, orNull } from './nullable';
import type { RouteSpec } from './routes';
import { webhookDocuments } from '../webhooks/openapiWebhooks';

type Schema = Record<string, unknown>;

/** What a route answers on success: a view class (documented from its decorators), a list of them, or free text. */
/**
 * What a route answers: a view class, a list of one, or a described body: one `schema` (of `contentType`,
 * JSON by default), or `content`, a schema per media type for a route that answers in several (format=csv|json);
 * an empty schema (`{}`) is any bytes (a download), declared without a schema.
 */
export type ResponseDoc =
  | ClassConstructor<object>
  | [ClassConstructor<object>]
  | { description: string; schema?: Schema; contentType?: string; content?: Record<string, Schema> };

interface Operation {
  method: string;
  path: string;
  spec: RouteSpec<object, object, object>;
}

const problemCodes: Record<number, string> = {
  400: 'Invalid input (`validation_failed` with field-level `errors`, `malformed_json`, `json_too_deep` beyond 32 levels of nesting)',
  401: 'Missing, expired, invalid or revoked access token (`token_missing`, `token_expired`, `token_invalid`, `token_revoked`)',
  403: 'Not allowed',
  404: 'Not found (also for resources of another organisation)',
  413: 'Body larger than the route accepts (`payload_too_large`)',
  415: 'Body is not application/json',
  429: 'Rate limited (`rate_limited`, see Retry-After)',
  503: 'A backing service (PostgreSQL, Redis) is unavailable: `dependency_unavailable`; retry shortly',
};

/** What every route of the document shares, appended to its description (the rules live in api/http/). */
const CONVENTIONS = [
  'Ids are UUIDs and case-insensitive (RFC 9562): an id in upper case, in the path, the query or the body, names the same resource as in lower case, and ids are always answered in lower case.',
  `Instants are RFC 3339 date-times with \`Z\` or an offset, ${INSTANT_RANGE}; an instant a route derives from them (an end = start + duration, an all-day event's local midnights) must lie in that range too, else 400 \`validation_failed\` on the field given.`,
  'Numbers may be written in any JSON notation; a limit of decimal places counts them in the value (`1e-7` has 7).',
  'A route without a request body refuses one (400 `body_not_allowed`); no body, `Content-Length: 0` and `{}` sent as JSON count as none.',
  'A method a path does not take answers 405 `method_not_allowed` with an `Allow` header listing the ones it takes (not declared per operation).',
];

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

  /**
   * What the document's structure is made of, without its prose: the operations with their classes by name and
   * their statuses, not descriptions nor rate limits' figures (which read the configuration). Two registries of
   * one code base with the same shape render the same paths and schemas (api/http/contract.ts caches by it).
   */
  shape(): string {
    const prose = new Set(['summary', 'description']);
    return JSON.stringify(this.operations, (key, value: unknown) => {
      if (prose.has(key)) return undefined;
      if (key === 'errors' || key === 'alsoAnswers') return Object.keys(value as object);
      if (key === 'rateLimits') return (value as unknown[]).length;
      return typeof value === 'function' ? (value as { name: string }).name : value;
    });
  }

  document(serverUrl: string): Schema {
    if (this.cached) return this.cached;
    const classes = schemaClasses();
    const schemas = validationMetadatasToSchemas({
      classTransformerMetadataStorage: defaultMetadataStorage,
      refPointerPrefix: '#/components/schemas/',
      // The library's default for @IsDateString is an unanchored pattern that demands fractional seconds, which
      // generated clients apply to valid timestamps: declare the standard format instead.
      // @IsInstant and @IsCalendarDate (dtos.ts) are custom rules the library cannot describe: a date-time and a date.
      additionalConverters: {
        [IS_DATE_STRING]: { type: 'string', format: 'date-time' },
        [IS_INSTANT]: { type: 'string', format: 'date-time' },
        [IS_CALENDAR_DATE]: { type: 'string', format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      },
    }) as Record<string, Schema>;
    for (const [name, target] of classes) declareNullables(schemas[name], target);
    schemas.Problem = problemSchema;
    const paths: Record<string, Record<string, Schema>> = {};
    for (const op of this.operations) {
      (paths[openApiPath(op.path)] ??= {})[op.method] = this.operation(op, schemas);
    }
    exemplifyRequestBodies(paths, schemas);
    this.cached = {
      openapi: '3.1.0',
      info: {
        ...this.info,
        description: `${this.info.description}\n\nConventions of every route:\n${CONVENTIONS.map((c) => `- ${c}`).join('\n')}`,
      },
      servers: [{ url: serverUrl }],
      paths,
      webhooks: webhookDocuments(),
      components: {
        schemas,
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Access token from POST /auth/login (HS256, short-lived; refresh with POST /auth/refresh)',
          },
          visitorSession: {
            type: 'http',
            scheme: 'bearer',
            description:
              'Storefront visitor session token from POST /api/public/auth/verify (magic-link sign-in; 30 days, one store)',
          },
          metricsToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'METRICS_TOKEN of the deployment, required by /metrics only when it is set',
          },
          scimToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              "An organisation's SCIM token for its identity provider (POST /orgs/{id}/scim-token, shown once): `scim_` and 43 base64url characters",
          },
          internalSecret: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Internal-Secret',
            description: 'Machine-to-machine secret; routes refuse everything when it is not configured',
          },
          serverApiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Server-API-Key',
            description:
              "Integration key of an organisation for one module's surface, created by a member (POST /api/knowledge/keys, POST /api/hub/keys) and shown once: `psk_<module>_<49 base62 characters>` (256 random bits and a checksum; secret scanners match `psk_(knowledge|core)_[0-9A-Za-z]{49}`). Reads need the scope `read`, mutations the scope `write` (which includes read)",
          },
        },
      },
    };
    return this.cached;
  }

  private operation({ method, path, spec }: Operation, schemas: Record<string, Schema>): Schema {
    const parameters = [...this.parameters(spec.params, 'path', schemas, path)];
    // Every variable of the path is declared, with a DTO or without one (then as a string).
    for (const [, kind, name] of path.matchAll(/([:*])(\w+)/g)) {
      if (parameters.some((p) => p.name === name)) continue;
      parameters.push({
        name,
        in: 'path',
        required: true,
        schema: { type: 'string' },
        ...(kind === '*' ? { description: WILDCARD_PARAMETER } : {}),
      });
    }
    parameters.push(...this.parameters(spec.query, 'query', schemas, path));
    const revalidates = Object.keys(spec.alsoAnswers ?? {}).includes('304');
    if (revalidates)
      parameters.push({
        name: 'If-None-Match',
        in: 'header',
        required: false,
        schema: { type: 'string' },
        description: 'The ETag of a copy the client holds: 304 without a body while it is current',
      });
    const problems = new Map<number, string>();
    const takesBody = spec.body || spec.rawBody || spec.requestBody;
    if (spec.body || spec.query || spec.params) problems.set(400, problemCodes[400]);
    if (!takesBody)
      problems.set(
        400,
        [problems.get(400), '`body_not_allowed`: this route takes no request body'].filter(Boolean).join('; '),
      );
    if (spec.access === 'user' || spec.access === 'admin') problems.set(401, problemCodes[401]);
    if (spec.apiKey)
      problems.set(
        401,
        `\`api_key_invalid\`: X-Server-API-Key missing, unknown, deleted, a key of another module than ${spec.apiKey.module}, or one whose creator left the organisation or may no longer read it`,
      );
    const module = spec.module ?? spec.apiKey?.module;
    const forbidden = [
      spec.access === 'admin' && '`platform_admin_required`',
      spec.access === 'internal' && '`internal_secret_invalid`, `internal_routes_disabled`',
      spec.apiKey && `\`api_key_scope_missing\` (needs a key with the scope ${neededScope(method, spec.apiKey.scope)})`,
      module && `\`module_not_entitled\` (module ${module}), \`organization_suspended\``,
      spec.permission && `\`permission_denied\` (needs ${spec.permission})`,
    ].filter(Boolean);
    if (forbidden.length) problems.set(403, forbidden.join('; '));
    if (spec.params) problems.set(404, problemCodes[404]);
    if (spec.body) problems.set(413, problemCodes[413]).set(415, problemCodes[415]);
    if (spec.rawBody) problems.set(413, problemCodes[413]);
    if (spec.rateLimits?.length) {
      problems.set(
        429,
        `${problemCodes[429]}: ${spec.rateLimits.map((r) => `${r.limit} per ${r.windowSeconds ?? 60}s by ${r.by === undefined || r.by === 'ip' ? 'IP' : (r.per ?? 'account')}`).join(', ')}`,
      );
    }
    // PostgreSQL or Redis down: every route that touches them answers 503 (public routes without input do not).
    const touchesDependencies =
      spec.access !== 'public' || spec.body || spec.rawBody || spec.query || spec.params || spec.rateLimits?.length;
    if (touchesDependencies) problems.set(503, problemCodes[503]);
    // A route's own problems add to those its guards and input give the same status (a 403 of its own does not
    // hide `permission_denied`).
    for (const [status, text] of Object.entries(spec.errors ?? {})) {
      const derived = problems.get(Number(status));
      problems.set(Number(status), derived ? `${text}; ${derived}` : text);
    }

    const success = spec.status ?? 200;
    if (answersWithoutBody(success) && spec.response)
      throw new Error(`${method.toUpperCase()} ${path}: a ${success} has no body, so no response to document`);
    const responses: Record<string, Schema> = {
      [String(success)]: { ...this.success(spec), ...(revalidates ? { headers: { ETag: etagHeader } } : {}) },
    };
    for (const [also, description] of Object.entries(spec.alsoAnswers ?? {})) {
      // A 304 (a 204 ...) never has a body, whatever the route's other answers carry: its description and headers only.
      responses[also] = answersWithoutBody(Number(also))
        ? { description, ...(also === '304' ? { headers: { ETag: { ...etagHeader, required: true } } } : {}) }
        : { ...this.success(spec), description };
    }
    for (const [status, description] of [...problems].sort(([a], [b]) => a - b)) {
      responses[status] = {
        description,
        content: spec.problemContent
          ? { [spec.problemContent.contentType]: { schema: spec.problemContent.schema } }
          : { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      };
    }
    const security =
      spec.security ??
      (spec.access === 'user' || spec.access === 'admin'
        ? [{ bearerAuth: [] }]
        : spec.access === 'internal'
          ? [{ internalSecret: [] }]
          : spec.access === 'apiKey'
            ? [{ serverApiKey: [] }]
            : []);
    return {
      operationId: `${method}${path.replace(/[:*](\w+)/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      tags: spec.tags,
      security,
      ...(parameters.length ? { parameters } : {}),
      ...requestBody(spec),
      responses,
    };
  }

  private success(spec: RouteSpec<object, object, object>): Schema {
    const r = spec.response;
    if (!r) return { description: spec.status === 204 ? 'No content' : 'Success' };
    if (Array.isArray(r))
      return {
        description: `List of ${r[0].name}`,
        content: { 'application/json': { schema: { type: 'array', items: ref(r[0]) } } },
      };
    if (typeof r === 'function') return { description: r.name, content: { 'application/json': { schema: ref(r) } } };
    if (r.content) return { description: r.description, content: mediaTypes(r.content) };
    return {
      description: r.description,
      ...(r.schema ? { content: { [r.contentType ?? 'application/json']: { schema: r.schema } } } : {}),
    };
  }

  private parameters(
    dto: ClassConstructor<object> | undefined,
    where: 'path' | 'query',
    schemas: Record<string, Schema>,
    path: string,
  ): Schema[] {
    if (!dto) return [];
    const schema = schemas[dto.name] ?? {};
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    return Object.entries(props)
      .filter(([name]) => where === 'query' || path.includes(`:${name}`) || path.includes(`*${name}`))
      .map(([name, s]) => ({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: s,
        ...(s.description ? { description: s.description } : {}),
      }));
  }
}

/**
 * Swagger UI samples a string from its `pattern` before its `format` (randexp: "5846-21-74" for a date, control
 * characters for a "no control characters" class), so most bodies it generated were refused. Every
 * pattern-constrained string of a request body, nested ones included, gets a first `examples` value that matches
 * its pattern and length bounds, unless it already has an example, default, const or enum. Parameters get none:
 * Swagger UI would fill optional ones (a cursor, a filter) with it.
 */
function exemplifyRequestBodies(paths: Record<string, Record<string, Schema>>, schemas: Record<string, Schema>): void {
  const seen = new Set<Schema>();
  const visit = (schema: unknown, name: string | undefined): void => {
    if (!schema || typeof schema !== 'object' || seen.has(schema as Schema)) return;
    const s = schema as Schema;
    seen.add(s);
    if (typeof s.$ref === 'string') return visit(schemas[s.$ref.replace('#/components/schemas/', '')], name);
    for (const [key, property] of Object.entries((s.properties ?? {}) as Record<string, unknown>)) visit(property, key);
    visit(s.items, name);
    visit(s.additionalProperties, name);
    for (const list of [s.oneOf, s.anyOf, s.allOf])
      if (Array.isArray(list)) for (const member of list) visit(member, name);
    const isString = s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'));
    if (!isString || ['examples', 'example', 'default', 'const', 'enum'].some((k) => k in s)) return;
    // Rules checked in code rather than by the schema: the password policy, IANA time zones.
    if (name && CODE_CHECKED_SAMPLES[name]) return void (s.examples = [CODE_CHECKED_SAMPLES[name]]);
    if (typeof s.pattern !== 'string') return;
    const example = sampleMatching(s, name);
    if (example !== undefined) s.examples = [example];
  };
  for (const operation of Object.values(paths).flatMap((byMethod) => Object.values(byMethod))) {
    const content = ((operation.requestBody as Schema | undefined)?.content ?? {}) as Record<string, Schema>;
    for (const media of Object.values(content)) visit(media.schema, undefined);
  }
}

const CODE_CHECKED_SAMPLES: Record<string, string> = {
  password: 'a long passphrase',
  newPassword: 'a long passphrase',
  timeZone: 'Europe/Paris',
};

/** Realistic values by property name, tried first; then generic words, then runs of one character. */
const NAMED_SAMPLES: Record<string, string[]> = {
  currency: ['EUR'],
  country: ['FR'],
  locale: ['fr-FR', 'fr'],
  phone: ['+33 1 23 45 67 89'],
  value: ['+33 1 23 45 67 89'],
  siren: ['732829320'],
  siret: ['73282932000074'],
  bic: ['AGRIFRPP'],
  vatNumber: ['FR44732829320'],
  period: ['2026-03'],
  contentType: ['image/png'],
  repository: ['octo-org/octo-repo'],
  tier: ['pro'],
  unitCode: ['C62'],
  invoicePrefix: ['F-{YYYY}-'],
  creditNotePrefix: ['AV-{YYYY}-'],
};
const GENERIC_SAMPLES = [
  '2026-01-15',
  'example',
  'Example',
  'example.created',
  'example:value',
  '09:00-17:00',
  'me',
  'example/name',
];

function sampleMatching(schema: Schema, name: string | undefined): string | undefined {
  const pattern = schema.pattern as string;
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    re = new RegExp(pattern);
  }
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fits = (c: string) => c.length >= min && c.length <= max && re.test(c);
  const named = (name && NAMED_SAMPLES[name]) || [];
  const found = [...named, ...GENERIC_SAMPLES].find(fits);
  if (found !== undefined) return found;
  for (let n = Math.max(1, min); n <= Math.min(max, 256); n++) {
    for (const unit of ['x', 'X', '1234567890']) {
      const run = unit.repeat(n).slice(0, n);
      if (fits(run)) return run;
    }
  }
  return undefined;
}

/** Statuses that never carry a body (RFC 9110): a 1xx, 204, 205 or 304 is declared with its description and headers only. */
export const answersWithoutBody = (status: number): boolean =>
  (status >= 100 && status < 200) || status === 204 || status === 205 || status === 304;

const etagHeader: Schema = {
  description: 'Entity tag of the representation, for If-None-Match',
  schema: { type: 'string' },
};

const WILDCARD_PARAMETER =
  'The rest of the path, slashes included (each segment percent-encoded), or the whole of it percent-encoded as one segment (`/` as `%2F`): both name the same path';

/**
 * A raw body (RouteSpec.rawBody) is a signed webhook delivery: a JSON object whose signature covers its bytes. In
 * OpenAPI 3.1 it is declared as what it is, a JSON object, not with 3.0's `format: binary` string, which
 * validators and mocks apply to the parsed JSON. A route's `requestBody` documents a body the route reads
 * itself (a stream) or documents a raw body otherwise.
 */
function requestBody(spec: RouteSpec<object, object, object>): Schema {
  const doc = spec.requestBody;
  if (doc)
    return {
      requestBody: { required: doc.required ?? true, description: doc.description, content: mediaTypes(doc.content) },
    };
  if (spec.body)
    return {
      requestBody: { required: !spec.optionalBody, content: { 'application/json': { schema: ref(spec.body) } } },
    };
  if (spec.rawBody) {
    const description =
      'A JSON object, as the sender delivers it. Its signature is computed over the raw bytes of the body: they are checked as received, before any parsing, so a proxy or client must forward them unchanged (not re-serialised).';
    // x-raw-body: read as bytes and verified before any parsing (the suite's fuzz guard sends these no JSON checks).
    return {
      requestBody: {
        required: true,
        description,
        content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
        'x-raw-body': true,
      },
    };
  }
  return {};
}

/** Media Type Objects from a schema per media type; an empty schema (any bytes) is left out, as OpenAPI 3.1 writes binary content. */
const mediaTypes = (content: Record<string, Schema>) =>
  Object.fromEntries(
    Object.entries(content).map(([type, schema]) => [type, Object.keys(schema).length ? { schema } : {}]),
  );

/** The OpenAPI template of an Express route path: `/rooms/:id` and `/storage/*key` become `/rooms/{id}`, `/storage/{key}`. */
export const openApiPath = (expressPath: string) => expressPath.replace(/[:*](\w+)/g, '{$1}');

/**
 * The DTO and view classes by schema name. Schemas are named after their classes: two classes with one name
 * would silently overwrite each other, so that stops the document.
 */
function schemaClasses(): Map<string, object> {
  const byName = new Map<string, Set<object>>();
  for (const m of (
    getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, unknown[]> }
  ).validationMetadatas.keys()) {
    const target = m as { name?: string };
    if (target.name) byName.set(target.name, (byName.get(target.name) ?? new Set()).add(target));
  }
  const clashes = [...byName].filter(([, classes]) => classes.size > 1).map(([name]) => name);
  if (clashes.length)
    throw new Error(
      `Several DTO/view classes are named ${clashes.join(', ')}: rename them, OpenAPI schemas are keyed by class name`,
    );
  return new Map([...byName].map(([name, classes]) => [name, [...classes][0]]));
}

/** Properties marked @Nullable() (their type includes null) accept null in the document too. */
function declareNullables(schema: Schema | undefined, target: object): void {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  for (const key of nullableProperties(target)) {
    const name = (target as { name: string }).name;
    if (!properties[key])
      throw new Error(`${name}.${key} is @Nullable() but has no type decorator (e.g. @IsString()) to document it`);
    properties[key] = orNull(properties[key]);
  }
}

const ref = (dto: ClassConstructor<object>) => ({ $ref: `#/components/schemas/${dto.name}` });

const problemSchema: Schema = {
  type: 'object',
  description:
    'RFC 9457 problem details. `code` is stable and machine-readable; `errors` lists field-level problems of a 400.',
  required: ['type', 'title', 'status', 'detail', 'code'],
  properties: {
    type: { type: 'string', example: '/problems/validation_failed' },
    title: { type: 'string', example: 'Bad Request' },
    status: { type: 'integer', example: 400 },
    detail: { type: 'string' },
    code: { type: 'string', example: 'validation_failed' },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
    instance: { type: 'string' },
    requestId: { type: 'string' },
  },
};

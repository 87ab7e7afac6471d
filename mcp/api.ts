/**
 * HTTP client of the knowledge integration surface (/api/public/knowledge, X-Server-API-Key). The MCP server
 * reaches the service only through it: no database, no import of the app's code.
 */
export interface FieldProblem {
  field: string;
  message: string;
}

/** An answer of the service other than 2xx (its problem+json document), or a service that did not answer. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly errors: FieldProblem[] = [],
  ) {
    super(`${title} (${status} ${code}): ${detail}`);
    this.name = 'ServiceError';
  }
}

export type Query = Record<string, string | number | boolean | undefined>;

/** A list answer of the service: `{ items, nextCursor }`. */
export type Page<T> = { items: T[]; nextCursor?: string | null };

export interface ApiOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** Sent as User-Agent, so the service's logs name the caller. */
  userAgent?: string;
}

export const SURFACE = '/api/public/knowledge';

export class KnowledgeApi {
  constructor(private readonly options: ApiOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', path, undefined, query);
  }

  post<T>(path: string, body?: object): Promise<T> {
    return this.request<T>('POST', path, body ?? {});
  }

  patch<T>(path: string, body: object): Promise<T> {
    return this.request<T>('PATCH', path, body);
  }

  /** DELETE: the service's answer, or null for a 204. */
  delete<T>(path: string): Promise<T | null> {
    return this.request<T | null>('DELETE', path);
  }

  async request<T>(method: string, path: string, body?: object, query?: Query): Promise<T> {
    const url = new URL(`${this.options.baseUrl}${SURFACE}${path}`);
    for (const [name, value] of Object.entries(query ?? {}))
      if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
    const headers: Record<string, string> = {
      'X-Server-API-Key': this.options.apiKey,
      Accept: 'application/json, application/problem+json',
      'User-Agent': this.options.userAgent ?? 'knowledge-mcp',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const reason = timedOut
        ? `no answer within ${this.options.timeoutMs} ms`
        : err instanceof Error
          ? err.cause instanceof Error
            ? err.cause.message
            : err.message
          : String(err);
      throw new ServiceError(
        0,
        'service_unreachable',
        'Service unreachable',
        `The knowledge service at ${this.options.baseUrl} could not be reached (${method} ${url.pathname}): ${reason}`,
      );
    }
    const text = await res.text();
    const parsed = parseJson(text);
    if (res.ok) return (res.status === 204 || text === '' ? null : parsed) as T;
    throw toServiceError(res, parsed, text);
  }
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function toServiceError(res: Response, body: unknown, text: string): ServiceError {
  const problem = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const str = (value: unknown, fallback: string) => (typeof value === 'string' && value ? value : fallback);
  const errors = Array.isArray(problem.errors)
    ? problem.errors.filter(
        (e): e is FieldProblem =>
          typeof e === 'object' && e !== null && typeof e.field === 'string' && typeof e.message === 'string',
      )
    : [];
  return new ServiceError(
    res.status,
    str(problem.code, `http_${res.status}`),
    str(problem.title, res.statusText || 'Error'),
    str(problem.detail, text.slice(0, 300) || res.statusText),
    errors,
  );
}

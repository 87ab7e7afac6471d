/**
 * The backing services every dyno needs (PostgreSQL, Redis): telling an outage from any other failure, and
 * asking them whether they answer. The edge turns an outage into 503 `dependency_unavailable`
 * (api/http/problems.ts); the workers wait for the dependency instead of spending the job's attempts
 * (workers/outage.ts).
 */

/** Thrown where a dependency is known to be unusable (e.g. the revocation cache is cold and PostgreSQL is down). */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: string,
    cause?: unknown,
  ) {
    super(`${dependency} is unavailable`, { cause });
    this.name = 'DependencyUnavailableError';
  }
}

/**
 * Network errors, PostgreSQL's connection classes (08: connection exception; 57P01-03: shutting down or
 * starting; 53300: too many connections; 57014: statement timeout), and what pg, knex and ioredis say when
 * a connection is refused, cut, stalled or not available in time.
 */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
]);
const OUTAGE_MESSAGES =
  /Connection terminated|timeout expired|Timeout acquiring a connection|Unable to acquire a connection|Query read timeout|statement timeout|query timed out|Connection is closed|Stream isn't writeable|Command timed out|Socket timeout|Command aborted due to connection close|max retries per request|is not queryable|ECONNREFUSED|ECONNRESET|Too many Cluster redirections|Failed to refresh slots cache|None of startup nodes is available|Cluster isn't ready/i;
/** Redis' own error prefixes of a server that cannot serve now (a failover, a restart loading its data), case-sensitive. */
const REDIS_TRANSIENT = /^(CLUSTERDOWN|TRYAGAIN|READONLY|LOADING|MASTERDOWN) /;

/** Whether an error means a backing service is down or unreachable (rather than a bug or bad input). */
export function isDependencyDown(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DependencyUnavailableError || e.name === 'MaxRetriesPerRequestError') return true;
    const code = String((e as { code?: unknown }).code ?? '');
    if (OUTAGE_CODES.has(code) || code.startsWith('08') || OUTAGE_MESSAGES.test(e.message)) return true;
    if (REDIS_TRANSIENT.test(e.message)) return true;
  }
  return false;
}

/** Resolves to 'ok', or to why the probe failed or did not answer within `timeoutMs`. */
export async function probe(check: () => Promise<unknown>, timeoutMs: number): Promise<'ok' | string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)),
      ),
    ]);
    return 'ok';
  } catch (err) {
    return (err as Error).message || 'down';
  } finally {
    clearTimeout(timer);
  }
}

import type { Request, RequestHandler } from 'express';
import { rateLimit, ipKeyGenerator, type AugmentedRequest } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Services } from '../../domain/services';
import { AppError } from '../../lib/errors';
import { scriptTolerantSender } from '../../lib/redis';

export interface RateLimitRule {
  /** Names the counter in Redis (and in the OpenAPI description). */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds?: number;
  /** What is counted: the client IP (default) or a value of the request such as the account's e-mail. */
  by?: 'ip' | ((req: Request) => string | undefined);
  /** Count only the requests answered with an error (>= 400), e.g. failed sign-ins: a success costs nothing. */
  countFailuresOnly?: boolean;
  /** Count only the requests answered 2xx/3xx, e.g. bookings made: a refused one (409, 400) costs nothing. */
  countSuccessesOnly?: boolean;
  /** What `by` counts, for the OpenAPI description (default: account). */
  per?: string;
}

/** A body field as a rule's `by` counts it: a non-empty string, trimmed (the limiter lowercases it), else not counted. */
export const bodyField =
  (name: string) =>
  (req: Request): string | undefined => {
    const value: unknown = (req.body as Record<string, unknown> | null | undefined)?.[name];
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  };

/** The counters of one limit in Redis (`<namespace>:rl:<name>:<key>`), shared by every dyno. */
export const rateLimitStore = (services: Services, name: string) =>
  new RedisStore({
    prefix: services.key('rl', name) + ':',
    sendCommand: scriptTolerantSender(services.redis) as (command: string, ...args: string[]) => Promise<RedisReply>,
  });

/**
 * A Redis-backed limiter (express-rate-limit + rate-limit-redis), shared by every dyno. Over the limit:
 * 429 problem `rate_limited` with RateLimit and Retry-After headers. Requests without the counted value
 * (e.g. no e-mail in the body) are not counted by an account rule; the IP rule still applies.
 */
export function rateLimiter(services: Services, rule: RateLimitRule): RequestHandler {
  const windowMs = (rule.windowSeconds ?? 60) * 1000;
  const by = rule.by ?? 'ip';
  return rateLimit({
    windowMs,
    limit: rule.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: rule.name,
    skipSuccessfulRequests: rule.countFailuresOnly ?? false,
    skipFailedRequests: rule.countSuccessesOnly ?? false,
    store: rateLimitStore(services, rule.name),
    keyGenerator: (req) => (by === 'ip' ? ipKeyGenerator(req.ip ?? 'unknown') : (by(req) ?? '').toLowerCase()),
    skip: (req) => by !== 'ip' && !by(req),
    // Its store loads a script into Redis at start: with Redis down that fails (requests then answer 503); one
    // warning line, not a console stack trace per limiter.
    logger: {
      warn: (err: unknown) => services.logger.warn({ limiter: rule.name, err: String(err) }, 'rate limiter warning'),
      error: (err: unknown) =>
        services.logger.warn({ limiter: rule.name, err: String(err) }, 'rate limiter store unavailable'),
    },
    handler: (req, _res, next, options) => {
      // When this counter resets (an hour's window may be minutes from it), else a whole window.
      const resetTime = (req as AugmentedRequest)[options.requestPropertyName]?.resetTime;
      const retryAfter = String(
        resetTime
          ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000))
          : Math.ceil(options.windowMs / 1000),
      );
      next(
        new AppError(429, 'rate_limited', 'Too many requests; retry later', undefined, { 'Retry-After': retryAfter }),
      );
    },
  });
}

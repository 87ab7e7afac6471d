import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import jwt from 'jsonwebtoken';
import passport from 'passport';
import { ExtractJwt, Strategy as JwtStrategy, type JwtFromRequestFunction } from 'passport-jwt';
import type { Services } from '../../domain/services';
import { AppError, unauthorized } from '../../lib/errors';
import { isAccessClaims, JWT_ALGORITHM, JWT_ISSUER, type AccessClaims } from '../../lib/tokens';

/** Who is calling: the verified access-token claims. */
export type AuthInfo = AccessClaims;

declare module 'express-serve-static-core' {
  interface Request {
    auth?: AuthInfo;
  }
}

const fromHeader = ExtractJwt.fromAuthHeaderAsBearerToken();
/** The VR WebSocket may also carry its token as ?token= (browsers cannot set headers on an upgrade). */
const fromHeaderOrQuery = ExtractJwt.fromExtractors([fromHeader, (req) => new URL(req.url ?? '', 'http://x').searchParams.get('token')]);

/**
 * The authentication chain: passport-jwt verifies an HS256 token signed with the shared secret (any other
 * algorithm, `none` included, is refused), then the shared revocation list is checked in Redis.
 * Failures are 401 problems: token_missing, token_expired, token_invalid, token_revoked.
 */
export class Authenticator {
  private readonly passport = new passport.Passport();

  constructor(private readonly services: Services) {
    const key = services.tokens.key;
    const strategy = (extractor: JwtFromRequestFunction) =>
      new JwtStrategy(
        {
          jwtFromRequest: extractor,
          // A KeyObject, not the secret string: jsonwebtoken then skips public-key detection (~0.4 ms a verify).
          secretOrKeyProvider: (_req, _token, done) => done(null, key as unknown as Buffer),
          algorithms: [JWT_ALGORITHM],
          issuer: JWT_ISSUER,
        },
        (payload: object, done: (err: unknown, user?: AccessClaims | false, info?: unknown) => void) =>
          isAccessClaims(payload) ? done(null, payload) : done(null, false, new jwt.JsonWebTokenError('token claims are incomplete')),
      );
    this.passport.use('jwt', strategy(fromHeader));
    this.passport.use('jwt-ws', strategy(fromHeaderOrQuery));
  }

  /** Verifies a request (HTTP, or a WebSocket upgrade with `ws: true`) and returns its claims, or throws 401. */
  verify(req: IncomingMessage, options: { ws?: boolean } = {}): Promise<AuthInfo> {
    return new Promise<AccessClaims>((resolve, reject) => {
      const callback = (err: unknown, user: AccessClaims | false, info: unknown) => {
        if (err) return reject(err);
        if (!user) return reject(toAuthError(info));
        resolve(user);
      };
      this.passport.authenticate(options.ws ? 'jwt-ws' : 'jwt', { session: false }, callback)(req, {}, reject);
    }).then(async (claims) => {
      if (await this.services.revocations.isRevoked(claims)) throw unauthorized('token_revoked', 'The access token has been revoked');
      return claims;
    });
  }

  /** Express middleware: sets req.auth or answers 401. */
  readonly middleware: RequestHandler = (req: Request, _res: Response, next: NextFunction) => {
    this.verify(req).then(
      (claims) => {
        req.auth = claims;
        next();
      },
      next,
    );
  };
}

function toAuthError(info: unknown): AppError {
  if (info instanceof jwt.TokenExpiredError) return unauthorized('token_expired', 'The access token has expired');
  if (info instanceof Error && info.message === 'No auth token') return unauthorized('token_missing', 'An access token is required (Authorization: Bearer <token>)');
  return unauthorized('token_invalid', 'The access token is invalid');
}

import type { Request } from 'express';
import type { Services } from '../../../domain/services';
import { verifyAppPassword } from '../../../domain/identity/verifyAppPassword';
import { AppError, forbidden } from '../../../lib/errors';

/** Who a WebDAV request acts as: an organisation's member, from an app password. */
export interface DavPrincipal {
  tenantId: string;
  userId: string;
  /** Whether the member may change the drive (cloud.write); reading needs cloud.read. */
  canWrite: boolean;
}

export const DAV_REALM = 'Basic realm="Drive (WebDAV): your e-mail and an app password", charset="UTF-8"';

const challenge = (detail: string) =>
  new AppError(401, 'app_password_required', detail, undefined, { 'WWW-Authenticate': DAV_REALM });

/** The login and secret of a Basic Authorization header, or null. */
export function basicCredentials(header: string | undefined): { login: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const at = decoded.indexOf(':');
  if (at <= 0) return null;
  return { login: decoded.slice(0, at), secret: decoded.slice(at + 1) };
}

/**
 * Basic credentials of a DAV client: the member's e-mail and an app password with the `webdav` scope (401 with a
 * challenge otherwise; failures are throttled per address like sign-ins, 429). The organisation is the app
 * password's; it must be entitled to the cloud module and not suspended, and the member must hold cloud.read
 * (403), as for the drive's JSON routes.
 */
export async function authenticateDav(services: Services, req: Request): Promise<DavPrincipal> {
  const credentials = basicCredentials(req.headers.authorization);
  if (!credentials) throw challenge('Sign in with your e-mail and an app password (scope webdav)');
  const principal = await verifyAppPassword(
    services,
    credentials.login,
    credentials.secret,
    'webdav',
    req.ip ?? 'unknown',
  );
  if (!principal) throw challenge('The e-mail or app password is wrong, revoked or not for WebDAV');
  const entitlements = await services.entitlements.get(principal.tenantId);
  if (entitlements.suspended) throw forbidden('organization_suspended', 'This organisation is suspended');
  if (!entitlements.modules.includes('cloud'))
    throw forbidden('module_not_entitled', 'The subscription of this organisation does not include the cloud module');
  const permissions = await services.permissions.of(principal.tenantId, principal.userId);
  if (!permissions.has('cloud.read'))
    throw forbidden('permission_denied', 'This action needs the permission cloud.read');
  return { tenantId: principal.tenantId, userId: principal.userId, canWrite: permissions.has('cloud.write') };
}

import type { Em } from '../../lib/db';
import { invalidField } from '../../lib/errors';
import { passwordProblem } from '../../lib/passwords';
import { User } from '../../entities/identity/user';
import { audit } from './audit';
import { createUser, normalizeEmail } from './createUser';

/**
 * Makes sure a platform administrator with this e-mail exists: an existing account is promoted (its password
 * untouched), otherwise a confirmed account is created. Used by ADMIN_EMAIL at start and `npm run admin:create`.
 */
export async function ensurePlatformAdmin(em: Em, email: string, password: string): Promise<{ created: boolean }> {
  const existing = await em.findOne(User, { email: normalizeEmail(email) });
  if (existing) {
    if (!existing.isPlatformAdmin) {
      existing.isPlatformAdmin = true;
      audit(em, { action: 'admin.granted', targetType: 'user', targetId: existing.id, data: { via: 'bootstrap' } });
      await em.flush();
    }
    return { created: false };
  }
  const problem = passwordProblem(password, email);
  if (problem) throw invalidField('password', problem);
  const { user } = await createUser(em, { email, password, displayName: 'Platform administrator', emailConfirmed: true, isPlatformAdmin: true });
  audit(em, { action: 'admin.granted', targetType: 'user', targetId: user.id, data: { via: 'bootstrap' } });
  await em.flush();
  return { created: true };
}

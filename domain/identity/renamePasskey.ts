import type { Passkey } from '../../entities/identity/passkey';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import { audit } from '../platform/audit';
import { passkeyOf } from './store/passkeys';

/** Renames a passkey of the account (404 for an unknown one or another account's). Audited. */
export async function renamePasskey(
  em: Em,
  props: { userId: string; tenantId: string; id: string; name: string; ip?: string | null },
): Promise<Passkey> {
  const passkey = await passkeyOf(em, props.userId, props.id);
  if (!passkey) throw notFound('Passkey');
  passkey.name = props.name;
  audit(em, {
    action: 'mfa.passkey_renamed',
    actorId: props.userId,
    tenantId: props.tenantId,
    targetType: 'passkey',
    targetId: passkey.id,
    ip: props.ip,
    data: { name: props.name },
  });
  await em.flush();
  return passkey;
}

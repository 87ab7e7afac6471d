import type { Passkey } from '../../entities/identity/passkey';
import type { Em } from '../../lib/db';
import { passkeysOf } from './store/passkeys';

/** The account's passkeys, oldest first. */
export const listPasskeys = (em: Em, userId: string): Promise<Passkey[]> => passkeysOf(em, userId);

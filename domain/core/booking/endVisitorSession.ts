import { hashToken } from '../../../lib/tokens';
import type { Services } from '../../services';
import { deleteSessionByHash } from './store/visitors';

/** Ends a visitor session (sign out); no token, nothing to end. */
export async function endVisitorSession(services: Services, token: string | undefined): Promise<void> {
  if (!token) return;
  await deleteSessionByHash(services, hashToken(token));
}

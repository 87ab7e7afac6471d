import { seal, unseal } from '../../../../lib/seal';
import type { Services } from '../../../services';

/** App passwords of external calendars are stored sealed under a key derived for this purpose only. */
const PURPOSE = 'calendar-connection-password';

export const sealPassword = (services: Services, password: string): string =>
  seal(services.deriveSecret(PURPOSE), PURPOSE, password);

/** The password in clear, or null when it cannot be opened (the server key changed). */
export const openPassword = (services: Services, sealed: string): string | null =>
  unseal(services.deriveSecret(PURPOSE), PURPOSE, sealed);

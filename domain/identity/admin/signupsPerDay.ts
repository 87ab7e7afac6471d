import type { Services } from '../../services';
import { signupsByDay } from '../store/admin';

/** Sign-ups per UTC day over the last `days` days (today included), days without any included as 0. */
export async function signupsPerDay(services: Services, days: number): Promise<{ date: string; count: number }[]> {
  return signupsByDay(services.orm.em.fork(), days);
}

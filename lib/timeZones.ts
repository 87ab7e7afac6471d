import { IANAZone } from 'luxon';
import type { Em } from './db';
import { invalidField } from './errors';

// PostgreSQL's zone names (~1,200, ~60 ms to list): static for a server, so read once per process.
let pgZones: Promise<Set<string>> | undefined;
function postgresZones(em: Em): Promise<Set<string>> {
  pgZones ??= em.execute<{ name: string }[]>('select name from pg_timezone_names').then(
    (rows) => new Set(rows.map((r) => r.name)),
    (err: unknown) => {
      pgZones = undefined;
      throw err;
    },
  );
  return pgZones;
}

/**
 * Whether both luxon and PostgreSQL know `zone`. Intl/luxon accept names PostgreSQL does not (e.g.
 * US/Pacific-New), and such a name fails every SQL statement reading it with `at time zone`.
 */
export async function isKnownZone(em: Em, zone: string): Promise<boolean> {
  return IANAZone.isValidZone(zone) && (await postgresZones(em)).has(zone);
}

/** 400 (validation_failed on `field`) unless `zone` is an IANA time zone name both luxon and PostgreSQL know. */
export async function checkZone(em: Em, field: string, zone: string): Promise<string> {
  if (!(await isKnownZone(em, zone))) throw invalidField(field, 'must be an IANA time zone such as Europe/Paris');
  return zone;
}

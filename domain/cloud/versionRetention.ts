/**
 * Which versions of a file the retention keeps, thinned by age like Nextcloud's: every version of the last hour,
 * then one per hour up to a day, one per day up to 30 days, one per week after that, and never more than
 * `maxPerFile` (the newest). A slot is a calendar hour, day or week (UTC, counted from the epoch), not an age, so
 * running the rule again keeps what it kept. Of the versions sharing a slot, the newest stays.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;

export interface AgedVersion {
  id: string;
  /** When its content was written. */
  at: Date;
}

/** The slot a version competes in at `now`, or null: too recent to thin (every one kept). */
export function retentionSlot(at: Date, now: Date): string | null {
  const time = at.getTime();
  const age = now.getTime() - time;
  if (age < HOUR) return null;
  if (age < DAY) return `hour:${Math.floor(time / HOUR)}`;
  if (age < MONTH) return `day:${Math.floor(time / DAY)}`;
  return `week:${Math.floor(time / WEEK)}`;
}

/** The ids of the versions to delete (in any order given), the rest being kept. */
export function versionsToPrune(versions: AgedVersion[], now: Date, maxPerFile: number): string[] {
  const newestFirst = [...versions].sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1));
  const taken = new Set<string>();
  const kept: string[] = [];
  const pruned: string[] = [];
  for (const version of newestFirst) {
    const slot = retentionSlot(version.at, now);
    if (slot !== null && taken.has(slot)) pruned.push(version.id);
    else {
      if (slot !== null) taken.add(slot);
      kept.push(version.id);
    }
  }
  return [...pruned, ...kept.slice(Math.max(0, maxPerFile))];
}

import { invalidField } from '../../lib/errors';
import type { RoomMode } from '../../entities/vr/room';

export const MIN_CAPACITY = 1;
export const MAX_CAPACITY = 64;
export const DEFAULT_CAPACITY = 8;

/** The capacity a room gets: a solo room holds exactly one participant; others default to 8. */
export function capacityFor(mode: RoomMode, capacity: number | undefined): number {
  if (mode === 'solo') {
    if (capacity !== undefined && capacity !== 1) throw invalidField('capacity', 'must be 1 for a solo room');
    return 1;
  }
  return capacity ?? DEFAULT_CAPACITY;
}

import { badRequest } from '../../../lib/errors';
import { sanitizeName } from '../names';

/**
 * A name a WebDAV client creates, as it asked: a client syncs by path, so a name the drive would store
 * differently (its rules: sanitizeName) is refused with 400 `name_invalid` instead of silently changed.
 */
export function davName(name: string): string {
  let stored: string;
  try {
    stored = sanitizeName(name);
  } catch {
    throw badRequest('name_invalid', `"${name}" cannot be a name in the drive`);
  }
  if (stored !== name)
    throw badRequest('name_invalid', `"${name}" cannot be a name in the drive (it would be stored as "${stored}")`);
  return name;
}

import { DRIVE_PURPOSE, PURPOSE_LENGTH } from '../../entities/cloud/node';
import { invalidField, tooLarge } from '../../lib/errors';
import { mediaType } from './names';

/** A module key: lowercase letters, digits, "_" or "-", starting with a letter, as long as the column takes. */
const PURPOSE = new RegExp(`^[a-z][a-z0-9_-]{0,${PURPOSE_LENGTH - 1}}$`);

/**
 * Checks what an upload declares before anything is reserved: the purpose is a module key, only files of the
 * drive go into folders (400), and the size is within the bound (413 `file_too_large`).
 */
export function checkDeclaredUpload(
  props: { size: number; folderId?: string | null; purpose: string },
  maxBytes: number,
): void {
  if (!PURPOSE.test(props.purpose))
    throw invalidField('purpose', 'must be a module key of lowercase letters, digits, "_" or "-"');
  if (props.purpose !== DRIVE_PURPOSE && props.folderId)
    throw invalidField('folderId', 'only files of the drive go into folders');
  if (props.size > maxBytes) throw tooLarge('file_too_large', `A file may have at most ${maxBytes} bytes`);
}

/** How a stored object differs from the upload's declaration (size, media type without parameters); empty when it matches. */
export function objectMismatches(
  stored: { size: number; contentType?: string | null },
  declared: { size: number; contentType: string },
): string[] {
  const type = mediaType(stored.contentType);
  return [
    stored.size !== declared.size && `it has ${stored.size} bytes, ${declared.size} were declared`,
    type !== declared.contentType && `its Content-Type is ${type || 'missing'}, ${declared.contentType} was declared`,
  ].filter((p): p is string => !!p);
}

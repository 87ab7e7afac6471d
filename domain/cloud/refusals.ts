import { CheckConstraintViolationException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict } from '../../lib/errors';

/** The drive's conflicts (409) that several use cases answer. */

/** A rename onto a name taken in the folder: renames never rename silently. */
export const nameTaken = (name: string) => conflict('name_taken', `"${name}" already exists in this folder`);

/**
 * A creation that lost the race for a free name to concurrent creations in the same folder every time it
 * tried (numbering retries exhausted): 409 `name_taken`; trying again numbers it.
 */
export const noFreeName = (name: string) =>
  conflict(
    'name_taken',
    `No free name for "${name}" in this folder: concurrent creations took each one tried; try again`,
  );

export const folderCycle = () => conflict('folder_cycle', 'A folder cannot move into itself or one of its subfolders');

/** Maps the database's refusals of a move to problems. */
export function moveRefusal(err: unknown): Error {
  if (err instanceof UniqueConstraintViolationException)
    return conflict(
      'name_taken',
      'An item of the same name already exists in the target folder (or two moved items share a name); rename first',
    );
  if (err instanceof CheckConstraintViolationException) return folderCycle();
  return err as Error;
}

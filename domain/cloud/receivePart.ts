import type { Readable } from 'node:stream';
import { conflict, tooLarge } from '../../lib/errors';
import type { StoredPart } from '../../lib/storage';
import type { LocalStorage, SignedPart } from '../../lib/storage/local';
import type { Services } from '../services';
import { partLength } from './multipartRules';
import { uploadOfKey } from './objectKeys';
import { pendingPartUpload } from './store/uploads';

const notPending = () =>
  conflict('upload_not_pending', 'This part address is no longer in use: its upload was completed, aborted or expired');

/**
 * A part PUT to a signed part address of the local adapter (S3 takes its UploadPart itself): taken only while its
 * resumable upload is pending (409 `upload_not_pending`), of at most the part's exact length (413; fewer bytes are
 * stored, and refused at completion). A part PUT again replaces the earlier one. Answers the stored part (its ETag).
 */
export async function receivePart(
  services: Services,
  storage: LocalStorage,
  key: string,
  signed: SignedPart,
  body: Readable,
  length: number | undefined,
): Promise<StoredPart> {
  const upload = uploadOfKey(key);
  const pending = upload
    ? await pendingPartUpload(services.orm.em.fork(), { ...upload, multipartId: signed.multipartId })
    : null;
  if (!pending) throw notPending();
  const maxBytes = Math.min(signed.size ?? Infinity, partLength(signed.partNumber, pending.size, pending.partSize));
  if ((length ?? 0) > maxBytes) throw tooLarge('payload_too_large', `This part takes at most ${maxBytes} bytes`);
  const part = await storage.putPart(key, signed.multipartId, signed.partNumber, body, maxBytes);
  if (!part) throw notPending();
  return part;
}

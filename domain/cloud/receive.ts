import type { Readable } from 'node:stream';
import { conflict, tooLarge } from '../../lib/errors';
import type { LocalStorage } from '../../lib/storage/local';
import type { Services } from '../services';
import { uploadOfKey } from './objectKeys';
import { fileAtKey } from './store/nodes';
import { pendingSize } from './store/uploads';

export interface ReceivedObject {
  /** Content-Type of the PUT (the signed one when the address carries one). */
  contentType?: string;
  /** Content-Length of the PUT, when it sent one. */
  length?: number;
  /** Most bytes the address takes (its signed size, or the adapter's bound). */
  maxBytes: number;
}

const notPending = () =>
  conflict(
    'upload_not_pending',
    'This upload address is no longer in use: its upload was confirmed, discarded or expired',
  );

/**
 * A PUT to a signed address of the local adapter (S3 takes its PUTs itself, see ObjectStorage.uploadsAreFinal).
 * The address writes one object and never replaces one (409 `object_exists`), of at most `maxBytes` (413). The
 * address of a cloud upload also takes its bytes only while the upload is pending (409 `upload_not_pending`
 * once it was confirmed, discarded or expired) and never more than were declared: what the quota reserved is
 * what is stored.
 */
export async function receiveLocalPut(
  services: Services,
  storage: LocalStorage,
  key: string,
  body: Readable,
  props: ReceivedObject,
): Promise<void> {
  const upload = uploadOfKey(key);
  const declared = upload ? await pendingSize(services.orm.em.fork(), upload) : undefined;
  if (declared === null) throw notPending();
  const maxBytes = Math.min(props.maxBytes, declared ?? props.maxBytes);
  if ((props.length ?? 0) > maxBytes)
    throw tooLarge('payload_too_large', `This address takes at most ${maxBytes} bytes`);
  if (!(await storage.putNew(key, body, props.contentType, maxBytes))) {
    throw conflict(
      'object_exists',
      'This address already received its object: confirm the upload (or start a new one)',
    );
  }
  if (!upload) return;
  // A discard (a refused confirmation, the sweep) deletes the object while it holds the upload's row: asked again
  // behind that lock, an upload gone without its file means the object written meanwhile belongs to nobody.
  if ((await pendingSize(services.orm.em.fork(), upload, true)) !== null) return;
  if (await fileAtKey(services.orm.em.fork(), upload.tenantId, upload.id, key)) return;
  await storage.remove(key);
  throw notPending();
}

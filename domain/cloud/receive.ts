import type { Readable } from 'node:stream';
import { conflict, tooLarge } from '../../lib/errors';
import type { LocalStorage } from '../../lib/storage/local';
import type { Services } from '../services';
import { isUuid } from './names';
import { objectKeyFor } from './uploads';

export interface ReceivedObject {
  /** Content-Type of the PUT (the signed one when the address carries one). */
  contentType?: string;
  /** Content-Length of the PUT, when it sent one. */
  length?: number;
  /** Most bytes the address takes (its signed size, or the adapter's bound). */
  maxBytes: number;
}

interface UploadKey {
  tenantId: string;
  id: string;
  key: string;
}

/** The upload a key is the address of (`<tenantId>/files/<uploadId>`, see objectKeyFor), or null. */
function uploadOfKey(key: string): UploadKey | null {
  const [tenantId, , id] = key.split('/');
  return isUuid(tenantId ?? '') && isUuid(id ?? '') && objectKeyFor(tenantId, id) === key ? { tenantId, id, key } : null;
}

/** The declared size of the upload while it is pending, else null; `for share` waits for a discard holding the row. */
async function pendingSize(services: Services, upload: UploadKey, lock = ''): Promise<number | null> {
  const rows = await services.orm.em
    .fork()
    .execute<{ size: string }[]>(`select size from cloud_uploads where id = ? and tenant_id = ? and object_key = ? and expires_at > now() ${lock}`, [upload.id, upload.tenantId, upload.key]);
  return rows.length ? Number(rows[0].size) : null;
}

const notPending = () => conflict('upload_not_pending', 'This upload address is no longer in use: its upload was confirmed, discarded or expired');

/**
 * A PUT to a signed address of the local adapter (S3 takes its PUTs itself, see ObjectStorage.uploadsAreFinal).
 * The address writes one object and never replaces one (409 `object_exists`), of at most `maxBytes` (413). The
 * address of a cloud upload also takes its bytes only while the upload is pending (409 `upload_not_pending`
 * once it was confirmed, discarded or expired) and never more than were declared: what the quota reserved is
 * what is stored.
 */
export async function receiveLocalPut(services: Services, storage: LocalStorage, key: string, body: Readable, props: ReceivedObject): Promise<void> {
  const upload = uploadOfKey(key);
  const declared = upload ? await pendingSize(services, upload) : undefined;
  if (declared === null) throw notPending();
  const maxBytes = Math.min(props.maxBytes, declared ?? props.maxBytes);
  if ((props.length ?? 0) > maxBytes) throw tooLarge('payload_too_large', `This address takes at most ${maxBytes} bytes`);
  if (!(await storage.putNew(key, body, props.contentType, maxBytes))) {
    throw conflict('object_exists', 'This address already received its object: confirm the upload (or start a new one)');
  }
  if (!upload) return;
  // A discard (a refused confirmation, the sweep) deletes the object while it holds the upload's row: asked again
  // behind that lock, an upload gone without its file means the object written meanwhile belongs to nobody.
  if ((await pendingSize(services, upload, 'for share')) !== null) return;
  const confirmed = await services.orm.em.fork().execute(`select 1 from cloud_nodes where id = ? and tenant_id = ? and object_key = ?`, [upload.id, upload.tenantId, key]);
  if (confirmed.length) return;
  await storage.remove(key);
  throw notPending();
}

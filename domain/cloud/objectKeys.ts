import { isUuid } from './names';

/** Object keys are the server's: nothing of a request (a name, a path) reaches them. */

/** The key an upload's bytes are PUT to: `<tenantId>/files/<uploadId>`. */
export const objectKeyFor = (tenantId: string, id: string) => `${tenantId}/files/${id}`;

/**
 * The key a confirmed file is stored at: its upload key where uploads are final (the local adapter refuses a
 * second PUT), else (S3) a key of its own the checked object is copied to, which no upload address can reach.
 */
export const fileKeyOf = (uploadsAreFinal: boolean, tenantId: string, upload: { id: string; objectKey: string }) =>
  uploadsAreFinal ? upload.objectKey : `${tenantId}/stored/${upload.id}`;

export interface UploadKey {
  tenantId: string;
  id: string;
  key: string;
}

/** The upload a key is the address of (exactly `<tenantId>/files/<uploadId>`, see objectKeyFor), or null. */
export function uploadOfKey(key: string): UploadKey | null {
  const [tenantId, , id] = key.split('/');
  return isUuid(tenantId ?? '') && isUuid(id ?? '') && objectKeyFor(tenantId, id) === key
    ? { tenantId, id, key }
    : null;
}

import { newId } from '../../entities/base';
import { DRIVE_PURPOSE } from '../../entities/cloud/node';
import type { TenantContext } from '../context';
import { mediaType, sanitizeName } from './names';
import { objectKeyFor } from './objectKeys';
import { quotaBytesOf, quotaRefusal } from './quota';
import { lockFolder } from './store/nodes';
import { reserveAndRecordUpload } from './store/uploads';
import { checkDeclaredUpload } from './uploadRules';

/** Time a confirmation may still come after the upload address expired (a PUT started just before may end). */
const CONFIRM_GRACE_SECONDS = 600;

export interface StartUploadProps {
  /** File name shown to members (sanitised; never part of the object key). */
  name: string;
  /** Exact byte count the client will PUT; checked at confirmation. */
  size: number;
  /** Media type the client will send as Content-Type; checked at confirmation. */
  contentType: string;
  /** Drive folder the file lands in (purpose `file` only); root when absent. */
  folderId?: string | null;
  /** `file` (default): a file of the drive. Another module's key (`asset`, `image` ...): a file hidden from the drive, counted in the quota. */
  purpose?: string;
  /** The live file of the drive whose content the upload replaces (startOverwrite); its confirmation keeps the previous content as a version. */
  replacesId?: string;
}

/** A reserved upload: what its confirmation and its clean-up need. */
export interface ReservedUpload {
  id: string;
  size: number;
  contentType: string;
  objectKey: string;
  expiresAt: Date;
}

/** How a resumable upload's reservation differs from a single PUT's (startResumableUpload). */
export interface ReserveOptions {
  /** Largest size it may declare (default CLOUD_MAX_UPLOAD_BYTES). */
  maxBytes: number;
  /** Seconds from now until it expires (default CLOUD_UPLOAD_TTL_SECONDS and the confirmation's grace). */
  ttlSeconds: number;
  /** Where its object is assembled (default the upload key objectKeyFor). */
  objectKey: (tenantId: string, id: string) => string;
  /** Its part size, recorded with it. */
  partSize: number;
}

/**
 * Step 1 without the address: checks the declared file, then reserves its bytes in the quota and records
 * the upload in one statement (409 `quota_exceeded` when they do not fit).
 */
export async function reserveUpload(
  ctx: TenantContext,
  props: StartUploadProps,
  options?: ReserveOptions,
): Promise<ReservedUpload> {
  const { config } = ctx.services;
  const purpose = props.purpose ?? DRIVE_PURPOSE;
  checkDeclaredUpload(
    { size: props.size, folderId: props.folderId, purpose },
    options?.maxBytes ?? config.CLOUD_MAX_UPLOAD_BYTES,
  );
  const name = sanitizeName(props.name);
  const [quota, parentId] = await Promise.all([
    quotaBytesOf(ctx.services, ctx.tenantId),
    lockFolder(ctx.em, ctx.tenantId, props.folderId),
  ]);
  const id = newId();
  const ttl = options?.ttlSeconds ?? config.CLOUD_UPLOAD_TTL_SECONDS + CONFIRM_GRACE_SECONDS;
  const upload: ReservedUpload = {
    id,
    size: props.size,
    contentType: mediaType(props.contentType),
    objectKey: (options?.objectKey ?? objectKeyFor)(ctx.tenantId, id),
    expiresAt: new Date(Date.now() + ttl * 1000),
  };
  const reserved = await reserveAndRecordUpload(
    ctx.em,
    {
      ...upload,
      tenantId: ctx.tenantId,
      userId: ctx.userId,
      purpose,
      parentId,
      name,
      replacesId: props.replacesId ?? null,
      partSize: options?.partSize ?? null,
    },
    quota,
  );
  if (!reserved) throw await quotaRefusal(ctx, props.size, quota);
  return upload;
}

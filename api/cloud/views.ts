import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsObject, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import { fileCategories, nodeKinds } from '../../entities/cloud/node';
import { sharePermissions, shareKinds, type CloudShare, type SharePermission } from '../../entities/cloud/share';
import type { OpenedShare } from '../../domain/cloud/openShare';
import type { SharedFolderPage } from '../../domain/cloud/browseShare';
import type { CloudItem } from '../../domain/cloud/items';
import type { SharedWithMe } from '../../domain/cloud/listSharedWithMe';
import type { TrashEntry } from '../../domain/cloud/listTrash';
import type { QuotaReport } from '../../domain/cloud/quota';
import type { StartedUpload } from '../../domain/cloud/uploads';
import type { StartedResumableUpload } from '../../domain/cloud/startResumableUpload';
import type { PartAddress } from '../../domain/cloud/partAddresses';
import type { ResumableUploadState } from '../../domain/cloud/describeResumableUpload';
import { PENDING_UPLOADS_LISTED, type PendingUpload } from '../../domain/cloud/listResumableUploads';
import type { ListedVersion } from '../../domain/cloud/store/versions';
import { mapPage, type Page } from '../../lib/pagination';
import { iso, isoTime } from '../http/present';
import {
  cloudDownloadUrlViewInlineUrlDoc,
  cloudDownloadUrlViewUrlDoc,
  cloudQuotaViewOverQuotaDoc,
  cloudSharedFileViewUrlDoc,
  cloudSharedFileViewUploadUrlDoc,
  cloudShareViewPermissionDoc,
  cloudTenantDownloadUrlViewUrlDoc,
} from './views.docs';

/** Presenters of the cloud routes. */

export class CloudItemView {
  @IsUUID() id!: string;
  @IsIn(nodeKinds) type!: string;
  @IsString() name!: string;
  @JSONSchema({ description: 'The folder holding it; null at the root' })
  @Nullable()
  @IsUUID()
  parentId!: string | null;
  @JSONSchema({ description: 'Bytes (0 for a folder)' })
  @IsInt()
  size!: number;
  @Nullable() @IsString() contentType!: string | null;
  @JSONSchema({ description: 'What a file is (null for a folder)' })
  @Nullable()
  @IsIn(fileCategories)
  category!: string | null;
  @Nullable() @IsString() description!: string | null;
  @JSONSchema({ description: 'Starred by the caller' })
  @IsBoolean()
  starred!: boolean;
  @JSONSchema({ description: 'A thumbnail of the current content is ready: GET /api/cloud/files/{id}/preview-url' })
  @IsBoolean()
  hasPreview!: boolean;
  @Nullable() @IsUUID() createdBy!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;
  @Nullable() @IsDateString() trashedAt!: string | null;

  static from(i: CloudItem): CloudItemView {
    return {
      id: i.id,
      type: i.kind,
      name: i.name,
      parentId: i.parentId,
      size: i.size,
      contentType: i.contentType,
      category: i.category,
      description: i.description,
      starred: i.starred,
      hasPreview: i.hasPreview,
      createdBy: i.createdBy,
      createdAt: isoTime(i.createdAt),
      updatedAt: isoTime(i.updatedAt),
      trashedAt: iso(i.trashedAt),
    };
  }
}

export class CloudItemPageView {
  @ValidateNested({ each: true }) @Type(() => CloudItemView) items!: CloudItemView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<CloudItem>): CloudItemPageView {
    return mapPage(page, CloudItemView.from);
  }
}

export class CloudFolderContentsView extends CloudItemPageView {
  @JSONSchema({ description: 'The folder listed; null for the root' })
  @Nullable()
  @ValidateNested()
  @Type(() => CloudItemView)
  folder!: CloudItemView | null;

  static fromContents({ folder, page }: { folder: CloudItem | null; page: Page<CloudItem> }): CloudFolderContentsView {
    return { folder: folder && CloudItemView.from(folder), ...CloudItemPageView.from(page) };
  }
}

export class CloudTrashItemView extends CloudItemView {
  @JSONSchema({
    description: 'When the retention purge deletes it for good (CLOUD_TRASH_RETENTION_DAYS after trashedAt)',
  })
  @IsDateString()
  purgeAt!: string;
}

export class CloudTrashPageView {
  @ValidateNested({ each: true }) @Type(() => CloudTrashItemView) items!: CloudTrashItemView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<TrashEntry>): CloudTrashPageView {
    return mapPage(page, (e) => ({ ...CloudItemView.from(e), purgeAt: isoTime(e.purgeAt) }));
  }
}

export class CloudCrumbView {
  @IsUUID() id!: string;
  @IsString() name!: string;
}

export class CloudBreadcrumbView {
  @JSONSchema({ description: 'From the top-level folder down to the folder itself (the root is implied)' })
  @ValidateNested({ each: true })
  @Type(() => CloudCrumbView)
  items!: CloudCrumbView[];
}

export class CloudUploadTicketView {
  @JSONSchema({ description: 'Confirm with it; it becomes the id of a new file (a replaced file keeps its own)' })
  @IsUUID()
  uploadId!: string;
  @JSONSchema({ description: 'PUT the bytes here, straight to the object store, with the headers below' })
  @IsString()
  url!: string;
  @IsIn(['PUT']) method!: string;
  @JSONSchema({
    description: 'Headers the PUT must send (Content-Type as declared)',
    additionalProperties: { type: 'string' },
  })
  @IsObject()
  headers!: Record<string, string>;
  @JSONSchema({ description: 'The address accepts the PUT until then' })
  @IsDateString()
  expiresAt!: string;
  @JSONSchema({ description: 'Confirm before then; afterwards the reservation is released and the object deleted' })
  @IsDateString()
  confirmBy!: string;

  static from(u: StartedUpload): CloudUploadTicketView {
    return {
      uploadId: u.uploadId,
      url: u.url,
      method: u.method,
      headers: u.headers,
      expiresAt: isoTime(u.expiresAt),
      confirmBy: isoTime(u.confirmBy),
    };
  }
}

export class CloudDownloadUrlView {
  @JSONSchema({ description: cloudDownloadUrlViewUrlDoc })
  @IsString()
  url!: string;
  @JSONSchema({ description: cloudDownloadUrlViewInlineUrlDoc })
  @IsString()
  inlineUrl!: string;
  @IsDateString() expiresAt!: string;
}

export class CloudPreviewUrlView {
  @JSONSchema({
    description:
      'Address of the thumbnail (image/webp), valid until expiresAt; it redirects to the storage address at every use, so a thumbnail of a file trashed since is no longer served',
  })
  @IsString()
  url!: string;
  @JSONSchema({ description: 'Pixels of the thumbnail (at most 512 on its longest side, never larger than the image)' })
  @IsInt()
  width!: number;
  @IsInt() height!: number;
  @IsDateString() expiresAt!: string;
}

export class CloudTenantDownloadUrlView {
  @JSONSchema({ description: cloudTenantDownloadUrlViewUrlDoc })
  @IsString()
  url!: string;
  @IsDateString() expiresAt!: string;
  @IsInt() size!: number;
  @Nullable() @IsString() contentType!: string | null;
}

export class CloudShareView {
  @IsUUID() id!: string;
  @JSONSchema({ description: 'The shared file; null for a drop folder (folderId)' })
  @Nullable()
  @IsUUID()
  fileId!: string | null;
  @JSONSchema({ description: 'The shared folder (a drop folder or a view link); null for a file share' })
  @Nullable()
  @IsUUID()
  folderId!: string | null;
  @IsIn(shareKinds) kind!: string;
  @JSONSchema({ description: cloudShareViewPermissionDoc })
  @IsIn(sharePermissions)
  permission!: string;
  @JSONSchema({
    description: 'Link shares: the address, in the creation answer only (only a hash of its token is stored)',
  })
  @Nullable()
  @IsString()
  url!: string | null;
  @IsBoolean() passwordProtected!: boolean;
  @Nullable() @IsDateString() expiresAt!: string | null;
  @IsUUID('all', { each: true }) memberIds!: string[];
  @Nullable() @IsUUID() createdBy!: string | null;
  @IsDateString() createdAt!: string;
  @Nullable() @IsDateString() revokedAt!: string | null;

  static from(s: CloudShare, url: string | null = null): CloudShareView {
    const folder = s.nodeKind === 'folder';
    return {
      id: s.id,
      fileId: folder ? null : s.nodeId,
      folderId: folder ? s.nodeId : null,
      kind: s.kind,
      permission: s.permission,
      url,
      passwordProtected: !!s.passwordHash,
      expiresAt: iso(s.expiresAt),
      memberIds: s.memberIds,
      createdBy: s.createdBy ?? null,
      createdAt: isoTime(s.createdAt),
      revokedAt: iso(s.revokedAt),
    };
  }
}

export class CloudShareListView {
  @ValidateNested({ each: true }) @Type(() => CloudShareView) items!: CloudShareView[];
}

export class CloudSharedFileView {
  @JSONSchema({ description: 'A file, or a folder (a drop folder, or a view link that lists it)' })
  @IsIn(['file', 'folder'])
  kind!: 'file' | 'folder';
  @IsIn(sharePermissions) permission!: SharePermission;
  @JSONSchema({ description: "The file's name, or the drop folder's" })
  @IsString()
  name!: string;
  @JSONSchema({ description: 'Files only (null for a drop folder)' })
  @Nullable()
  @IsInt()
  size!: number | null;
  @Nullable() @IsString() contentType!: string | null;
  @JSONSchema({ description: cloudSharedFileViewUrlDoc })
  @Nullable()
  @IsString()
  url!: string | null;
  @JSONSchema({ description: cloudSharedFileViewUploadUrlDoc })
  @Nullable()
  @IsString()
  uploadUrl!: string | null;
  @JSONSchema({
    description:
      'Folder view links: the listing of the shared folder (GET; add `&folderId=` for a folder inside it); null otherwise',
  })
  @Nullable()
  @IsString()
  listUrl!: string | null;
  @IsDateString() expiresAt!: string;

  static from(s: OpenedShare): CloudSharedFileView {
    return { ...s, expiresAt: isoTime(s.expiresAt) };
  }
}

export class CloudSharedItemView {
  @IsUUID() id!: string;
  @IsIn(['file', 'folder']) kind!: 'file' | 'folder';
  @IsString() name!: string;
  @JSONSchema({ description: 'Bytes (files; 0 for folders)' }) @IsInt() size!: number;
  @Nullable() @IsString() contentType!: string | null;
  @IsDateString() updatedAt!: string;
  @JSONSchema({
    description: "Files: this app's address of the bytes, valid as long as the link's t; null for folders",
  })
  @Nullable()
  @IsString()
  downloadUrl!: string | null;
}

export class CloudSharedFolderPageView {
  @ValidateNested() @Type(() => CloudCrumbView) folder!: CloudCrumbView;
  @JSONSchema({ description: 'From the shared folder down to the folder listed' })
  @ValidateNested({ each: true })
  @Type(() => CloudCrumbView)
  path!: CloudCrumbView[];
  @ValidateNested({ each: true }) @Type(() => CloudSharedItemView) items!: CloudSharedItemView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from({ folder, path, page }: SharedFolderPage): CloudSharedFolderPageView {
    return {
      folder,
      path,
      items: page.items.map((i) => ({ ...i, updatedAt: isoTime(i.updatedAt) })),
      nextCursor: page.nextCursor,
    };
  }
}

export class CloudQuotaView {
  @JSONSchema({ description: "The tier's quota (entitlement limit cloudQuotaBytes)" })
  @IsInt()
  quotaBytes!: number;
  @JSONSchema({ description: 'Bytes stored, trash included, plus usage reported by other modules' })
  @IsInt()
  usedBytes!: number;
  @JSONSchema({ description: 'Bytes reserved by uploads in progress' })
  @IsInt()
  reservedBytes!: number;
  @IsInt() availableBytes!: number;
  @JSONSchema({ description: 'Bytes of files in the trash (part of usedBytes until purged)' })
  @IsInt()
  trashBytes!: number;
  @JSONSchema({ description: cloudQuotaViewOverQuotaDoc })
  @IsBoolean()
  overQuota!: boolean;
  @JSONSchema({
    description: 'Stored bytes by file category (image, video, document ...)',
    additionalProperties: { type: 'integer' },
  })
  @IsObject()
  byType!: Record<string, number>;

  static from(q: QuotaReport): CloudQuotaView {
    return { ...q };
  }
}

export class CloudUsageAcceptedView {
  @IsString() eventId!: string;
  @JSONSchema({ description: 'queued: applied by the quota queue shortly (once per eventId)' })
  @IsIn(['queued'])
  status!: string;
}

export class CloudVersionView {
  @IsUUID() id!: string;
  @JSONSchema({ description: 'Bytes of this content (counted in the quota until the version is deleted)' })
  @IsInt()
  size!: number;
  @Nullable() @IsString() contentType!: string | null;
  @JSONSchema({ description: 'The member who wrote this content; null when unknown' })
  @Nullable()
  @IsUUID()
  authorId!: string | null;
  @JSONSchema({ description: 'When this content was written' })
  @IsDateString()
  created!: string;
  @JSONSchema({ description: 'When a newer content replaced it (it became a version)' })
  @IsDateString()
  replacedAt!: string;
  @JSONSchema({
    description:
      'SHA-256 of the bytes (hex) when they passed through the server (WebDAV PUT); null for bytes uploaded straight to storage',
  })
  @Nullable()
  @IsString()
  contentHash!: string | null;

  static from(v: ListedVersion): CloudVersionView {
    return {
      id: v.id,
      size: v.size,
      contentType: v.contentType,
      authorId: v.authorId,
      created: isoTime(v.contentAt),
      replacedAt: isoTime(v.createdAt),
      contentHash: v.contentHash,
    };
  }
}

export class CloudVersionListView {
  @JSONSchema({ description: 'The most recently replaced first' })
  @ValidateNested({ each: true })
  @Type(() => CloudVersionView)
  items!: CloudVersionView[];

  static from(versions: ListedVersion[]): CloudVersionListView {
    return { items: versions.map(CloudVersionView.from) };
  }
}

export class CloudSharedWithMeView {
  @ValidateNested() @Type(() => CloudItemView) item!: CloudItemView;
  @JSONSchema({ description: 'The member whose share (the latest naming the caller) put it here; null when unknown' })
  @Nullable()
  @IsUUID()
  sharedBy!: string | null;
  @JSONSchema({ description: 'When that share was made' })
  @IsDateString()
  sharedAt!: string;
}

export class CloudSharedWithMePageView {
  @ValidateNested({ each: true }) @Type(() => CloudSharedWithMeView) items!: CloudSharedWithMeView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<SharedWithMe>): CloudSharedWithMePageView {
    return mapPage(page, (e) => ({
      item: CloudItemView.from(e.item),
      sharedBy: e.sharedBy,
      sharedAt: isoTime(e.sharedAt),
    }));
  }
}

export class CloudResumableUploadView {
  @JSONSchema({ description: 'Names the upload in its routes; it becomes the id of the file' })
  @IsUUID()
  uploadId!: string;
  @JSONSchema({ description: 'Bytes of every part but the last, which holds what remains' })
  @IsInt()
  partSize!: number;
  @JSONSchema({ description: 'Parts of the file, numbered 1 to partCount' })
  @IsInt()
  partCount!: number;
  @JSONSchema({ description: 'Complete it before then; afterwards it is aborted and its reservation released' })
  @IsDateString()
  expiresAt!: string;

  static from(u: StartedResumableUpload): CloudResumableUploadView {
    return { uploadId: u.uploadId, partSize: u.partSize, partCount: u.partCount, expiresAt: isoTime(u.expiresAt) };
  }
}

export class CloudPartUrlView {
  @IsInt() partNumber!: number;
  @JSONSchema({ description: 'PUT the part here (raw bytes), straight to the object store; its answer has the ETag' })
  @IsString()
  url!: string;
  @IsIn(['PUT']) method!: string;
  @JSONSchema({ description: 'Exact bytes of this part' })
  @IsInt()
  size!: number;
  @JSONSchema({ description: 'The address accepts the PUT until then' })
  @IsDateString()
  expiresAt!: string;
}

export class CloudPartUrlListView {
  @JSONSchema({ description: 'By part number' })
  @ValidateNested({ each: true })
  @Type(() => CloudPartUrlView)
  parts!: CloudPartUrlView[];

  static from(parts: PartAddress[]): CloudPartUrlListView {
    return { parts: parts.map((p) => ({ ...p, expiresAt: isoTime(p.expiresAt) })) };
  }
}

export class CloudUploadedPartView {
  @IsInt() partNumber!: number;
  @JSONSchema({ description: "The stored part's ETag (no quotes)" })
  @IsString()
  etag!: string;
  @IsInt() size!: number;
}

export class CloudPendingUploadView {
  @IsUUID() uploadId!: string;
  @IsString() name!: string;
  @IsInt() size!: number;
  @IsString() contentType!: string;
  @JSONSchema({ description: 'The folder the file lands in; null: the root' })
  @Nullable()
  @IsUUID()
  folderId!: string | null;
  @IsInt() partSize!: number;
  @IsDateString() createdAt!: string;
  @IsDateString() expiresAt!: string;

  static from(u: PendingUpload): CloudPendingUploadView {
    return { ...u, createdAt: isoTime(u.createdAt), expiresAt: isoTime(u.expiresAt) };
  }
}

export class CloudPendingUploadListView {
  @JSONSchema({
    description: `The caller's pending resumable uploads, newest first (at most ${PENDING_UPLOADS_LISTED})`,
  })
  @ValidateNested({ each: true })
  @Type(() => CloudPendingUploadView)
  items!: CloudPendingUploadView[];

  static from(items: PendingUpload[]): CloudPendingUploadListView {
    return { items: items.map(CloudPendingUploadView.from) };
  }
}

export class CloudResumableUploadStateView {
  @IsUUID() uploadId!: string;
  @IsString() name!: string;
  @IsInt() size!: number;
  @IsString() contentType!: string;
  @JSONSchema({ description: 'The folder the file lands in; null: the root' })
  @Nullable()
  @IsUUID()
  folderId!: string | null;
  @IsInt() partSize!: number;
  @IsInt() partCount!: number;
  @IsDateString() expiresAt!: string;
  @JSONSchema({ description: 'The parts the store holds, by part number: complete with these' })
  @ValidateNested({ each: true })
  @Type(() => CloudUploadedPartView)
  parts!: CloudUploadedPartView[];
  @JSONSchema({ description: 'Numbers of the parts not uploaded yet' })
  @IsInt({ each: true })
  missingParts!: number[];
  @JSONSchema({ description: 'Bytes of the parts held' })
  @IsInt()
  uploadedBytes!: number;

  static from(u: ResumableUploadState): CloudResumableUploadStateView {
    return { ...u, expiresAt: isoTime(u.expiresAt) };
  }
}

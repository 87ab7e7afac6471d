import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsInstant, Length, MaxLength } from '../http/dtos';
import { DESCRIPTION_LENGTH, fileCategories, NAME_LENGTH } from '../../entities/cloud/node';
import { sharePermissions, shareKinds, type SharePermission, type ShareKind } from '../../entities/cloud/share';
import { sortKeys, type SortKey } from '../../domain/cloud/store/items';
import { documentTypes, type DocumentType } from '../../domain/cloud/odf';
import { MAX_PARTS } from '../../domain/cloud/multipartRules';
import { cloudShareBodyKindDoc, cloudUploadUrlBodyNameDoc } from './dtos.docs';

/** Request bodies, queries and path parameters of the cloud routes. Unknown fields are refused. */

const MAX_BULK = 500;
/** Media types: type/subtype with optional parameters (RFC 6838 characters). */
const MEDIA_TYPE = /^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]{0,126}\/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]{0,126}$/;

/** What a new file of the drive is named and where it lands, for either way of uploading it. */
class CloudNewFileFields {
  @JSONSchema({ description: cloudUploadUrlBodyNameDoc })
  @IsString()
  @Length(1, NAME_LENGTH)
  name!: string;
  @JSONSchema({
    description: 'Folder the file lands in; root when absent or null',
    type: ['string', 'null'],
    format: 'uuid',
  })
  @IsOptional()
  @IsUUID()
  folderId?: string | null;
}

export class CloudUploadUrlBody extends CloudNewFileFields {
  @JSONSchema({
    description: 'Exact size in bytes the PUT will carry (checked at confirmation); at most CLOUD_MAX_UPLOAD_BYTES',
  })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  size!: number;
  @JSONSchema({ description: 'Media type the PUT will send as Content-Type (checked at confirmation), e.g. image/png' })
  @Matches(MEDIA_TYPE, { message: 'contentType must be a media type such as image/png' })
  contentType!: string;
}

export class CloudUploadConfirmBody {
  @JSONSchema({ description: 'uploadId of the upload-url answer' }) @IsUUID() uploadId!: string;
}

export class CloudEditNodeBody {
  @IsOptional() @IsString() @Length(1, NAME_LENGTH) name?: string;
  @JSONSchema({ description: 'Free text (null clears it)', type: ['string', 'null'], maxLength: DESCRIPTION_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(DESCRIPTION_LENGTH)
  description?: string | null;
}

export class CloudMoveBody {
  @JSONSchema({ description: 'Target folder; null moves to the root', type: ['string', 'null'], format: 'uuid' })
  @IsOptional()
  @IsUUID()
  folderId?: string | null;
}

export class CloudBulkDeleteBody {
  @JSONSchema({ description: `Files to trash (at most ${MAX_BULK})` })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_BULK)
  @IsUUID('all', { each: true })
  fileIds?: string[];
  @JSONSchema({ description: `Folders to trash with their subtrees (at most ${MAX_BULK})` })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_BULK)
  @IsUUID('all', { each: true })
  folderIds?: string[];
}

export class CloudBulkMoveBody extends CloudBulkDeleteBody {
  @JSONSchema({ description: 'Target folder; null moves to the root', type: ['string', 'null'], format: 'uuid' })
  @IsOptional()
  @IsUUID()
  folderId?: string | null;
}

export class CloudStarBody {
  @JSONSchema({ description: 'true stars, false unstars (for the calling member)' }) @IsBoolean() starred!: boolean;
}

export class CloudShareBody {
  @JSONSchema({ description: cloudShareBodyKindDoc })
  @IsIn(shareKinds)
  kind!: ShareKind;
  @JSONSchema({ description: 'Link shares: the link answers 410 after this time (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  expiresAt?: string;
  @JSONSchema({ description: 'Link shares: the password needed to open the link (8-128 characters)' })
  @IsOptional()
  @IsString()
  @Length(8, 128)
  password?: string;
  @JSONSchema({ description: 'Member shares: user ids of members of the organisation (1-100)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  memberIds?: string[];
  @JSONSchema({
    description:
      'Link shares: `view` (default) downloads the file; `edit` also replaces its content (PUT .../content; the previous content is kept as a version). Member shares are `view`. Drop folders (`upload`) are shares of folders: POST /api/cloud/folders/{id}/share',
  })
  @IsOptional()
  @IsIn(sharePermissions)
  permission?: SharePermission;
}

export class CloudEditShareBody {
  @JSONSchema({
    description:
      'Link shares: a new expiry (ISO 8601, in the future), or null for none; its creator is mailed again before it',
    type: ['string', 'null'],
    format: 'date-time',
  })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  expiresAt?: string | null;
  @JSONSchema({
    description:
      'Link shares: a new password (8-128 characters), or null to remove it; addresses opened with the former one stop working',
    type: ['string', 'null'],
  })
  @IsOptional()
  @IsString()
  @Length(8, 128)
  password?: string | null;
  @JSONSchema({
    description:
      'Links to files: `view` or `edit`, from the next use of the link on (a drop folder link stays `upload`; member shares are `view`)',
  })
  @IsOptional()
  @IsIn(sharePermissions)
  permission?: SharePermission;
  @JSONSchema({
    description: 'Member shares: the members it is shared with from now on (1-100); those added are notified',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsUUID('all', { each: true })
  memberIds?: string[];
}

export class CloudFolderShareBody {
  @JSONSchema({
    description:
      '`upload` (default): a drop folder, the link only puts new files into it; `view`: the link lists the folder and everything below it and downloads its files',
  })
  @IsOptional()
  @IsIn(['upload', 'view'])
  permission?: 'upload' | 'view';
  @JSONSchema({ description: 'The link answers 410 after this time (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  expiresAt?: string;
  @JSONSchema({ description: 'The password needed to open the link (8-128 characters)' })
  @IsOptional()
  @IsString()
  @Length(8, 128)
  password?: string;
}

export class CloudOpenShareBody {
  @JSONSchema({ description: 'The password of a protected link' })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  password?: string;
}

export class CloudCreateFolderBody {
  @JSONSchema({ description: 'A name taken in the folder becomes "name (2)"' })
  @IsString()
  @Length(1, NAME_LENGTH)
  name!: string;
  @JSONSchema({ description: 'Parent folder; root when absent or null', type: ['string', 'null'], format: 'uuid' })
  @IsOptional()
  @IsUUID()
  parentId?: string | null;
}

export class CloudCreateDocumentBody {
  @JSONSchema({ description: 'doc (.odt), sheet (.ods) or slides (.odp)' }) @IsIn(documentTypes) type!: DocumentType;
  @JSONSchema({ description: 'Name (the extension is added); "Untitled document" ... by default' })
  @IsOptional()
  @IsString()
  @Length(1, 250)
  name?: string;
  @JSONSchema({ description: 'Folder; root when absent or null', type: ['string', 'null'], format: 'uuid' })
  @IsOptional()
  @IsUUID()
  folderId?: string | null;
}

export class CloudUsageBody {
  @JSONSchema({ description: 'The organisation whose usage changed' }) @IsUUID() tenantId!: string;
  @JSONSchema({ description: "The reporter's id of this change: an event is applied once, however often it is sent" })
  @Matches(/^[A-Za-z0-9._:-]{1,100}$/, { message: 'eventId must be 1-100 letters, digits, ".", "_", ":" or "-"' })
  eventId!: string;
  @JSONSchema({ description: 'Bytes stored (positive) or freed (negative)' })
  @IsInt()
  @Min(-Number.MAX_SAFE_INTEGER)
  @Max(Number.MAX_SAFE_INTEGER)
  deltaBytes!: number;
  @JSONSchema({ description: 'Category the bytes count under (default image)' })
  @IsOptional()
  @IsIn(fileCategories)
  category?: string;
  @JSONSchema({ description: 'Reporting module, e.g. documents or slides' })
  @Matches(/^[a-z][a-z0-9_-]{0,39}$/, { message: 'source must be a module key' })
  source!: string;
}

/** `?limit=&cursor=` of the cloud lists; cursors are opaque strings (not ids: lists sort by name, size, date). */
export class CloudPageQuery {
  @JSONSchema({ description: 'Page size (default 50, max 200)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number = 50;
  @JSONSchema({ description: 'nextCursor of the previous page' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,2000}$/, { message: 'cursor must be a nextCursor' })
  cursor?: string;
}

export class CloudContentsQuery extends CloudPageQuery {
  @JSONSchema({
    description: 'name (case-insensitive, default), size or date (last change); folders always come first',
  })
  @IsOptional()
  @IsIn(sortKeys)
  sort?: SortKey;
  @IsOptional() @IsIn(['asc', 'desc']) order?: 'asc' | 'desc';
}

export class CloudSearchQuery extends CloudPageQuery {
  @JSONSchema({ description: 'Part of the name, case-insensitive' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  q?: string;
  @JSONSchema({ description: 'folder, or a file category' })
  @IsOptional()
  @IsIn(['folder', ...fileCategories])
  type?: string;
  @JSONSchema({ description: "Search this folder's subtree only" }) @IsOptional() @IsUUID() folderId?: string;
  @JSONSchema({ description: 'Created by this member (user id)' }) @IsOptional() @IsUUID() ownerId?: string;
  @JSONSchema({ description: 'Last changed at or after this time (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  modifiedFrom?: string;
  @JSONSchema({ description: 'Last changed before this time (ISO 8601)' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  modifiedBefore?: string;
  @JSONSchema({ description: 'At least this many bytes (files only: a size bound leaves folders out)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  minSize?: number;
  @JSONSchema({ description: 'At most this many bytes (files only)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  maxSize?: number;
}

/** The t of the drive's addresses (download, inline, a share's download), as the address carries it. */
export class CloudAddressQuery {
  @JSONSchema({ description: 'Signed, expiring token of the address, as given' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  t?: string;
}

export class CloudSharedItemsQuery extends CloudContentsQuery {
  @JSONSchema({ description: 'Signed, expiring token of the address, as given (listUrl)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  t?: string;
  @JSONSchema({ description: 'A folder inside the shared one (default: the shared folder itself)' })
  @IsOptional()
  @IsUUID()
  folderId?: string;
}

export class CloudDropQuery extends CloudAddressQuery {
  @JSONSchema({ description: 'The name of the file put (a name taken in the folder becomes "name (2)")' })
  @IsString()
  @Length(1, NAME_LENGTH)
  name!: string;
}

export class CloudShareParams {
  @IsUUID() id!: string;
  @IsUUID() shareId!: string;
}

export class CloudShareTokenParams {
  @JSONSchema({ description: 'The token of a link share' })
  @Matches(/^[A-Za-z0-9_-]{32}$/, { message: 'token must be a share token' })
  token!: string;
}

export class CloudSharedItemParams extends CloudShareTokenParams {
  @IsUUID() itemId!: string;
}

export class CloudVersionParams {
  @JSONSchema({ description: 'The file' }) @IsUUID() id!: string;
  @JSONSchema({ description: 'One of its versions (GET /api/cloud/files/{id}/versions)' }) @IsUUID() versionId!: string;
}

export class CloudOverwriteUrlBody {
  @JSONSchema({
    description: 'Exact size in bytes the PUT will carry (checked at confirmation); at most CLOUD_MAX_UPLOAD_BYTES',
  })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  size!: number;
  @JSONSchema({ description: 'Media type the PUT will send as Content-Type (checked at confirmation), e.g. image/png' })
  @Matches(MEDIA_TYPE, { message: 'contentType must be a media type such as image/png' })
  contentType!: string;
}

export class CloudResumableUploadBody extends CloudNewFileFields {
  @JSONSchema({
    description:
      'Exact size of the file in bytes (the parts together; checked at completion); at least 1, at most CLOUD_MULTIPART_MAX_BYTES',
  })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  size!: number;
  @JSONSchema({ description: 'Media type of the file, e.g. video/mp4 (the store records it; the parts need none)' })
  @Matches(MEDIA_TYPE, { message: 'contentType must be a media type such as image/png' })
  contentType!: string;
}

/** Most part addresses one request asks for. */
const MAX_PART_URLS = 1000;

export class CloudPartUrlsBody {
  @JSONSchema({
    description: `Numbers of the parts to address (1 to the upload's partCount; 1 to ${MAX_PART_URLS} of them per request)`,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PART_URLS)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX_PARTS, { each: true })
  partNumbers!: number[];
}

export class CloudPartRefBody {
  @IsInt() @Min(1) @Max(MAX_PARTS) partNumber!: number;
  @JSONSchema({ description: 'The ETag header the part PUT answered (with or without its quotes)' })
  @Matches(/^"?[A-Za-z0-9-]{1,128}"?$/, { message: 'etag must be the ETag a part PUT answered' })
  etag!: string;
}

export class CloudCompleteUploadBody {
  @JSONSchema({
    description:
      'Every part, in ascending order, with the ETag its PUT answered; absent: the parts as the store lists them (GET /api/cloud/uploads/{id})',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_PARTS)
  @ValidateNested({ each: true })
  @Type(() => CloudPartRefBody)
  parts?: CloudPartRefBody[];
}

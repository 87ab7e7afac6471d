import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { assetKinds } from '../../../entities/core/asset';
import type { MediaAsset } from '../../../domain/core/org/assets';
import { mapPage, type Page } from '../../../lib/pagination';
import { isoTime } from '../../http/present';
import { assetViewUrlDoc } from './mediaViews.docs';

/** Presenters of the media library. */

export class AssetView {
  @JSONSchema({ description: 'Also the id of its cloud file' }) @IsUUID() id!: string;
  @IsIn(assetKinds) kind!: string;
  @IsString() name!: string;
  @IsInt() size!: number;
  @Nullable() @IsString() contentType!: string | null;
  @Nullable() @IsString() alt!: string | null;
  @JSONSchema({ description: assetViewUrlDoc }) @IsString() url!: string;
  @IsDateString() urlExpiresAt!: string;
  @Nullable() @IsUUID() createdBy!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(m: MediaAsset): AssetView {
    const { asset, node } = m;
    return {
      id: asset.id,
      kind: asset.kind,
      name: node.name,
      size: node.size,
      contentType: node.contentType ?? null,
      alt: asset.alt ?? null,
      url: m.url,
      urlExpiresAt: isoTime(m.urlExpiresAt),
      createdBy: asset.createdBy ?? null,
      createdAt: isoTime(asset.createdAt),
      updatedAt: (node.updatedAt > asset.updatedAt ? node.updatedAt : asset.updatedAt).toISOString(),
    };
  }
}

export class AssetPageView {
  @ValidateNested({ each: true }) @Type(() => AssetView) items!: AssetView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<MediaAsset>): AssetPageView {
    return mapPage(page, AssetView.from);
  }
}

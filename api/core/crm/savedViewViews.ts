import { IsBoolean, IsDateString, IsIn, IsObject, IsString, IsUUID, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { isoTime } from '../../http/present';
import { savedViewResources, type SavedView } from '../../../entities/core/savedView';

/** Presenters of saved views. */
export class SavedViewView {
  @IsUUID() id!: string;
  @IsIn(savedViewResources) resource!: string;
  @IsString() name!: string;
  @JSONSchema({ description: 'Shared with the organisation (else the personal view of ownerId)' })
  @IsBoolean()
  shared!: boolean;
  @Nullable() @IsUUID() ownerId!: string | null;
  @JSONSchema({
    description: 'The list route query parameters it applies',
    type: 'object',
    additionalProperties: { type: ['string', 'array'], items: { type: 'string' } },
  })
  @IsObject()
  filters!: Record<string, unknown>;
  @Nullable() @IsString() sort!: string | null;
  @IsString({ each: true }) columns!: string[];
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(v: SavedView): SavedViewView {
    return {
      id: v.id,
      resource: v.resource,
      name: v.name,
      shared: v.ownerId === null,
      ownerId: v.ownerId ?? null,
      filters: v.filters,
      sort: v.sort ?? null,
      columns: v.columns,
      createdAt: isoTime(v.createdAt),
      updatedAt: isoTime(v.updatedAt),
    };
  }
}

export class SavedViewListView {
  @ValidateNested({ each: true }) @Type(() => SavedViewView) items!: SavedViewView[];
}

import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsUUID,
  Max,
  Min,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { KeysetPageQuery } from '../../http/dtos';
import { mergeFieldsDoc } from './duplicates.docs';

export class DuplicatePairsQuery extends KeysetPageQuery {
  @JSONSchema({ description: 'Only pairs scoring at least this (0-100, default 0)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100)
  minScore?: number;
}

export class MergeBody {
  @JSONSchema({ description: 'The customers merged into this one (soft-deleted, pointing at it)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true })
  from!: string[];
  @JSONSchema({
    description: mergeFieldsDoc,
    type: 'object',
    additionalProperties: { type: 'string', format: 'uuid' },
    maxProperties: 100,
  })
  @IsOptional()
  @IsObject()
  fields?: Record<string, string>;
  @JSONSchema({ description: 'Compute the result and change nothing' })
  @IsOptional()
  @IsBoolean()
  dryRun?: boolean;
}

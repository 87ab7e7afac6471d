import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
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
import { IsCalendarDate, Length } from '../../http/dtos';
import { dealStatuses, type DealStatus } from '../../../entities/core/deal';
import { nullable } from './dtos';
import { updatePipelineBodyStagesDoc } from './dealDtos.docs';

/** Request bodies and queries of pipelines and deals. Unknown fields are refused. */
export class StageBody {
  @JSONSchema({ description: 'An existing stage (kept with its deals); absent for a new one' })
  @IsOptional()
  @IsUUID()
  id?: string;
  @IsString() @Length(1, 120) name!: string;
  @JSONSchema({ description: 'Percent of an open deal amount the forecast counts in this stage' })
  @IsInt()
  @Min(0)
  @Max(100)
  probability!: number;
}

export class CreatePipelineBody {
  @IsString() @Length(1, 120) name!: string;
  @JSONSchema({ description: 'Stages in order (1-30)' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  @Type(() => StageBody)
  stages!: StageBody[];
}

export class UpdatePipelineBody {
  @IsOptional() @IsString() @Length(1, 120) name?: string;
  @JSONSchema({ description: updatePipelineBodyStagesDoc })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(30)
  @ValidateNested({ each: true })
  @Type(() => StageBody)
  stages?: StageBody[];
}

export class BoardQuery {
  @JSONSchema({ description: 'Deals shown per stage (default 50, max 200); counts and sums cover all' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  perStage: number = 50;
}

export class CreateDealBody {
  @IsString() @Length(1, 200) title!: string;
  @IsUUID() customerId!: string;
  @JSONSchema({ description: "The stage it starts in; its pipeline becomes the deal's" })
  @IsUUID()
  stageId!: string;
  @JSONSchema({ description: 'Integer cents' })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  amount!: number;
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code in capitals (EUR)' }) currency!: string;
  @JSONSchema(nullable('A member (default: the creator)'))
  @IsOptional()
  @IsUUID()
  ownerId?: string | null;
  @JSONSchema(nullable('YYYY-MM-DD'))
  @IsOptional()
  @IsCalendarDate()
  expectedCloseDate?: string | null;
  @JSONSchema(nullable('Id in another system (unique per organisation)'))
  @IsOptional()
  @IsString()
  @Length(1, 200)
  externalId?: string | null;
}

export class UpdateDealBody {
  @IsOptional() @IsString() @Length(1, 200) title?: string;
  @IsOptional() @IsUUID() customerId?: string;
  @IsOptional() @IsInt() @Min(0) @Max(Number.MAX_SAFE_INTEGER) amount?: number;
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code in capitals (EUR)' })
  currency?: string;
  @JSONSchema(nullable('A member; null clears'))
  @IsOptional()
  @IsUUID()
  ownerId?: string | null;
  @JSONSchema(nullable('YYYY-MM-DD; null clears'))
  @IsOptional()
  @IsCalendarDate()
  expectedCloseDate?: string | null;
  @JSONSchema(nullable('Id in another system; null clears'))
  @IsOptional()
  @IsString()
  @Length(1, 200)
  externalId?: string | null;
}

export class MoveDealBody {
  @IsUUID() stageId!: string;
}

export class LoseDealBody {
  @IsString() @Length(1, 500) reason!: string;
}

/** The filters of the deal list (a saved view holds the same). */
export class DealFilters {
  @IsOptional() @IsUUID() customerId?: string;
  @IsOptional() @IsUUID() pipelineId?: string;
  @IsOptional() @IsUUID() stageId?: string;
  @IsOptional() @IsUUID() ownerId?: string;
  @IsOptional() @IsIn(dealStatuses) status?: DealStatus;
}

export const dealFilterNames = ['customerId', 'pipelineId', 'stageId', 'ownerId', 'status'] as const;

export class ListDealsQuery extends DealFilters {
  @JSONSchema({ description: 'Page size (default 50, max 200)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number = 50;
  @JSONSchema({ description: 'nextCursor of the previous page' }) @IsOptional() @IsUUID() cursor?: string;
  @JSONSchema({
    description: "A saved view (GET /api/deals/views): its filters apply; a filter given here replaces the view's",
  })
  @IsOptional()
  @IsUUID()
  view?: string;
}

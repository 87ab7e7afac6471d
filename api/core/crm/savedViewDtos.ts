import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Length, MaxLength } from '../../http/dtos';
import { customerSorts, type CustomerSort } from '../../../domain/core/crm/listCustomers';
import { customerColumns, dealColumns, dealSorts } from '../../../domain/core/crm/views/viewColumns';
import { CustomerFilters, nullable } from './dtos';
import { DealFilters } from './dealDtos';

/** Bodies of the saved view routes of /api/customers/views and /api/deals/views. Unknown fields are refused. */

const NAME_TEXT = /^\P{Cc}*\S\P{Cc}*$/u;

class ViewFields {
  @JSONSchema({
    description: `Columns shown, in order. Customers: ${customerColumns.join(', ')} or custom.<key>; deals: ${dealColumns.join(', ')}`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(80, { each: true })
  columns?: string[];
}

class NamedView extends ViewFields {
  @IsString()
  @Length(1, 120)
  @Matches(NAME_TEXT, { message: 'name must not be blank nor hold control characters' })
  name!: string;
  @JSONSchema({ description: 'Shared with the organisation (needs core.settings.manage); default: your own' })
  @IsOptional()
  @IsBoolean()
  shared?: boolean;
}

class RenamedView extends ViewFields {
  @IsOptional()
  @IsString()
  @Length(1, 120)
  @Matches(NAME_TEXT, { message: 'name must not be blank nor hold control characters' })
  name?: string;
}

export class CreateCustomerViewBody extends NamedView {
  @JSONSchema({ description: 'The filters of GET /api/customers' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CustomerFilters)
  filters?: CustomerFilters;
  @JSONSchema({ description: 'A sort of GET /api/customers' })
  @IsOptional()
  @IsIn(customerSorts)
  sort?: CustomerSort;
}

export class UpdateCustomerViewBody extends RenamedView {
  @JSONSchema({ description: "The filters of GET /api/customers (replace the view's)" })
  @IsOptional()
  @ValidateNested()
  @Type(() => CustomerFilters)
  filters?: CustomerFilters;
  @JSONSchema(nullable('A sort of GET /api/customers; null clears'))
  @IsOptional()
  @IsIn(customerSorts)
  sort?: CustomerSort | null;
}

export class CreateDealViewBody extends NamedView {
  @JSONSchema({ description: 'The filters of GET /api/deals' })
  @IsOptional()
  @ValidateNested()
  @Type(() => DealFilters)
  filters?: DealFilters;
  @JSONSchema({ description: 'createdAt (oldest first, the one order of the deal list)' })
  @IsOptional()
  @IsIn(dealSorts)
  sort?: string;
}

export class UpdateDealViewBody extends RenamedView {
  @JSONSchema({ description: "The filters of GET /api/deals (replace the view's)" })
  @IsOptional()
  @ValidateNested()
  @Type(() => DealFilters)
  filters?: DealFilters;
  @JSONSchema(nullable('createdAt; null clears'))
  @IsOptional()
  @IsIn(dealSorts)
  sort?: string | null;
}

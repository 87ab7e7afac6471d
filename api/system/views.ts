import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** Presenters of the system routes. */

export class HealthView {
  @IsIn(['ok']) status!: 'ok';
  @IsString() version!: string;
  @IsInt() uptimeSeconds!: number;
}

class ReadinessChecksView {
  @JSONSchema({ description: '`ok`, or why the check failed' }) @IsString() postgres!: string;
  @JSONSchema({ description: '`ok`, or why the check failed' }) @IsString() redis!: string;
}

export class ReadyView {
  @IsIn(['ready']) status!: 'ready';
  @ValidateNested() @Type(() => ReadinessChecksView) checks!: ReadinessChecksView;
}

class IndexLinksView {
  @JSONSchema({ description: 'Interactive API documentation (Swagger UI)' }) @IsString() docs!: string;
  @JSONSchema({ description: 'OpenAPI 3.1 description of every HTTP route' }) @IsString() openapi!: string;
  @JSONSchema({ description: 'AsyncAPI 3 description of the WebSocket endpoints' }) @IsString() asyncapi!: string;
  @IsString() health!: string;
  @IsString() ready!: string;
}

export class IndexView {
  @IsString() name!: string;
  @IsString() version!: string;
  @IsString() description!: string;
  @ValidateNested() @Type(() => IndexLinksView) links!: IndexLinksView;
}

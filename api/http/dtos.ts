import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsUUID, isUUID, Max, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** Largest value of a PostgreSQL integer column: the Max of every integer field stored in one. */
export const INT4_MAX = 2_147_483_647;

/** `?limit=&cursor=` of every list (answers are `{ items, nextCursor }`, see lib/pagination.ts). */
export class PageQuery {
  @JSONSchema({ description: 'Page size (default 50, max 200)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number = 50;

  @JSONSchema({ description: 'nextCursor of the previous page' }) @IsOptional() @IsUUID() cursor?: string;
}

/** A resource named by its UUID in the path (`/rooms/{id}`, `/orgs/{id}` ...): malformed is a 400, unknown a 404. */
export class IdParams {
  /** Every `/:id` route, the hottest ones included, skips the class-validator pass for a valid id (same isUUID check; see toDto). */
  static fastAccept(params: unknown): boolean {
    const keys = Object.keys(params as object);
    const id = (params as { id?: unknown }).id;
    return keys.length === 1 && typeof id === 'string' && isUUID(id);
  }

  @IsUUID() id!: string;
}

import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { apiKeyScopes, type ApiKey } from '../../entities/apikeys/apiKey';
import type { CreatedApiKey } from '../../domain/apikeys/createApiKey';
import type { Lean } from '../../lib/lean';
import { mapPage, type Page } from '../../lib/pagination';
import { Nullable } from '../http/nullable';
import { iso, isoTime } from '../http/present';
import { CREATED_BY, SEES_UNPUBLISHED } from './views.docs';

/** An integration key as lists show it: never its secret. */
export class ApiKeyView {
  @IsUUID() id!: string;
  @IsString() label!: string;
  @JSONSchema({ description: 'The highest scope held: `write` keys may also read' })
  @IsIn(apiKeyScopes)
  scope!: string;
  @IsIn(apiKeyScopes, { each: true }) scopes!: string[];
  @JSONSchema({ description: 'The start of the key (e.g. `psk_core_Ab3dE5fG`), to tell keys apart' })
  @IsString()
  prefix!: string;
  @JSONSchema({ description: CREATED_BY })
  @IsUUID()
  createdBy!: string;
  @JSONSchema({ description: SEES_UNPUBLISHED })
  @IsBoolean()
  seesUnpublished!: boolean;
  @IsDateString() createdAt!: string;
  @JSONSchema({ description: 'Last call made with the key (minute resolution); null when never used' })
  @Nullable()
  @IsDateString()
  lastUsedAt!: string | null;

  static from(k: Lean<ApiKey>): ApiKeyView {
    return {
      id: k.id,
      label: k.label,
      scope: k.scopes.includes('write') ? 'write' : 'read',
      scopes: k.scopes,
      prefix: k.prefix,
      createdBy: k.createdBy,
      seesUnpublished: k.seesUnpublished,
      createdAt: isoTime(k.createdAt),
      lastUsedAt: iso(k.lastUsedAt),
    };
  }
}

/** The answer of a creation: the only time the key itself is shown. */
export class CreatedApiKeyView extends ApiKeyView {
  @JSONSchema({
    description: 'The key, for the X-Server-API-Key header. Shown this once: only its hash is kept, so store it now',
  })
  @IsString()
  key!: string;

  static fromCreated({ apiKey, key }: CreatedApiKey): CreatedApiKeyView {
    return { ...ApiKeyView.from(apiKey), key };
  }
}

export class ApiKeyPageView {
  @ValidateNested({ each: true }) @Type(() => ApiKeyView) items!: ApiKeyView[];
  @JSONSchema({ description: 'Cursor of the next page; null on the last' })
  @Nullable()
  @IsString()
  nextCursor!: string | null;

  static from(page: Page<Lean<ApiKey>>): ApiKeyPageView {
    return mapPage(page, ApiKeyView.from);
  }
}

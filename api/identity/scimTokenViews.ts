import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsInt, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import type { ScimGroupSummary } from '../../domain/identity/scim/mapScimGroupRole';
import { JSONSchema } from 'class-validator-jsonschema';
import type { IssuedScimToken } from '../../domain/identity/scim/issueScimToken';
import type { ScimToken } from '../../entities/identity/scim';
import { Nullable } from '../http/nullable';
import { iso, isoTime } from '../http/present';

/** The organisation's SCIM token as the admin sees it: never the secret. */
export class ScimTokenView {
  @JSONSchema({ description: 'Whether the organisation has a SCIM token (provisioning is on)' })
  @IsBoolean()
  active!: boolean;
  @JSONSchema({ description: 'The base URL to configure in the identity provider' })
  @IsString()
  @MaxLength(2000)
  baseUrl!: string;
  @Nullable() @IsDateString() createdAt!: string | null;
  @JSONSchema({ description: 'Last request made with it (minute resolution); null when never used' })
  @Nullable()
  @IsDateString()
  lastUsedAt!: string | null;

  static from(token: ScimToken | null, baseUrl: string): ScimTokenView {
    return {
      active: !!token,
      baseUrl,
      createdAt: token ? isoTime(token.createdAt) : null,
      lastUsedAt: iso(token?.lastUsedAt ?? null),
    };
  }
}

/** The answer of an issue: the only time the token itself is shown. */
export class IssuedScimTokenView {
  @JSONSchema({ description: 'The bearer token for the identity provider. Shown this once: only its hash is kept' })
  @IsString()
  token!: string;
  @JSONSchema({ description: 'The base URL to configure in the identity provider' })
  @IsString()
  @MaxLength(2000)
  baseUrl!: string;
  @IsDateString() createdAt!: string;
  @JSONSchema({ description: 'Whether it replaced a token, which no longer works' })
  @IsBoolean()
  rotated!: boolean;

  static from(issued: IssuedScimToken, baseUrl: string): IssuedScimTokenView {
    return { token: issued.token, baseUrl, createdAt: isoTime(issued.row.createdAt), rotated: issued.rotated };
  }
}

/** A SCIM group as the organisation's admins see it: the role it grants and how many members it has. */
export class ScimGroupRoleView {
  @IsUUID() id!: string;
  @IsString() displayName!: string;
  @Nullable() @IsString() externalId!: string | null;
  @JSONSchema({ description: 'The role its members hold while in it; null: none' })
  @Nullable()
  @IsString()
  roleKey!: string | null;
  @IsInt() members!: number;
  @IsDateString() updatedAt!: string;

  static from(g: ScimGroupSummary): ScimGroupRoleView {
    return { ...g, updatedAt: isoTime(g.updatedAt) };
  }
}

export class ScimGroupRoleListView {
  @ValidateNested({ each: true }) @Type(() => ScimGroupRoleView) items!: ScimGroupRoleView[];
}

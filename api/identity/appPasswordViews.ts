import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { CreatedAppPassword } from '../../domain/identity/createAppPassword';
import type { ListedAppPassword } from '../../domain/identity/listAppPasswords';
import { appPasswordScopes } from '../../entities/identity/appPassword';
import { Nullable } from '../http/nullable';
import { iso, isoTime } from '../http/present';

/** An app password as lists show it: never its secret. */
export class AppPasswordView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @JSONSchema({ description: 'The DAV surfaces it opens' })
  @IsIn(appPasswordScopes, { each: true })
  scopes!: string[];
  @IsDateString() createdAt!: string;
  @JSONSchema({ description: 'Last DAV request made with it (minute resolution); null when never used' })
  @Nullable()
  @IsDateString()
  lastUsedAt!: string | null;

  static from(a: ListedAppPassword): AppPasswordView {
    return {
      id: a.id,
      name: a.name,
      scopes: [...a.scopes],
      createdAt: isoTime(a.createdAt),
      lastUsedAt: iso(a.lastUsedAt),
    };
  }
}

/** The answer of a creation: the only time the password itself is shown. */
export class CreatedAppPasswordView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsIn(appPasswordScopes, { each: true }) scopes!: string[];
  @IsDateString() createdAt!: string;
  @JSONSchema({
    description:
      'The password, for the DAV client with the account e-mail as user name. Shown this once: only its hash is kept',
  })
  @IsString()
  password!: string;

  static from({ appPassword, password }: CreatedAppPassword): CreatedAppPasswordView {
    return {
      id: appPassword.id,
      name: appPassword.name,
      scopes: [...appPassword.scopes],
      createdAt: isoTime(appPassword.createdAt),
      password,
    };
  }
}

export class AppPasswordPageView {
  @ValidateNested({ each: true }) @Type(() => AppPasswordView) items!: AppPasswordView[];
  @JSONSchema({ description: 'Cursor of the next page; null on the last' })
  @Nullable()
  @IsString()
  nextCursor!: string | null;
}

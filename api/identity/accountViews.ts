import { WHOLE_SECTIONS } from '../../domain/identity/exportAccountData';
import { IsArray, IsString, IsUUID } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { DeletedAccount } from '../../domain/identity/deleteAccount';

/** What DELETE /auth/me and DELETE /admin/users/{id} answer. */
export class DeletedAccountView {
  @JSONSchema({ description: 'What the records kept show instead of the person (`deleted-user-` and 8 hex digits)' })
  @IsString()
  pseudonym!: string;

  @JSONSchema({ description: 'Organisations the account left (their seats freed)' })
  @IsArray()
  @IsUUID('all', { each: true })
  organizationsLeft!: string[];

  @JSONSchema({ description: 'Organisations the account was the only member of, now suspended (their data kept)' })
  @IsArray()
  @IsUUID('all', { each: true })
  organizationsSuspended!: string[];

  static from(d: DeletedAccount): DeletedAccountView {
    return { pseudonym: d.pseudonym, organizationsLeft: d.left, organizationsSuspended: d.closed };
  }
}

/** The export's top-level shape, as documented (the body is streamed, its sections described in the route's text). */
export const ACCOUNT_EXPORT_SCHEMA = {
  type: 'object',
  required: ['format', 'exportedAt', 'account'],
  properties: {
    format: { type: 'string', enum: ['platform-suite.account-export/1'] },
    exportedAt: { type: 'string', format: 'date-time' },
    account: { type: 'object', additionalProperties: true },
    ...Object.fromEntries(
      [...WHOLE_SECTIONS, 'hr', 'auditEntries'].map((k) => [
        k,
        { type: 'array', items: { type: 'object', additionalProperties: true } },
      ]),
    ),
    secondFactors: { type: 'object', additionalProperties: true },
    authored: { type: 'object', additionalProperties: true },
  },
} as const;

import { IsOptional, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { Reauthentication } from '../../domain/identity/deleteAccount';
import { invalidField } from '../../lib/errors';
import { Length } from '../http/dtos';
import { factorProof, FactorProofBody } from './passkeyDtos';

/** Longest password the suite takes (the other password fields' bound). */
const PASSWORD_MAX = 1024;

/** DELETE /auth/me: the proof that the person is at the keyboard, exactly one of password, code and passkey. */
export class DeleteAccountBody extends FactorProofBody {
  @JSONSchema({ description: "The account's password" })
  @IsOptional()
  @IsString()
  @Length(1, PASSWORD_MAX)
  password?: string;
}

/** The one proof a deletion body carries: 400 `validation_failed` with none or several. */
export function reauthentication(body: DeleteAccountBody): Reauthentication {
  const { password, ...factor } = body;
  if (password === undefined) return factorProof(factor);
  if (factor.code !== undefined || factor.passkey !== undefined)
    throw invalidField('password', 'send one of password, code and passkey');
  return { password };
}

import { AppError } from '../../../lib/errors';

/**
 * SCIM `scimType`s (RFC 7644 3.12) as the stable codes of the AppErrors the SCIM use cases throw: the SCIM
 * routes (api/identity/scimErrors.ts) write them back as `scimType` in the SCIM error format.
 */
export const SCIM_TYPE_OF_CODE: Readonly<Record<string, string>> = {
  scim_invalid_filter: 'invalidFilter',
  scim_too_many: 'tooMany',
  scim_uniqueness: 'uniqueness',
  scim_mutability: 'mutability',
  scim_invalid_syntax: 'invalidSyntax',
  scim_invalid_path: 'invalidPath',
  scim_no_target: 'noTarget',
  scim_invalid_value: 'invalidValue',
  // What the edge refuses before a use case runs.
  validation_failed: 'invalidValue',
  malformed_json: 'invalidSyntax',
  json_too_deep: 'invalidSyntax',
  body_not_allowed: 'invalidSyntax',
  seat_limit_reached: 'tooMany',
  last_owner: 'mutability',
};

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue';

const CODE_OF_TYPE: Record<ScimType, string> = {
  invalidFilter: 'scim_invalid_filter',
  tooMany: 'scim_too_many',
  uniqueness: 'scim_uniqueness',
  mutability: 'scim_mutability',
  invalidSyntax: 'scim_invalid_syntax',
  invalidPath: 'scim_invalid_path',
  noTarget: 'scim_no_target',
  invalidValue: 'scim_invalid_value',
};

/** A SCIM refusal: 400 unless said otherwise (409 for uniqueness), its scimType carried by the code. */
export function scimProblem(
  scimType: ScimType,
  detail: string,
  status = scimType === 'uniqueness' ? 409 : 400,
): AppError {
  return new AppError(status, CODE_OF_TYPE[scimType], detail);
}

import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Length } from '../http/dtos';
import { apiKeyScopes, type ApiKeyScope } from '../../entities/apikeys/apiKey';

/** Body of POST /api/knowledge/keys and POST /api/hub/keys. */
export class CreateApiKeyBody {
  @JSONSchema({
    description: 'What the key is for, e.g. "Zapier" (1-100 characters, not blank, no control characters)',
  })
  @IsString()
  @Length(1, 100)
  // eslint-disable-next-line no-control-regex -- control characters are precisely what must be refused
  @Matches(/^(?=.*\S)[^\u0000-\u001f\u007f]*$/, { message: 'label must not be blank nor contain control characters' })
  label!: string;

  @JSONSchema({ description: '`read` (default) or `write`, which also grants read' })
  @IsOptional()
  @IsIn(apiKeyScopes)
  scope: ApiKeyScope = 'read';
}

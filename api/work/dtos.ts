import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUUID, Matches, Max, Min, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { INT4_MAX, IsNotBlank, Length, MaxLength, PageQuery } from '../http/dtos';
import { CHAT_COLUMNS } from '../../entities/work/chat';
import {
  codeHosts,
  WORK_ITEM_COLUMNS,
  workItemStatuses,
  type CodeHost,
  type WorkItemStatus,
} from '../../entities/work/workItem';
import { REPOSITORY } from '../../domain/work/links';
import { githubDeliveryOutcomes, type GithubDeliveryOutcome } from '../../entities/work/github';
import { hubDeliveryStatuses, type HubDeliveryStatus } from '../../entities/notifications/hubDelivery';

/** Request bodies and queries of the work items, code-host webhook and chat routes. Unknown fields are refused. */

export class WorkItemLinkBody {
  @IsIn(codeHosts) provider!: CodeHost;
  @JSONSchema({ description: '`owner/name` of the repository (case-insensitive)' })
  @IsString()
  @Length(3, WORK_ITEM_COLUMNS.linkRepository)
  @Matches(REPOSITORY, { message: 'repository must be owner/name' })
  repository!: string;
  @JSONSchema({ description: 'Number of the issue or pull request' })
  @IsInt()
  @Min(1)
  @Max(INT4_MAX)
  number!: number;
}

export class CreateWorkItemBody {
  @IsString() @Length(1, WORK_ITEM_COLUMNS.title) @IsNotBlank('title') title!: string;
  @IsOptional() @IsString() @MaxLength(20000) description?: string;
  @IsOptional() @IsIn(workItemStatuses) status?: WorkItemStatus;
  @JSONSchema({ description: 'The issue or pull request the item tracks; code-host webhooks move its status' })
  @IsOptional()
  @ValidateNested()
  @Type(() => WorkItemLinkBody)
  link?: WorkItemLinkBody;
}

export class UpdateWorkItemBody {
  @IsOptional() @IsString() @Length(1, WORK_ITEM_COLUMNS.title) @IsNotBlank('title') title?: string;
  @JSONSchema({ type: ['string', 'null'] })
  @IsOptional()
  @IsString()
  @MaxLength(20000)
  description?: string | null;
  @IsOptional() @IsIn(workItemStatuses) status?: WorkItemStatus;
  @JSONSchema({ description: 'A new link (DELETE /api/work/items/{id}/link unlinks)' })
  @IsOptional()
  @ValidateNested()
  @Type(() => WorkItemLinkBody)
  link?: WorkItemLinkBody;
}

export class ListWorkItemsQuery extends PageQuery {
  @IsOptional() @IsIn(workItemStatuses) status?: WorkItemStatus;
  @JSONSchema({ description: 'Items linked to this repository (`owner/name`)' })
  @IsOptional()
  @IsString()
  @Length(3, WORK_ITEM_COLUMNS.linkRepository)
  @Matches(REPOSITORY)
  repository?: string;
}

export class GithubSecretBody {
  @JSONSchema({ description: 'The secret to use; left out, a random one is generated (recommended)' })
  @IsOptional()
  @IsString()
  @Length(16, 200)
  secret?: string;
}

export class GithubWebhookQuery {
  @JSONSchema({
    description: 'The organisation the webhook belongs to (part of the URL given by PUT /api/work/github/secret)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  org?: string;
}

export class CreateChannelBody {
  @JSONSchema({ description: 'Unique in the organisation' })
  @IsString()
  @Length(1, CHAT_COLUMNS.channelName)
  @Matches(/^[^\s].*[^\s]$|^[^\s]$/, { message: 'name must not start or end with a space' })
  name!: string;
  @IsOptional() @IsString() @MaxLength(CHAT_COLUMNS.topic) topic?: string;
}

export class CreateIntegrationTokenBody {
  @JSONSchema({
    description: 'What the token is for; also the author name of its messages unless they give a username',
  })
  @IsString()
  @Length(1, CHAT_COLUMNS.tokenLabel)
  @IsNotBlank('label')
  label!: string;
}

export class IntegrationMessageBody {
  @IsString() @Length(1, CHAT_COLUMNS.text) text!: string;
  @JSONSchema({ description: 'Author name shown with the message (default: the token label)' })
  @IsOptional()
  @IsString()
  @Length(1, CHAT_COLUMNS.author)
  username?: string;
}

export class IntegrationTokenParams {
  @JSONSchema({ description: 'The integration token' })
  @IsString()
  @Length(1, 200)
  token!: string;
}

export class IntegrationTokenQuery {
  @JSONSchema({ description: 'The integration token' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  token?: string;
}

export class AdminGithubDeliveriesQuery extends PageQuery {
  @IsOptional() @IsUUID() tenantId?: string;
  @JSONSchema({ description: '`pending`: not processed yet; or an outcome' })
  @IsOptional()
  @IsIn(['pending', ...githubDeliveryOutcomes])
  status?: 'pending' | GithubDeliveryOutcome;
}

export class AdminHubDeliveriesQuery extends PageQuery {
  @IsOptional() @IsUUID() tenantId?: string;
  @JSONSchema({ description: 'The notifying module (vr, core, cloud, rh, knowledge)' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  module?: string;
  @IsOptional() @IsIn(hubDeliveryStatuses) status?: HubDeliveryStatus;
}

export class AdminChatDeliveriesQuery extends PageQuery {
  @IsOptional() @IsUUID() tenantId?: string;
}

export class DeliverySummaryQuery {
  @JSONSchema({ description: 'Window in hours (default 24, max 720)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(720)
  hours: number = 24;
}

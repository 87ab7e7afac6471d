import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsOptional, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import { codeHosts, workItemStatuses, type WorkItem } from '../../entities/work/workItem';
import type { WorkGithubSettings } from '../../entities/work/github';
import { mapPage, type Page } from '../../lib/pagination';
import { iso, isoTime } from '../http/present';
import * as docs from './views.docs';

/** Presenters of the work items and code-host webhook routes. */

export class WorkItemLinkView {
  @IsIn(codeHosts) provider!: string;
  @JSONSchema({ description: '`owner/name`, lower-cased' })
  @IsString()
  repository!: string;
  @IsInt() number!: number;
  @JSONSchema({ description: 'updated_at of the last code-host event applied to the item; null when none was' })
  @Nullable()
  @IsDateString()
  lastEventAt!: string | null;
}

export class WorkItemView {
  @IsUUID() id!: string;
  @IsString() title!: string;
  @Nullable() @IsString() description!: string | null;
  @IsIn(workItemStatuses) status!: string;
  @JSONSchema({ description: 'The code-host issue or pull request it tracks' })
  @Nullable()
  @ValidateNested()
  @Type(() => WorkItemLinkView)
  link!: WorkItemLinkView | null;
  @Nullable() @IsUUID() createdBy!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(item: WorkItem): WorkItemView {
    return {
      id: item.id,
      title: item.title,
      description: item.description ?? null,
      status: item.status,
      link:
        item.linkProvider && item.linkRepository && item.linkNumber
          ? {
              provider: item.linkProvider,
              repository: item.linkRepository,
              number: item.linkNumber,
              lastEventAt: iso(item.linkUpdatedAt),
            }
          : null,
      createdBy: item.createdBy ?? null,
      createdAt: isoTime(item.createdAt),
      updatedAt: isoTime(item.updatedAt),
    };
  }
}

export class WorkItemPageView {
  @ValidateNested({ each: true }) @Type(() => WorkItemView) items!: WorkItemView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<WorkItem>): WorkItemPageView {
    return mapPage(page, WorkItemView.from);
  }
}

export class GithubSettingsView {
  @JSONSchema({ description: 'Whether a webhookSecret is set' })
  @IsBoolean()
  configured!: boolean;
  @JSONSchema({
    description: 'The Payload URL to give GitHub (content type application/json); `org` names this organisation',
  })
  @IsString()
  webhookUrl!: string;
  @Nullable() @IsDateString() rotatedAt!: string | null;

  static from(settings: WorkGithubSettings | null, webhookUrl: string): GithubSettingsView {
    return { configured: !!settings, webhookUrl, rotatedAt: settings ? isoTime(settings.rotatedAt) : null };
  }
}

export class GithubSecretView extends GithubSettingsView {
  @JSONSchema({ description: docs.githubSecretOnce })
  @IsString()
  secret!: string;
}

export class GithubReceiptView {
  @JSONSchema({ description: 'false: no signature or unknown organisation (nothing stored, silently)' })
  @IsBoolean()
  received!: boolean;
  @JSONSchema({ description: 'This X-GitHub-Delivery was already stored (nothing done again)' })
  @IsOptional()
  @IsBoolean()
  duplicate?: boolean;
}

import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsObject, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import { hubDeliveryStatuses, type HubDelivery } from '../../entities/notifications/hubDelivery';
import type { ChatMessage } from '../../entities/work/chat';
import { githubDeliveryOutcomes, type WorkGithubDelivery } from '../../entities/work/github';
import type { DeliveryCount, GithubDeliverySummary } from '../../domain/notifications/store';
import type { Lean } from '../../lib/lean';
import { mapPage, type Page } from '../../lib/pagination';
import { iso, isoTime } from '../http/present';
import * as docs from './deliveryViews.docs';

/** Presenters of /admin/deliveries: inbound webhooks and outbound hub notifications with their outcomes. */

export class GithubDeliveryView {
  @IsUUID() id!: string;
  @IsUUID() tenantId!: string;
  @JSONSchema({ description: 'X-GitHub-Delivery' }) @IsString() deliveryId!: string;
  @JSONSchema({ description: 'X-GitHub-Event' }) @IsString() event!: string;
  @Nullable() @IsString() action!: string | null;
  @JSONSchema({ description: '`pending` until processed; `failed` once its attempts are exhausted (with `error`)' })
  @IsIn(['pending', ...githubDeliveryOutcomes])
  status!: string;
  @IsInt() itemsChanged!: number;
  @IsInt() attempts!: number;
  @Nullable() @IsString() error!: string | null;
  @IsDateString() receivedAt!: string;
  @Nullable() @IsDateString() processedAt!: string | null;

  static from(d: GithubDeliverySummary): GithubDeliveryView {
    return {
      id: d.id,
      tenantId: d.tenantId,
      deliveryId: d.deliveryId,
      event: d.event,
      action: d.action ?? null,
      status: d.outcome ?? 'pending',
      itemsChanged: d.itemsChanged,
      attempts: d.attempts,
      error: d.error ?? null,
      receivedAt: isoTime(d.createdAt),
      processedAt: iso(d.processedAt),
    };
  }
}

export class GithubDeliveryDetailView extends GithubDeliveryView {
  @JSONSchema({ description: 'The body GitHub sent', type: 'object', additionalProperties: true })
  @IsObject()
  payload!: Record<string, unknown>;

  static detail(d: Lean<WorkGithubDelivery>): GithubDeliveryDetailView {
    return { ...GithubDeliveryView.from(d), payload: d.payload };
  }
}

export class GithubDeliveryPageView {
  @ValidateNested({ each: true }) @Type(() => GithubDeliveryView) items!: GithubDeliveryView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<GithubDeliverySummary>): GithubDeliveryPageView {
    return mapPage(page, GithubDeliveryView.from);
  }
}

export class HubDeliveryView {
  @JSONSchema({ description: 'The notification id (the `id` of the envelope the hub received)' }) @IsUUID() id!: string;
  @IsUUID() tenantId!: string;
  @IsString() module!: string;
  @IsString() event!: string;
  @JSONSchema({ description: docs.hubDeliveryStatus })
  @IsIn(hubDeliveryStatuses)
  status!: string;
  @IsInt() attempts!: number;
  @JSONSchema({ description: 'HTTP status of the last answer (null: unreachable, or skipped)' })
  @Nullable()
  @IsInt()
  lastStatus!: number | null;
  @Nullable() @IsString() lastError!: string | null;
  @IsDateString() firstAttemptAt!: string;
  @IsDateString() lastAttemptAt!: string;
  @Nullable() @IsDateString() deliveredAt!: string | null;

  static from(d: Lean<HubDelivery>): HubDeliveryView {
    return {
      id: d.id,
      tenantId: d.tenantId,
      module: d.module,
      event: d.event,
      status: d.status,
      attempts: d.attempts,
      lastStatus: d.lastStatus ?? null,
      lastError: d.lastError ?? null,
      firstAttemptAt: isoTime(d.firstAttemptAt),
      lastAttemptAt: isoTime(d.lastAttemptAt),
      deliveredAt: iso(d.deliveredAt),
    };
  }
}

export class HubDeliveryPageView {
  @ValidateNested({ each: true }) @Type(() => HubDeliveryView) items!: HubDeliveryView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<HubDelivery>>): HubDeliveryPageView {
    return mapPage(page, HubDeliveryView.from);
  }
}

export class ChatDeliveryView {
  @IsUUID() id!: string;
  @IsUUID() tenantId!: string;
  @IsUUID() channelId!: string;
  @JSONSchema({ description: 'The token that posted it; null once deleted' }) @Nullable() @IsUUID() tokenId!:
    string | null;
  @IsString() author!: string;
  @JSONSchema({ description: 'Length of the text (the text itself stays with the organisation)' })
  @IsInt()
  textLength!: number;
  @IsDateString() receivedAt!: string;

  static from(m: Lean<ChatMessage>): ChatDeliveryView {
    return {
      id: m.id,
      tenantId: m.tenantId,
      channelId: m.channelId,
      tokenId: m.tokenId ?? null,
      author: m.author,
      textLength: m.text.length,
      receivedAt: isoTime(m.createdAt),
    };
  }
}

export class ChatDeliveryPageView {
  @ValidateNested({ each: true }) @Type(() => ChatDeliveryView) items!: ChatDeliveryView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<ChatMessage>>): ChatDeliveryPageView {
    return mapPage(page, ChatDeliveryView.from);
  }
}

export class DeliveryCountView {
  @IsIn(['inbound', 'outbound']) direction!: string;
  @JSONSchema({ description: '`github`, `stripe`, `chat`, or `hub.<module>` for outbound notifications' })
  @IsString()
  source!: string;
  @IsString() status!: string;
  @IsInt() count!: number;
}

export class DeliverySummaryView {
  @IsInt() hours!: number;
  @ValidateNested({ each: true }) @Type(() => DeliveryCountView) counts!: DeliveryCountView[];

  static from(hours: number, counts: DeliveryCount[]): DeliverySummaryView {
    return { hours, counts };
  }
}

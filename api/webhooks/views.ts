import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../../entities/webhooks/webhook';
import { webhookDeliveryStatuses, webhookDisabledReasons } from '../../entities/webhooks/webhook';
import { mapPage, type Page } from '../../lib/pagination';
import { Nullable } from '../http/nullable';
import { iso, isoTime } from '../http/present';

/** An endpoint as lists show it: never its secret. */
export class EndpointView {
  @IsUUID() id!: string;
  @IsString() url!: string;
  @IsString() description!: string;
  @JSONSchema({ description: 'Event types delivered; empty: every type' })
  @IsString({ each: true })
  eventTypes!: string[];
  @IsBoolean() enabled!: boolean;
  @JSONSchema({ description: '`manual` (a member) or `failing` (disabled after sustained failure); null when enabled' })
  @Nullable()
  @IsIn(webhookDisabledReasons)
  disabledReason!: string | null;
  @JSONSchema({ description: 'Start of the current failure streak; null when the last attempt succeeded' })
  @Nullable()
  @IsDateString()
  failingSince!: string | null;
  @JSONSchema({ description: 'Until when the previous secret still signs beside the current one; null without one' })
  @Nullable()
  @IsDateString()
  previousSecretExpiresAt!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(e: WebhookEndpoint): EndpointView {
    const previous =
      e.previousSecretExpiresAt && e.previousSecretExpiresAt > new Date() ? e.previousSecretExpiresAt : null;
    return {
      id: e.id,
      url: e.url,
      description: e.description,
      eventTypes: e.eventTypes,
      enabled: e.enabled,
      disabledReason: e.disabledReason ?? null,
      failingSince: iso(e.failingSince),
      previousSecretExpiresAt: iso(previous),
      createdAt: isoTime(e.createdAt),
      updatedAt: isoTime(e.updatedAt),
    };
  }
}

/** The answer of a creation or rotation: the only time the signing secret is shown. */
export class EndpointWithSecretView extends EndpointView {
  @JSONSchema({
    description:
      'The signing secret (`whsec_` + base64, Standard Webhooks): verify webhook-signature with it. Shown this once',
  })
  @IsString()
  secret!: string;

  static withSecret({ endpoint, secret }: { endpoint: WebhookEndpoint; secret: string }): EndpointWithSecretView {
    return { ...EndpointView.from(endpoint), secret };
  }
}

export class EndpointPageView {
  @ValidateNested({ each: true }) @Type(() => EndpointView) items!: EndpointView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<WebhookEndpoint>): EndpointPageView {
    return mapPage(page, EndpointView.from);
  }
}

/** One delivery of an event to an endpoint. */
export class DeliveryView {
  @IsUUID() id!: string;
  @IsUUID() endpointId!: string;
  @JSONSchema({ description: 'The event, also the webhook-id header (the same at every attempt and replay)' })
  @IsUUID()
  eventId!: string;
  @IsString() eventType!: string;
  @JSONSchema({ description: 'What changed, e.g. `customer:<id>`: deliveries of one resource keep their order' })
  @IsString()
  resource!: string;
  @IsIn(webhookDeliveryStatuses) status!: string;
  @IsInt() attempts!: number;
  @JSONSchema({ description: 'When the next attempt is due (pending); null otherwise' })
  @Nullable()
  @IsDateString()
  nextAttemptAt!: string | null;
  @Nullable() @IsDateString() lastAttemptAt!: string | null;
  @JSONSchema({ description: 'HTTP status of the last answer; null when none came' })
  @Nullable()
  @IsInt()
  lastHttpStatus!: number | null;
  @Nullable() @IsDateString() deliveredAt!: string | null;
  @IsDateString() createdAt!: string;

  static from(d: WebhookDelivery): DeliveryView {
    return {
      id: d.id,
      endpointId: d.endpointId,
      eventId: d.eventId,
      eventType: d.eventType,
      resource: d.resource,
      status: d.status,
      attempts: d.attempts,
      nextAttemptAt: d.status === 'pending' ? iso(d.nextAttemptAt) : null,
      lastAttemptAt: iso(d.lastAttemptAt),
      lastHttpStatus: d.lastHttpStatus ?? null,
      deliveredAt: iso(d.deliveredAt),
      createdAt: isoTime(d.createdAt),
    };
  }
}

export class DeliveryPageView {
  @ValidateNested({ each: true }) @Type(() => DeliveryView) items!: DeliveryView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<WebhookDelivery>): DeliveryPageView {
    return mapPage(page, DeliveryView.from);
  }
}

export class AttemptView {
  @IsDateString() at!: string;
  @JSONSchema({ description: 'HTTP status of the answer; null when none came (refused address, timeout, network)' })
  @Nullable()
  @IsInt()
  httpStatus!: number | null;
  @IsInt() durationMs!: number;
  @JSONSchema({ description: 'The start of the answer body' })
  @Nullable()
  @IsString()
  responseExcerpt!: string | null;
  @Nullable() @IsString() error!: string | null;

  static from(a: WebhookAttempt): AttemptView {
    return {
      at: isoTime(a.createdAt),
      httpStatus: a.httpStatus ?? null,
      durationMs: a.durationMs,
      responseExcerpt: a.responseExcerpt ?? null,
      error: a.error ?? null,
    };
  }
}

/** A delivery with its attempts and the body sent. */
export class DeliveryDetailView extends DeliveryView {
  @ValidateNested({ each: true }) @Type(() => AttemptView) attemptLog!: AttemptView[];

  static detail({ delivery, attempts }: { delivery: WebhookDelivery; attempts: WebhookAttempt[] }): DeliveryDetailView {
    return { ...DeliveryView.from(delivery), attemptLog: attempts.map(AttemptView.from) };
  }
}

export class ReplayView {
  @JSONSchema({ description: 'Deliveries set pending again' }) @IsInt() replayed!: number;
}

export class EventTypeView {
  @IsString() type!: string;
  @IsString() summary!: string;
  @IsInt() version!: number;
}

export class EventTypeListView {
  @ValidateNested({ each: true }) @Type(() => EventTypeView) items!: EventTypeView[];
}

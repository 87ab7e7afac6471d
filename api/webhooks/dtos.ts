import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { subscribableEventTypes, type WebhookEventType } from '../../domain/webhooks/eventTypes';
import { webhookDeliveryStatuses, type WebhookDeliveryStatus } from '../../entities/webhooks/webhook';
import { IsInstant, Length, MaxLength, PageQuery } from '../http/dtos';

const EVENT_TYPES = `Event types delivered (empty: every type): ${subscribableEventTypes.join(', ')}`;

/** Body of POST /api/webhooks/endpoints. */
export class CreateEndpointBody {
  @JSONSchema({
    description:
      'Where events are POSTed: https (http in development), a public address (private, loopback and link-local addresses are refused, also at every delivery after DNS resolution)',
  })
  @IsString()
  @Length(1, 2000)
  url!: string;

  @JSONSchema({ description: 'What the endpoint is for (at most 500 characters)' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  @Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'description must not contain control characters' })
  description: string = '';

  @JSONSchema({ description: EVENT_TYPES })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsIn(subscribableEventTypes, { each: true })
  eventTypes: WebhookEventType[] = [];

  @JSONSchema({ description: 'Whether events are delivered (default true)' })
  @IsOptional()
  @IsBoolean()
  enabled: boolean = true;
}

/** Body of PATCH /api/webhooks/endpoints/{id}: the fields given change. */
export class UpdateEndpointBody {
  @JSONSchema({ description: 'A new URL, checked as at creation' })
  @IsOptional()
  @IsString()
  @Length(1, 2000)
  url?: string;

  @IsOptional()
  @IsString()
  @MaxLength(500)
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  @Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'description must not contain control characters' })
  description?: string;

  @JSONSchema({ description: EVENT_TYPES })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsIn(subscribableEventTypes, { each: true })
  eventTypes?: WebhookEventType[];

  @JSONSchema({ description: 'false stops deliveries; true resumes them (and clears a failure streak)' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** The filters of the delivery log and of a bulk replay. */
export class DeliveryFilterQuery extends PageQuery {
  @IsOptional() @IsUUID() endpointId?: string;
  @IsOptional() @IsIn(webhookDeliveryStatuses) status?: WebhookDeliveryStatus;
  @IsOptional() @IsIn([...subscribableEventTypes, 'webhook.test']) eventType?: string;
  @JSONSchema({ description: 'Deliveries created at or after this instant' }) @IsOptional() @IsInstant() since?: string;
  @JSONSchema({ description: 'Deliveries created before this instant' }) @IsOptional() @IsInstant() until?: string;
}

/** Body of POST /api/webhooks/replay: every failed delivery of the period (and endpoint) is sent again. */
export class ReplayBody {
  @JSONSchema({ description: 'Only this endpoint' }) @IsOptional() @IsUUID() endpointId?: string;
  @JSONSchema({ description: 'Deliveries created at or after this instant' }) @IsInstant() since!: string;
  @JSONSchema({ description: 'Deliveries created before this instant (default now)' })
  @IsOptional()
  @IsInstant()
  until?: string;
}

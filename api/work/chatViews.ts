import { Type } from 'class-transformer';
import { IsDateString, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import type { ChatChannel, ChatIntegrationToken, ChatMessage } from '../../entities/work/chat';
import type { CreatedIntegrationToken } from '../../domain/work/createIntegrationToken';
import type { Lean } from '../../lib/lean';
import { mapPage, type Page } from '../../lib/pagination';
import { iso, isoTime } from '../http/present';

/** Presenters of the chat channels, integration tokens and messages. */

export class ChannelView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @Nullable() @IsString() topic!: string | null;
  @Nullable() @IsUUID() createdBy!: string | null;
  @IsDateString() createdAt!: string;

  static from(c: Lean<ChatChannel>): ChannelView {
    return {
      id: c.id,
      name: c.name,
      topic: c.topic ?? null,
      createdBy: c.createdBy ?? null,
      createdAt: isoTime(c.createdAt),
    };
  }
}

export class ChannelPageView {
  @ValidateNested({ each: true }) @Type(() => ChannelView) items!: ChannelView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<ChatChannel>>): ChannelPageView {
    return mapPage(page, ChannelView.from);
  }
}

export class IntegrationTokenView {
  @IsUUID() id!: string;
  @IsUUID() channelId!: string;
  @IsString() label!: string;
  @JSONSchema({ description: 'The start of the token (e.g. `pci_Ab3dE5fG`), to tell tokens apart' })
  @IsString()
  prefix!: string;
  @Nullable() @IsUUID() createdBy!: string | null;
  @IsDateString() createdAt!: string;
  @Nullable() @IsDateString() lastUsedAt!: string | null;

  static from(t: ChatIntegrationToken): IntegrationTokenView {
    return {
      id: t.id,
      channelId: t.channelId,
      label: t.label,
      prefix: t.prefix,
      createdBy: t.createdBy ?? null,
      createdAt: isoTime(t.createdAt),
      lastUsedAt: iso(t.lastUsedAt),
    };
  }
}

export class CreatedIntegrationTokenView extends IntegrationTokenView {
  @JSONSchema({ description: 'The token, for POST /api/integrations/{token}. Shown this once: only its hash is kept' })
  @IsString()
  token!: string;
  @JSONSchema({ description: 'The address a tool posts messages to' })
  @IsString()
  url!: string;

  static fromCreated({ token, secret }: CreatedIntegrationToken, baseUrl: string): CreatedIntegrationTokenView {
    return { ...IntegrationTokenView.from(token), token: secret, url: `${baseUrl}/api/integrations/${secret}` };
  }
}

export class IntegrationTokenPageView {
  @ValidateNested({ each: true }) @Type(() => IntegrationTokenView) items!: IntegrationTokenView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<ChatIntegrationToken>): IntegrationTokenPageView {
    return mapPage(page, IntegrationTokenView.from);
  }
}

export class ChatMessageView {
  @IsUUID() id!: string;
  @IsUUID() channelId!: string;
  @JSONSchema({ description: 'The integration token that posted it; null once that token is deleted' })
  @Nullable()
  @IsUUID()
  tokenId!: string | null;
  @IsString() author!: string;
  @IsString() text!: string;
  @IsDateString() createdAt!: string;

  static from(m: ChatMessage): ChatMessageView {
    return {
      id: m.id,
      channelId: m.channelId,
      tokenId: m.tokenId ?? null,
      author: m.author,
      text: m.text,
      createdAt: isoTime(m.createdAt),
    };
  }
}

export class ChatMessagePageView {
  @ValidateNested({ each: true }) @Type(() => ChatMessageView) items!: ChatMessageView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<ChatMessage>): ChatMessagePageView {
    return mapPage(page, ChatMessageView.from);
  }
}

import type { ModuleMount } from '../http/mount';
import { created, noContent } from '../http/routes';
import { IdParams, PageQuery } from '../http/dtos';
import { createChannel } from '../../domain/work/createChannel';
import { createIntegrationToken } from '../../domain/work/createIntegrationToken';
import { deleteChannel } from '../../domain/work/deleteChannel';
import { deleteIntegrationToken } from '../../domain/work/deleteIntegrationToken';
import { listChannels } from '../../domain/work/listChannels';
import { listIntegrationTokens } from '../../domain/work/listIntegrationTokens';
import { listMessages } from '../../domain/work/listMessages';
import { postIntegrationMessage } from '../../domain/work/postIntegrationMessage';
import { findChannel } from '../../domain/work/store';
import {
  CreateChannelBody,
  CreateIntegrationTokenBody,
  IntegrationMessageBody,
  IntegrationTokenParams,
  IntegrationTokenQuery,
} from './dtos';
import {
  ChannelPageView,
  ChannelView,
  ChatMessagePageView,
  ChatMessageView,
  CreatedIntegrationTokenView,
  IntegrationTokenPageView,
} from './chatViews';
import * as docs from './chat.docs';

/** Wrong tokens from one address are limited (successes cost nothing). */
const INTEGRATION_LIMITS = [{ name: 'chat-integration-refusals', limit: 60, countFailuresOnly: true }];

/**
 * Chat channels and their integrations. Channels and tokens are managed by members with
 * work.integrations.manage and read by members with chat.read (every member), in organisations entitled to
 * `core` (as work items). Third-party tools post with a token alone: POST /api/integrations/{token}.
 */
export function chatRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Chat integrations');
  const read = { access: 'user', module: 'core', permission: 'chat.read' } as const;
  const manage = { access: 'user', module: 'core', permission: 'work.integrations.manage' } as const;
  const baseUrl = services.config.PUBLIC_URL.replace(/\/$/, '');

  r.get(
    '/api/chat/channels',
    { ...read, summary: 'List channels', description: 'Oldest first.', query: PageQuery, response: ChannelPageView },
    async ({ ctx, query }) => ChannelPageView.from(await listChannels(ctx, query)),
  );
  r.post(
    '/api/chat/channels',
    {
      ...manage,
      summary: 'Create a channel',
      description: '409 `channel_exists` when the name is taken.',
      body: CreateChannelBody,
      response: ChannelView,
      status: 201,
      errors: { 409: '`channel_exists`' },
    },
    async ({ ctx, body }) => {
      const channel = await createChannel(ctx, body);
      return created(ChannelView.from(channel), `/api/chat/channels/${channel.id}`);
    },
  );
  r.get(
    '/api/chat/channels/:id',
    { ...read, summary: 'A channel', params: IdParams, response: ChannelView },
    async ({ ctx, params }) => ChannelView.from(await findChannel(ctx.em, params.id)),
  );
  r.delete(
    '/api/chat/channels/:id',
    {
      ...manage,
      summary: 'Delete a channel',
      description: 'Its integration tokens and messages go with it.',
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteChannel(ctx, params.id);
      return noContent();
    },
  );
  r.get(
    '/api/chat/channels/:id/messages',
    {
      ...read,
      summary: 'Messages of a channel',
      description: 'Newest first.',
      params: IdParams,
      query: PageQuery,
      response: ChatMessagePageView,
    },
    async ({ ctx, params, query }) => ChatMessagePageView.from(await listMessages(ctx, params.id, query)),
  );

  r.get(
    '/api/chat/channels/:id/tokens',
    {
      ...manage,
      summary: 'Integration tokens of a channel',
      description: 'Their prefixes only: a token is shown once, at creation.',
      params: IdParams,
      query: PageQuery,
      response: IntegrationTokenPageView,
    },
    async ({ ctx, params, query }) => IntegrationTokenPageView.from(await listIntegrationTokens(ctx, params.id, query)),
  );
  r.post(
    '/api/chat/channels/:id/tokens',
    {
      ...manage,
      summary: 'Create an integration token',
      description: docs.createIntegrationToken,
      params: IdParams,
      body: CreateIntegrationTokenBody,
      response: CreatedIntegrationTokenView,
      status: 201,
    },
    async ({ ctx, params, body }) =>
      created(CreatedIntegrationTokenView.fromCreated(await createIntegrationToken(ctx, params.id, body), baseUrl)),
  );
  r.delete(
    '/api/chat/tokens/:id',
    {
      ...manage,
      summary: 'Delete an integration token',
      description: 'Refused at once afterwards; the messages it posted stay.',
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteIntegrationToken(ctx, params.id);
      return noContent();
    },
  );

  const post = {
    access: 'public',
    body: IntegrationMessageBody,
    response: ChatMessageView,
    status: 201,
    rateLimits: INTEGRATION_LIMITS,
    errors: { 401: '`integration_token_invalid`: malformed, unknown or deleted token (nothing stored)' },
  } as const;
  // Registered before /api/integrations/:token, which would otherwise take "messages" for a token.
  r.post(
    '/api/integrations/messages',
    {
      ...post,
      summary: 'Post a message with an integration token (query)',
      description: 'As POST /api/integrations/{token}, with the token in `?token=`.',
      query: IntegrationTokenQuery,
    },
    async ({ services: s, query, body }) =>
      created(ChatMessageView.from(await postIntegrationMessage(s, query.token, body))),
  );
  r.post(
    '/api/integrations/:token',
    {
      ...post,
      summary: 'Post a message with an integration token',
      description: docs.postMessageIntegrationToken,
      params: IntegrationTokenParams,
    },
    async ({ services: s, params, body }) =>
      created(ChatMessageView.from(await postIntegrationMessage(s, params.token, body))),
  );
}

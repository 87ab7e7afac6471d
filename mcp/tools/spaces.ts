import * as z from 'zod';
import type { KnowledgeApi, Page } from '../api';
import { Deleted, id, pageOf, paging, SearchLanguage, slug, Space, SpaceMode } from '../schemas';
import { defineTool } from './define';

type SpaceDoc = z.infer<typeof Space>;

const spaceLine = (s: SpaceDoc) => `${s.name} (${s.mode ?? '?'}, slug ${s.slug ?? '?'}) id ${s.id}`;

export const spaceTools = [
  defineTool({
    name: 'list_spaces',
    title: 'List spaces',
    description:
      'Lists the spaces of the organisation the key belongs to (internal wikis, public knowledge bases, blogs), a page at a time. Start here to find the spaceId the other tools need.',
    effect: 'read',
    input: { mode: SpaceMode.optional().describe('Only spaces of this mode'), ...paging },
    output: pageOf(Space, 'Spaces of this page'),
    run: (api: KnowledgeApi, args) => api.get<Page<SpaceDoc>>('/spaces', args),
    summary: (r) =>
      `${r.items.length} space(s)${r.nextCursor ? ' (more: pass nextCursor)' : ''}:\n${r.items.map((s) => `- ${spaceLine(s)}`).join('\n')}`,
  }),
  defineTool({
    name: 'get_space',
    title: 'Get a space',
    description: 'Reads one space by its id: name, mode, slug.',
    effect: 'read',
    input: { spaceId: id('space') },
    output: Space.shape,
    run: (api, { spaceId }) => api.get<SpaceDoc>(`/spaces/${spaceId}`),
    summary: (s) => `Space ${spaceLine(s)}`,
  }),
  defineTool({
    name: 'create_space',
    title: 'Create a space',
    description:
      'Creates a space. mode internal is visible to members only; public_kb and blog are published under their slug on the public surface (only their published articles). The slug is unique across the whole service: a taken slug answers 409.',
    effect: 'create',
    input: {
      name: z.string().min(1).max(120).describe('Name of the space'),
      mode: SpaceMode,
      slug: slug(80, 'Slug, unique across the service; derived from the name when absent').optional(),
      description: z.string().max(1000).optional().describe('Short description'),
      language: SearchLanguage.optional(),
    },
    output: Space.shape,
    run: (api, args) => api.post<SpaceDoc>('/spaces', args),
    summary: (s) => `Created space ${spaceLine(s)}`,
  }),
  defineTool({
    name: 'update_space',
    title: 'Update a space',
    description:
      'Changes the name, slug, mode, description or search language of a space; fields left out keep their value. A taken slug answers 409 slug_taken.',
    effect: 'update',
    input: {
      spaceId: id('space'),
      name: z.string().min(1).max(120).optional().describe('New name'),
      slug: slug(80, 'New slug, unique across the service').optional(),
      mode: SpaceMode.optional().describe('New mode: internal takes the space off the public surface at once'),
      description: z.string().max(1000).nullable().optional().describe('New description (null clears it)'),
      language: SearchLanguage.optional(),
    },
    output: Space.shape,
    run: (api, { spaceId, ...changes }) => api.patch<SpaceDoc>(`/spaces/${spaceId}`, changes),
    summary: (s) => `Updated space ${spaceLine(s)}`,
  }),
  defineTool({
    name: 'delete_space',
    title: 'Delete a space',
    description:
      'Deletes a space for good with its collections, articles (their versions and comments), subscribers and statistics, and frees its slug. Destructive and irreversible: prefer archive_article for articles.',
    effect: 'destructive',
    input: { spaceId: id('space') },
    output: Deleted,
    run: async (api, { spaceId }) => {
      await api.delete(`/spaces/${spaceId}`);
      return { id: spaceId, deleted: true as const };
    },
    summary: (r) => `Deleted space ${r.id}`,
  }),
];

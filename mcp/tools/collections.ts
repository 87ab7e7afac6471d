import * as z from 'zod';
import type { Page } from '../api';
import { Collection, Deleted, id } from '../schemas';
import { defineTool } from './define';

type CollectionDoc = z.infer<typeof Collection>;

const line = (c: CollectionDoc) => `${c.name} id ${c.id}`;

export const collectionTools = [
  defineTool({
    name: 'list_collections',
    title: 'List collections of a space',
    description:
      'Lists the collections (groups of articles) of a space, in their order (at most 1000). An article may name one as its collectionId.',
    effect: 'read',
    input: { spaceId: id('space') },
    output: { items: z.array(Collection).describe('Collections of the space, in order') },
    run: (api, { spaceId }) => api.get<Page<CollectionDoc>>(`/spaces/${spaceId}/collections`),
    summary: (r) => `${r.items.length} collection(s):\n${r.items.map((c) => `- ${line(c)}`).join('\n')}`,
  }),
  defineTool({
    name: 'create_collection',
    title: 'Create a collection',
    description: 'Creates a collection in a space, to group articles; placed last unless sortOrder is given.',
    effect: 'create',
    input: {
      spaceId: id('space'),
      name: z.string().min(1).max(120).describe('Name of the collection'),
      description: z.string().max(1000).optional().describe('Short description'),
      sortOrder: z.number().int().min(0).optional().describe('Position among the collections of the space'),
    },
    output: Collection.shape,
    run: (api, { spaceId, ...body }) => api.post<CollectionDoc>(`/spaces/${spaceId}/collections`, body),
    summary: (c) => `Created collection ${line(c)}`,
  }),
  defineTool({
    name: 'update_collection',
    title: 'Update a collection',
    description: 'Renames a collection, changes its description or its position; fields left out keep their value.',
    effect: 'update',
    input: {
      collectionId: id('collection'),
      name: z.string().min(1).max(120).optional().describe('New name'),
      description: z.string().max(1000).nullable().optional().describe('New description (null clears it)'),
      sortOrder: z.number().int().min(0).optional().describe('New position among the collections of the space'),
    },
    output: Collection.shape,
    run: (api, { collectionId, ...changes }) => api.patch<CollectionDoc>(`/collections/${collectionId}`, changes),
    summary: (c) => `Updated collection ${line(c)}`,
  }),
  defineTool({
    name: 'delete_collection',
    title: 'Delete a collection',
    description: 'Deletes a collection. Its articles stay in the space, outside any collection.',
    effect: 'destructive',
    input: { collectionId: id('collection') },
    output: Deleted,
    run: async (api, { collectionId }) => {
      await api.delete(`/collections/${collectionId}`);
      return { id: collectionId, deleted: true as const };
    },
    summary: (r) => `Deleted collection ${r.id}`,
  }),
];

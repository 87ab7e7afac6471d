import * as z from 'zod';
import { Collection, Deleted, id, pageOf, paging } from '../schemas';
import { defineTool } from './define';

type CollectionDoc = z.infer<typeof Collection>;
type Page<T> = { items: T[]; nextCursor?: string | null };

const line = (c: CollectionDoc) => `${c.name} id ${c.id}`;

export const collectionTools = [
  defineTool({
    name: 'list_collections',
    title: 'List collections of a space',
    description: 'Lists the collections (groups of articles) of a space. Creating an article needs a collectionId from here.',
    effect: 'read',
    input: { spaceId: id('space'), ...paging },
    output: pageOf(Collection, 'Collections of this page'),
    run: (api, { spaceId, ...query }) => api.get<Page<CollectionDoc>>(`/spaces/${spaceId}/collections`, query),
    summary: (r) => `${r.items.length} collection(s)${r.nextCursor ? ' (more: pass nextCursor)' : ''}:\n${r.items.map((c) => `- ${line(c)}`).join('\n')}`,
  }),
  defineTool({
    name: 'create_collection',
    title: 'Create a collection',
    description: 'Creates a collection in a space, to group articles.',
    effect: 'create',
    input: {
      spaceId: id('space'),
      name: z.string().min(1).max(200).describe('Name of the collection'),
      description: z.string().max(2000).optional().describe('Short description'),
    },
    output: Collection.shape,
    run: (api, { spaceId, ...body }) => api.post<CollectionDoc>(`/spaces/${spaceId}/collections`, body),
    summary: (c) => `Created collection ${line(c)}`,
  }),
  defineTool({
    name: 'update_collection',
    title: 'Update a collection',
    description: 'Renames a collection or changes its description; fields left out keep their value.',
    effect: 'update',
    input: {
      collectionId: id('collection'),
      name: z.string().min(1).max(200).optional().describe('New name'),
      description: z.string().max(2000).optional().describe('New description'),
    },
    output: Collection.shape,
    run: (api, { collectionId, ...changes }) => api.patch<CollectionDoc>(`/collections/${collectionId}`, changes),
    summary: (c) => `Updated collection ${line(c)}`,
  }),
  defineTool({
    name: 'delete_collection',
    title: 'Delete a collection',
    description: 'Deletes a collection. Destructive; the service refuses (409) a collection that still holds articles: move or archive them first.',
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

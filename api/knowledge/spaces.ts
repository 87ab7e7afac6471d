import { createSpace } from '../../domain/knowledge/createSpace';
import { createCollection } from '../../domain/knowledge/createCollection';
import { deleteCollection } from '../../domain/knowledge/deleteCollection';
import { listCollections } from '../../domain/knowledge/listCollections';
import { updateCollection } from '../../domain/knowledge/updateCollection';
import { deleteSpace } from '../../domain/knowledge/deleteSpace';
import { listSpaces } from '../../domain/knowledge/listSpaces';
import { readSpace } from '../../domain/knowledge/store/spaces';
import { updateSpace } from '../../domain/knowledge/updateSpace';
import { IdParams } from '../http/dtos';
import { created, noContent } from '../http/routes';
import {
  KbCollectionBody,
  KbCreateSpaceBody,
  KbListSpacesQuery,
  KbUpdateCollectionBody,
  KbUpdateSpaceBody,
} from './dtos';
import type { Surface } from './surface';
import { KbCollectionListView, KbCollectionView, KbSpacePageView, KbSpaceView } from './views';
import * as docs from './spaces.docs';

/** Spaces and collections, on one surface. */
export function spaceRoutes({ r, prefix, gate, who }: Surface): void {
  r.get(
    `${prefix}/spaces`,
    {
      ...gate('read'),
      summary: 'List spaces',
      description: `The organisation's spaces, oldest first, optionally of one mode. For ${who}.`,
      query: KbListSpacesQuery,
      response: KbSpacePageView,
    },
    async ({ ctx, query }) => KbSpacePageView.from(await listSpaces(ctx, query)),
  );

  r.post(
    `${prefix}/spaces`,
    {
      ...gate('write'),
      summary: 'Create a space',
      description: docs.createSpace,
      body: KbCreateSpaceBody,
      response: KbSpaceView,
      status: 201,
      errors: { 409: '`slug_taken`' },
    },
    async ({ ctx, body }) => created(KbSpaceView.from(await createSpace(ctx, body))),
  );

  r.get(
    `${prefix}/spaces/:id`,
    { ...gate('read'), summary: 'Read a space', params: IdParams, response: KbSpaceView },
    async ({ ctx, params }) => KbSpaceView.from(await readSpace(ctx, params.id)),
  );

  r.patch(
    `${prefix}/spaces/:id`,
    {
      ...gate('write'),
      summary: 'Edit a space',
      description: docs.editSpace,
      params: IdParams,
      body: KbUpdateSpaceBody,
      response: KbSpaceView,
      errors: { 409: '`slug_taken`' },
    },
    async ({ ctx, params, body }) => KbSpaceView.from(await updateSpace(ctx, params.id, body)),
  );

  r.delete(
    `${prefix}/spaces/:id`,
    { ...gate('write'), summary: 'Delete a space', description: docs.deleteSpace, params: IdParams, status: 204 },
    async ({ ctx, params }) => {
      await deleteSpace(ctx, params.id);
      return noContent();
    },
  );

  r.get(
    `${prefix}/spaces/:id/collections`,
    {
      ...gate('read'),
      summary: 'Collections of a space',
      description: 'In order (sortOrder, then creation); at most 1000.',
      params: IdParams,
      response: KbCollectionListView,
    },
    async ({ ctx, params }) => ({ items: (await listCollections(ctx, params.id)).map(KbCollectionView.from) }),
  );

  r.post(
    `${prefix}/spaces/:id/collections`,
    {
      ...gate('write'),
      summary: 'Create a collection',
      description: 'Placed last unless sortOrder is given.',
      params: IdParams,
      body: KbCollectionBody,
      response: KbCollectionView,
      status: 201,
    },
    async ({ ctx, params, body }) => created(KbCollectionView.from(await createCollection(ctx, params.id, body))),
  );

  r.patch(
    `${prefix}/collections/:id`,
    {
      ...gate('write'),
      summary: 'Edit a collection',
      params: IdParams,
      body: KbUpdateCollectionBody,
      response: KbCollectionView,
    },
    async ({ ctx, params, body }) => KbCollectionView.from(await updateCollection(ctx, params.id, body)),
  );

  r.delete(
    `${prefix}/collections/:id`,
    {
      ...gate('write'),
      summary: 'Delete a collection',
      description: 'Its articles stay in the space, outside any collection.',
      params: IdParams,
      status: 204,
    },
    async ({ ctx, params }) => {
      await deleteCollection(ctx, params.id);
      return noContent();
    },
  );
}

import type { ModuleMount } from '../http/mount';
import { created, noContent } from '../http/routes';
import { IdParams } from '../http/dtos';
import { breadcrumb } from '../../domain/cloud/breadcrumb';
import { createFolder } from '../../domain/cloud/createFolder';
import { editNode } from '../../domain/cloud/editNode';
import { listContents } from '../../domain/cloud/listContents';
import { listSharedWithMe } from '../../domain/cloud/listSharedWithMe';
import { listStarred } from '../../domain/cloud/listStarred';
import { listTrash } from '../../domain/cloud/listTrash';
import { searchItems, type SearchProps } from '../../domain/cloud/searchItems';
import { restoreNode } from '../../domain/cloud/restoreNode';
import { trashItems } from '../../domain/cloud/trashItems';
import { setStar } from '../../domain/cloud/setStar';
import {
  CloudContentsQuery,
  CloudCreateFolderBody,
  CloudEditNodeBody,
  CloudPageQuery,
  CloudSearchQuery,
  CloudStarBody,
} from './dtos';
import {
  CloudBreadcrumbView,
  CloudFolderContentsView,
  CloudItemPageView,
  CloudItemView,
  CloudTrashPageView,
} from './views';
import { davLockedError, restoreConflictError } from './files.docs';
import {
  deleteFoldersIdDoc,
  folderContentsDoc,
  getFoldersSearchDoc,
  getFoldersSharedWithMeDoc,
  getFoldersTrashDoc,
  patchFoldersIdDoc,
  postFoldersIdRestoreDoc,
} from './folders.docs';

/** Folders of the drive: listings (contents, search, starred, trash, breadcrumb) and folder changes. */
export function folderRoutes({ routes }: ModuleMount): void {
  const r = routes('Cloud folders');
  const read = { access: 'user', module: 'cloud', permission: 'cloud.read' } as const;
  const write = { access: 'user', module: 'cloud', permission: 'cloud.write' } as const;

  r.get(
    '/api/cloud/folders/contents',
    {
      ...read,
      summary: 'Root contents',
      description: folderContentsDoc,
      query: CloudContentsQuery,
      response: CloudFolderContentsView,
    },
    async ({ ctx, query }) => CloudFolderContentsView.fromContents(await listContents(ctx, null, query)),
  );

  r.get(
    '/api/cloud/folders/:id/contents',
    {
      ...read,
      summary: 'Folder contents',
      description: `${folderContentsDoc} A trashed folder is 404.`,
      params: IdParams,
      query: CloudContentsQuery,
      response: CloudFolderContentsView,
    },
    async ({ ctx, params, query }) => CloudFolderContentsView.fromContents(await listContents(ctx, params.id, query)),
  );

  r.get(
    '/api/cloud/folders/:id/breadcrumb',
    { ...read, summary: 'Breadcrumb of a folder', params: IdParams, response: CloudBreadcrumbView },
    async ({ ctx, params }) => ({ items: await breadcrumb(ctx, params.id) }),
  );

  r.get(
    '/api/cloud/folders/search',
    {
      ...read,
      summary: 'Search files and folders',
      description: getFoldersSearchDoc,
      query: CloudSearchQuery,
      response: CloudItemPageView,
      errors: { 404: 'folderId is not a live folder of the organisation' },
    },
    async ({ ctx, query }) => CloudItemPageView.from(await searchItems(ctx, query as SearchProps)),
  );

  r.get(
    '/api/cloud/folders/starred',
    {
      ...read,
      summary: "The caller's starred files and folders",
      description: 'By name.',
      query: CloudPageQuery,
      response: CloudItemPageView,
    },
    async ({ ctx, query }) => CloudItemPageView.from(await listStarred(ctx, query)),
  );

  r.get(
    '/api/cloud/folders/shared-with-me',
    {
      ...read,
      summary: 'Files shared with the caller',
      description: getFoldersSharedWithMeDoc,
      query: CloudPageQuery,
      response: CloudItemPageView,
    },
    async ({ ctx, query }) => {
      const page = await listSharedWithMe(ctx, query);
      return CloudItemPageView.from({ ...page, items: page.items.map((e) => e.item) });
    },
  );

  r.get(
    '/api/cloud/folders/trash',
    { ...read, summary: 'Trash', description: getFoldersTrashDoc, query: CloudPageQuery, response: CloudTrashPageView },
    async ({ ctx, query }) => CloudTrashPageView.from(await listTrash(ctx, query)),
  );

  r.post(
    '/api/cloud/folders',
    {
      ...write,
      summary: 'Create a folder',
      description: 'In parentId (root when absent). A name taken there becomes "name (2)", like uploads.',
      body: CloudCreateFolderBody,
      response: CloudItemView,
      status: 201,
      errors: {
        404: 'Parent folder not found',
        409: '`name_taken`: concurrent creations took every free name tried; try again',
      },
    },
    async ({ ctx, body }) => created(CloudItemView.from(await createFolder(ctx, body))),
  );

  r.patch(
    '/api/cloud/folders/:id',
    {
      ...write,
      summary: 'Rename a folder or edit its description',
      description: patchFoldersIdDoc,
      params: IdParams,
      body: CloudEditNodeBody,
      response: CloudItemView,
      errors: { 409: '`name_taken`', 423: davLockedError },
    },
    async ({ ctx, params, body }) => CloudItemView.from(await editNode(ctx, params.id, 'folder', body)),
  );

  r.post(
    '/api/cloud/folders/:id/star',
    { ...read, summary: 'Star or unstar a folder', params: IdParams, body: CloudStarBody, response: CloudItemView },
    async ({ ctx, params, body }) => CloudItemView.from(await setStar(ctx, params.id, 'folder', body.starred)),
  );

  r.post(
    '/api/cloud/folders/:id/restore',
    {
      ...write,
      summary: 'Restore a folder from the trash',
      description: postFoldersIdRestoreDoc,
      params: IdParams,
      response: CloudItemView,
      errors: { 409: restoreConflictError },
    },
    async ({ ctx, params }) => CloudItemView.from(await restoreNode(ctx, params.id, 'folder')),
  );

  r.delete(
    '/api/cloud/folders/:id',
    {
      ...write,
      summary: 'Delete a folder',
      description: deleteFoldersIdDoc,
      params: IdParams,
      status: 204,
      errors: { 423: davLockedError },
    },
    async ({ ctx, params }) => {
      await trashItems(ctx, { folderIds: [params.id] });
      return noContent();
    },
  );
}

import type { ModuleMount } from '../http/mount';
import { accountRoutes } from './account';
import { fileRoutes } from './files';
import { folderRoutes } from './folders';
import { shareRoutes } from './shares';
import { uploadRoutes } from './uploads';
import { versionRoutes } from './versions';
import { DAV_PREFIX, webdavHandler } from './webdav';

/** Cloud storage: files and folders on object storage, shares, versions, favourites, trash, quota, office documents, WebDAV. */
export function cloudApi(mount: ModuleMount): void {
  fileRoutes(mount);
  uploadRoutes(mount);
  folderRoutes(mount);
  shareRoutes(mount);
  versionRoutes(mount);
  accountRoutes(mount);
  mount.handle(DAV_PREFIX, webdavHandler(mount.services));
}

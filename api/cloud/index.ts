import type { ModuleMount } from '../http/mount';
import { accountRoutes } from './account';
import { fileRoutes } from './files';
import { folderRoutes } from './folders';
import { shareRoutes } from './shares';

/** Cloud storage: files and folders on object storage, shares, favourites, trash, quota, office documents. */
export function cloudApi(mount: ModuleMount): void {
  fileRoutes(mount);
  folderRoutes(mount);
  shareRoutes(mount);
  accountRoutes(mount);
}

import type { TenantContext } from '../../context';
import { childNamed, type DavNode } from '../store/dav';
import type { DavPath } from './paths';

/** The root folder of the drive, as WebDAV shows it (it has no row). */
export const ROOT: DavNode = {
  id: '',
  kind: 'folder',
  name: '',
  parentId: null,
  size: 0,
  contentType: null,
  objectKey: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
};

export const isRoot = (node: DavNode) => node.id === '';
/** The folder id of a node for the statements (null: the root). */
export const folderIdOf = (node: DavNode) => (isRoot(node) ? null : node.id);

export interface Resolved {
  /** The node at the path, or null when it is unmapped. */
  node: DavNode | null;
  /** The folder holding the path, or null when an ancestor is missing or is a file (409 for a creation). */
  parent: DavNode | null;
}

/** The node a path names, walking the drive from the root one name at a time (one indexed lookup each). */
export async function resolvePath(ctx: TenantContext, path: DavPath): Promise<Resolved> {
  if (!path.length) return { node: ROOT, parent: null };
  let current: DavNode = ROOT;
  for (let i = 0; i < path.length - 1; i++) {
    const next = await childNamed(ctx.em, ctx.tenantId, folderIdOf(current), path[i]);
    if (!next || next.kind !== 'folder') return { node: null, parent: null };
    current = next;
  }
  return { node: await childNamed(ctx.em, ctx.tenantId, folderIdOf(current), path[path.length - 1]), parent: current };
}

/** The entity tag of a node: it changes whenever its content or name changes (strong, quoted). */
export const etagOf = (node: DavNode) =>
  isRoot(node) ? '"root"' : `"${node.id.replace(/-/g, '')}-${node.updatedAt.getTime().toString(36)}-${node.size}"`;

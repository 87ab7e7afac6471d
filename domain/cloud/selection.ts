import type { NodeKind } from '../../entities/cloud/node';
import type { Em } from '../../lib/db';
import { AppError } from '../../lib/errors';
import { lockLiveNodes } from './store/nodes';

/** Files and folders named by a bulk change (trash, move). */
export interface NodeSelection {
  fileIds?: string[];
  folderIds?: string[];
}

/** The nodes a selection names, folders first (an id named twice appears twice). */
const named = (selection: NodeSelection): { id: string; kind: NodeKind }[] => [
  ...(selection.folderIds ?? []).map((id) => ({ id, kind: 'folder' as const })),
  ...(selection.fileIds ?? []).map((id) => ({ id, kind: 'file' as const })),
];

/**
 * The nodes of `wanted` not found with their kind: a 404 naming them all (nothing changed), or nothing to say.
 * An id named both as a file and as a folder is missing as the kind it is not.
 */
export function missingProblem(
  wanted: { id: string; kind: NodeKind }[],
  found: Map<string, NodeKind>,
): AppError | null {
  const missing = wanted.filter((w) => found.get(w.id) !== w.kind);
  return missing.length
    ? new AppError(
        404,
        'not_found',
        `Not found (nothing was changed): ${missing.map((m) => `${m.kind} ${m.id}`).join(', ')}`,
      )
    : null;
}

/**
 * Locks the live drive nodes named (FOR UPDATE) and checks they all exist: all or nothing, an unknown (or
 * trashed, or another organisation's) id is a 404 naming it and nothing changes.
 */
export async function lockSelection(
  em: Em,
  tenantId: string,
  selection: NodeSelection,
): Promise<{ id: string; kind: NodeKind }[]> {
  const wanted = named(selection);
  const rows = await lockLiveNodes(em, tenantId, [...new Set(wanted.map((w) => w.id))]);
  const problem = missingProblem(wanted, new Map(rows.map((r) => [r.id, r.kind])));
  if (problem) throw problem;
  return wanted.filter((w, i) => wanted.findIndex((x) => x.id === w.id) === i);
}

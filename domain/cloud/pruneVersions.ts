import type { Services } from '../services';
import { freedBytes } from './purge';
import { addUsage } from './store/usage';
import { deleteVersions, filesWithVersions, lockAgedVersions } from './store/versions';
import { versionsToPrune } from './versionRetention';

/**
 * The versions' retention (the clock's cloud sweep): every file having versions, a batch of files at a time, is
 * thinned by versionsToPrune (by age, then CLOUD_VERSIONS_MAX_PER_FILE), each file in one transaction holding its
 * versions: the objects deleted, then the rows and their bytes in the quota. Returns how many versions it deleted.
 */
export async function pruneVersions(services: Services, batch = 200, now = new Date()): Promise<number> {
  const max = services.config.CLOUD_VERSIONS_MAX_PER_FILE;
  let after: { tenantId: string; fileId: string } | null = null;
  let deleted = 0;
  for (;;) {
    const files = await filesWithVersions(services.orm.em.fork(), after, batch);
    for (const { tenant_id: tenantId, file_id: fileId } of files) {
      deleted += await services.orm.em.fork().transactional(async (tx) => {
        const versions = await lockAgedVersions(tx, tenantId, fileId);
        const doomed = new Set(
          versionsToPrune(
            versions.map((v) => ({ id: v.id, at: new Date(v.content_at) })),
            now,
            max,
          ),
        );
        const pruned = versions.filter((v) => doomed.has(v.id));
        if (!pruned.length) return 0;
        for (const version of pruned) await services.storage.remove(version.object_key);
        await deleteVersions(
          tx,
          tenantId,
          pruned.map((v) => v.id),
        );
        for (const [category, bytes] of freedBytes(pruned.map((v) => ({ ...v, kind: 'file' }))))
          await addUsage(tx, tenantId, -bytes, category);
        return pruned.length;
      });
    }
    if (files.length < batch) return deleted;
    const last = files[files.length - 1];
    after = { tenantId: last.tenant_id, fileId: last.file_id };
  }
}

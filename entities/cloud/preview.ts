import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../base';

export const previewStates = ['ready', 'failed'] as const;
export type PreviewState = (typeof previewStates)[number];

/**
 * The thumbnail of a file's content (domain/cloud/makePreview.ts): one per file, of the object it was made from
 * (`sourceKey`, the file's object key then). It is current while the file's object key is still that one; an
 * overwrite or a restore makes it stale until the worker makes the new one. `failed`: the content could not be
 * decoded as an image, so it is not tried again for that content. Stored beside the file under `objectKey`, not
 * counted in the quota (the suite makes it, at most a few tens of KB), deleted with the file.
 */
export const CloudPreview = defineEntity({
  name: 'CloudPreview',
  tableName: 'cloud_previews',
  filters: tenantFilter,
  properties: {
    nodeId: p.uuid().primary(),
    tenantId: p.uuid(),
    sourceKey: p.string().length(200),
    state: p.enum([...previewStates]),
    objectKey: p.string().length(200).nullable(),
    width: p.integer().nullable(),
    height: p.integer().nullable(),
    size: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type CloudPreview = InferEntity<typeof CloudPreview>;

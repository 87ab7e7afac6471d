import { pruneVersions } from '../../domain/cloud/pruneVersions';
import { cloudVersionsQueue } from '../../queues/cloud';
import { defineProcessor } from '../define';

/** Thins every file's versions by the retention rule and CLOUD_VERSIONS_MAX_PER_FILE, deleting their objects. */
export const cloudVersionsProcessor = defineProcessor(cloudVersionsQueue, {
  perform: async (_payload, { services }) => ({ versions: await pruneVersions(services) }),
});

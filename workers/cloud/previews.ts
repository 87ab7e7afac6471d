import { makePreview } from '../../domain/cloud/makePreview';
import { cloudPreviewsQueue } from '../../queues/cloud';
import { defineProcessor } from '../define';

/** Makes the thumbnail of a drive image's current content (or records that it has none). */
export const cloudPreviewsProcessor = defineProcessor(cloudPreviewsQueue, {
  perform: (payload, { services }) => makePreview(services, payload),
});

import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type SharpType from 'sharp';
import { onFirstUse } from '../../lib/lazy';
import type { Services } from '../services';
import { renderPdfPage } from './renderPdfPage';
import { previewSource, recordPreview } from './store/previews';

/** The longest side of a thumbnail, in pixels (Nextcloud's grid asks 256-512; a retina grid wants 512). */
export const PREVIEW_SIZE = 512;
/** Images of more pixels are not decoded (a decompression bomb stays small on disk): 50 megapixels. */
const MAX_PIXELS = 50_000_000;
/** Types libvips renders that a browser-side preview should not come from: SVG may reference other resources. */
const NOT_PREVIEWED = /^image\/svg/;

const sharp = onFirstUse(() => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require('sharp') as typeof SharpType;
  // One libvips thread and no cache: the worker dyno runs other jobs beside it.
  loaded.concurrency(1);
  loaded.cache(false);
  return loaded;
});

/** A PDF, whatever type it was given: its header (ISO 32000 7.5.2 allows it within the first 1024 bytes). */
const isPdf = (bytes: Buffer) => bytes.subarray(0, 1024).includes('%PDF-');

/** Where a preview of a content lives: beside the file, one key per content, so a late job never overwrites a newer one. */
export const previewKeyOf = (tenantId: string, nodeId: string, sourceKey: string) =>
  `${tenantId}/previews/${nodeId}/${createHash('sha256').update(sourceKey).digest('hex').slice(0, 16)}.webp`;

async function readAll(stream: Readable, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) {
      stream.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The preview job: a WebP thumbnail (PREVIEW_SIZE on its longest side, EXIF orientation applied, never enlarged) of
 * the file's current content (an image, or a PDF's first page), stored beside it and recorded while that content is still current. What cannot be
 * decoded (a corrupt or unsupported image, SVG, too large) is recorded `failed` for that content, so it is not tried
 * again until the content changes; a storage or database failure throws, so the job is retried. Safe to run twice.
 */
export async function makePreview(
  services: Services,
  job: { tenantId: string; nodeId: string },
): Promise<{ state: 'ready' | 'failed' | 'current' | 'gone' | 'stale' }> {
  const em = services.orm.em.fork();
  const source = await previewSource(em, job.tenantId, job.nodeId);
  if (!source) return { state: 'gone' };
  if (source.preview_source === source.object_key) return { state: 'current' };
  const max = services.config.CLOUD_PREVIEW_MAX_BYTES;
  const bytes =
    Number(source.size) > max || NOT_PREVIEWED.test(source.content_type ?? '')
      ? null
      : await readAll(await services.storage.get(source.object_key), max);
  // A PDF's first page, rendered at the thumbnail's size, goes the way of an image.
  const pdf = bytes && !source.content_type?.startsWith('image/') && isPdf(bytes);
  const image = pdf ? await renderPdfPage(bytes, PREVIEW_SIZE, services.logger) : bytes;
  let made: { data: Buffer; info: SharpType.OutputInfo } | null = null;
  if (image) {
    made = await sharp()(image, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize(PREVIEW_SIZE, PREVIEW_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer({ resolveWithObject: true })
      .catch((err: Error) => {
        services.logger.info({ err: err.message, fileId: job.nodeId }, 'cloud preview: not an image libvips decodes');
        return null;
      });
  }
  const objectKey = made ? previewKeyOf(job.tenantId, job.nodeId, source.object_key) : null;
  if (made && objectKey) await services.storage.put(objectKey, made.data, 'image/webp', made.data.length);
  const replaced = await recordPreview(em, {
    tenantId: job.tenantId,
    nodeId: job.nodeId,
    sourceKey: source.object_key,
    state: made ? 'ready' : 'failed',
    objectKey,
    width: made?.info.width ?? null,
    height: made?.info.height ?? null,
    size: made?.data.length ?? null,
  });
  // The file moved on meanwhile (its new content has a job of its own): what was made is nobody's.
  if (replaced === false) {
    if (objectKey) await services.storage.remove(objectKey);
    return { state: 'stale' };
  }
  if (replaced) await services.storage.remove(replaced);
  return { state: made ? 'ready' : 'failed' };
}

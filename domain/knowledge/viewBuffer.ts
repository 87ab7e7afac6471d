import type { Services } from '../services';
import { countViews, type FieldViews } from './store/stats';

/** Past this many fields waiting, the buffer is written at once (memory stays bounded under a flood of reads). */
const MAX_FIELDS = 5000;

/**
 * Views counted in the dyno's memory and written to Redis in one transaction KNOWLEDGE_VIEW_FLUSH_MS after the
 * first one waiting (and when the dyno closes), so that a read sends no Redis command of its own. A dyno killed
 * loses at most that window of views: reading statistics are best effort (a Redis failure loses them too).
 */
export class ViewBuffer {
  private waiting = new Map<string, FieldViews>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly services: Services,
    private readonly everyMs: number,
  ) {}

  add(fields: readonly string[], reader: string): void {
    for (const field of fields) {
      const views = this.waiting.get(field);
      if (views) {
        views.count++;
        views.readers.add(reader);
      } else this.waiting.set(field, { count: 1, readers: new Set([reader]) });
    }
    if (this.waiting.size >= MAX_FIELDS) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.everyMs);
      this.timer.unref();
    }
  }

  /** Writes what waits; a Redis failure is only logged (those views are lost). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const views = this.waiting;
    if (!views.size) return;
    this.waiting = new Map();
    try {
      await countViews(this.services, views);
    } catch (err) {
      this.services.logger.debug({ err: (err as Error).message, fields: views.size }, 'knowledge views not counted');
    }
  }
}

const buffers = new WeakMap<Services, ViewBuffer>();

/** The process's buffer (one per Services), written before the services close. */
export function viewBufferOf(services: Services): ViewBuffer {
  let buffer = buffers.get(services);
  if (!buffer) {
    const created = new ViewBuffer(services, services.config.KNOWLEDGE_VIEW_FLUSH_MS);
    services.beforeClose(() => created.flush());
    buffers.set(services, created);
    buffer = created;
  }
  return buffer;
}

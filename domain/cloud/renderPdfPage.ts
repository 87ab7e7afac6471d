import { spawn } from 'node:child_process';

/** A page a worker will not wait longer for (a hostile or huge PDF): the renderer is killed. */
const RENDER_TIMEOUT_MS = 20_000;
/** A PNG of PREVIEW_SIZE pixels is tens of KB; anything far past that is not a thumbnail. */
const MAX_OUTPUT = 16 * 1024 * 1024;

let missingLogged = false;

/**
 * The first page of a PDF as a PNG of `size` pixels on its longest side, rendered by poppler's pdftoppm (the renderer
 * libvips itself uses for PDF, absent from sharp's prebuilt one) in a child process: a PDF that crashes or hangs the
 * renderer costs that process, not the worker, and is killed after RENDER_TIMEOUT_MS. Null when it cannot be
 * rendered (corrupt, encrypted, too slow) or pdftoppm is not installed (poppler-utils; logged once).
 */
export function renderPdfPage(
  pdf: Buffer,
  size: number,
  logger: { warn: (obj: object, msg: string) => void },
): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const child = spawn('pdftoppm', ['-f', '1', '-l', '1', '-png', '-scale-to', String(size)], {
      stdio: ['pipe', 'pipe', 'ignore'],
      timeout: RENDER_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    const chunks: Buffer[] = [];
    let length = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > MAX_OUTPUT) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' && !missingLogged) {
        missingLogged = true;
        logger.warn({}, 'cloud previews: pdftoppm (poppler-utils) is not installed, PDFs get no preview');
      }
      resolve(null);
    });
    child.on('close', (code) =>
      resolve(code === 0 && length > 0 && length <= MAX_OUTPUT ? Buffer.concat(chunks) : null),
    );
    // The renderer may stop reading early (it failed): its closed stdin is not our error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(pdf);
  });
}

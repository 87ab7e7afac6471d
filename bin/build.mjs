#!/usr/bin/env node
/**
 * `npm run build` (and `npm start`): transpiles to dist/ with esbuild (file by file, no bundle: a few seconds where
 * tsc took a minute of CPU and 1.4 GB), only when a source changed since the last build; the types are checked by
 * `npm run typecheck` (part of npm test), not here. When source files were added or removed dist/ is rebuilt from
 * scratch, so no output of a deleted file (a migration!) lingers. Plain JavaScript: it runs before anything is
 * compiled. `--force` rebuilds anyway.
 *
 * `--start` (npm start) then runs the all-in-one process (dist/bin/start.js) in this very process, not after a
 * shell's `&&`: a signal sent to npm alone (what `docker stop` sends to CMD ["npm", "start"]; npm forwards it to
 * its child) reaches the server, which shuts down in order instead of running on orphaned.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const stampFile = join(dist, '.build-stamp.json');
const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8'));
const inputs = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json', ...tsconfig.include];

function walk(path, found) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return found;
  if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name), found);
  else if (/\.(ts|json)$/.test(path) || path.endsWith('package-lock.json'))
    found.push({ file: relative(root, path), mtimeMs: stat.mtimeMs });
  return found;
}

const files = inputs.flatMap((input) => walk(join(root, input), []));
const fileSet = createHash('sha256')
  .update(
    files
      .map((f) => f.file)
      .sort()
      .join('\n'),
  )
  .digest('hex');
const newest = Math.max(...files.map((f) => f.mtimeMs));
const stamp = existsSync(stampFile) ? JSON.parse(readFileSync(stampFile, 'utf8')) : null;

const upToDate =
  !process.argv.includes('--force') &&
  stamp &&
  stamp.fileSet === fileSet &&
  stamp.newestMtimeMs >= newest &&
  existsSync(join(dist, 'bin/start.js'));
if (upToDate) console.log('dist/ is up to date (no source changed since the last build)');
else await build();
if (process.argv.includes('--start')) await import(pathToFileURL(join(dist, 'bin/start.js')).href);

async function build() {
  const fresh = !stamp || stamp.fileSet !== fileSet;
  if (fresh) rmSync(dist, { recursive: true, force: true });
  console.log(
    `${fresh ? 'Building' : 'Sources changed: rebuilding'} dist/ (esbuild, a few seconds; types are checked by npm test) ...`,
  );
  const started = Date.now();
  const sources = files
    .map((f) => f.file)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'));
  const { build: transpile } = createRequire(import.meta.url)('esbuild');
  try {
    // One file in, one file out, as tsc emits them (no bundle): CommonJS for Node 20, the project's decorators and
    // class field semantics (target ES2022 defines fields, as tsc does), source maps for stack traces.
    await transpile({
      entryPoints: sources.map((file) => join(root, file)),
      outdir: dist,
      outbase: root,
      bundle: false,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      logLevel: 'warning',
      tsconfigRaw: {
        compilerOptions: {
          experimentalDecorators: true,
          target: 'ES2022',
          useDefineForClassFields: true,
          esModuleInterop: true,
        },
      },
    });
  } catch {
    console.error('The build failed: see the errors above');
    process.exit(1);
  }
  // lib/package.ts reads ../package.json: beside dist/lib/, as tsc (resolveJsonModule) emitted it.
  copyFileSync(join(root, 'package.json'), join(dist, 'package.json'));
  writeFileSync(stampFile, JSON.stringify({ fileSet, newestMtimeMs: newest, builtAt: new Date().toISOString() }));
  console.log(`Built ${sources.length} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

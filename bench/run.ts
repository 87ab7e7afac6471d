import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm run bench [-- name ...]`: runs the named benchmarks (default: all of bench/*.ts but the helpers lib.ts and
 * run.ts; other helpers live in bench/support/) one after the other, each in its own process so they do not
 * disturb each other.
 */
const all = readdirSync(__dirname)
  .filter((f) => f.endsWith('.ts') && !['lib.ts', 'run.ts'].includes(f))
  .map((f) => f.replace(/\.ts$/, ''));
const chosen = process.argv.slice(2).length ? process.argv.slice(2) : all;
let failed = 0;
for (const name of chosen) {
  if (!all.includes(name)) {
    console.error(`unknown benchmark ${name}; available: ${all.join(', ')}`);
    process.exit(2);
  }
  console.log(`\n== bench/${name}`);
  // The dynos' V8 setting (Procfile): a larger young generation, so short-lived request objects die young.
  const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=32`.trim() };
  const run = spawnSync(process.execPath, [require.resolve('tsx/cli'), join(__dirname, `${name}.ts`)], {
    stdio: 'inherit',
    env,
  });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);

import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * `npm run lint:openapi [-- <file or URL>]` (default http://localhost:3000/openapi.json): the Redocly CLI's
 * recommended ruleset on the published document. Exits 1 on any error; test/platform/system.test.ts runs it on
 * every test run. The CLI (pinned in package.json) carries newer rules than the last @redocly/openapi-core
 * published as a library, so it is what clients meet.
 */

/** Problems that come from the spec itself, not from us: each names its rule, its place and why it stays. */
const specExceptions = [
  {
    ruleId: 'no-identical-paths',
    pointer: '#/paths/~1api~1promo~1{id}',
    why: 'the spec names GET /api/promo/{code} (look up a code) and PUT, DELETE /api/promo/{id} (edit, delete): one template, two names',
  },
];

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

async function main() {
  const source = process.argv[2] ?? 'http://localhost:3000/openapi.json';
  let file = source;
  if (/^https?:/.test(source)) {
    file = join(mkdtempSync(join(tmpdir(), 'lint-openapi-')), 'openapi.json');
    writeFileSync(file, await (await fetch(source)).text());
  }
  const cli = join(require.resolve('@redocly/cli/package.json'), '..', 'bin', 'cli.js');
  // No telemetry, no update notice (the CLI would reach redocly.com); it exits 1 when it finds errors.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const run = promisify(execFile)(
    process.execPath,
    [cli, 'lint', file, '--extends=recommended', '--format=json', '--max-problems=100000'],
    { env, maxBuffer: 256 * 1024 ** 2 },
  );
  const { stdout } = await run.catch((err: { stdout?: string; stderr?: string }) => {
    if (!err.stdout) throw new Error(`redocly lint failed: ${err.stderr ?? String(err)}`);
    return { stdout: err.stdout };
  });
  const { problems } = JSON.parse(stdout) as { problems: Problem[] };
  const excepted = (ruleId: string, pointer: string) =>
    specExceptions.find((e) => e.ruleId === ruleId && e.pointer === pointer);
  let errors = 0;
  for (const p of problems) {
    const pointer = p.location[0]?.pointer ?? '';
    const exception = excepted(p.ruleId, pointer);
    if (p.severity === 'error' && !exception) errors++;
    console.log(
      `${exception ? 'known' : p.severity} ${p.ruleId} ${pointer}: ${p.message}${exception ? ` (${exception.why})` : ''}`,
    );
  }
  console.log(
    `Redocly recommended: ${errors} errors, ${problems.filter((p) => p.severity === 'warn').length} warnings`,
  );
  process.exit(errors ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});

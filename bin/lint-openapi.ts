import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';

/**
 * `npm run lint:openapi [-- <file or URL>]` (default http://localhost:3000/openapi.json): Redocly's recommended
 * ruleset on the published document. Exits 1 on any error; test/platform/system.test.ts runs it on every test run.
 */

/** Problems that come from the spec itself, not from us: each names its rule, its place and why it stays. */
const specExceptions = [
  {
    ruleId: 'no-identical-paths',
    pointer: '#/paths/~1api~1promo~1{id}',
    why: 'the spec names GET /api/promo/{code} (look up a code) and PUT, DELETE /api/promo/{id} (edit, delete): one template, two names',
  },
];

async function main() {
  const source = process.argv[2] ?? 'http://localhost:3000/openapi.json';
  const text = /^https?:/.test(source) ? await (await fetch(source)).text() : readFileSync(source, 'utf8');
  const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config: await createConfig({ extends: ['recommended'] }) });
  const excepted = (ruleId: string, pointer: string) => specExceptions.find((e) => e.ruleId === ruleId && e.pointer === pointer);
  let errors = 0;
  for (const p of problems) {
    const pointer = p.location[0]?.pointer ?? '';
    const exception = excepted(p.ruleId, pointer);
    if (p.severity === 'error' && !exception) errors++;
    console.log(`${exception ? 'known' : p.severity} ${p.ruleId} ${pointer}: ${p.message}${exception ? ` (${exception.why})` : ''}`);
  }
  console.log(`Redocly recommended: ${errors} errors, ${problems.filter((p) => p.severity === 'warn').length} warnings`);
  process.exit(errors ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});

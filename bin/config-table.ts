import { readFileSync, writeFileSync } from 'node:fs';
import { configSpec } from '../lib/config';

/**
 * `npx tsx bin/config-table.ts [--write]` prints (or writes into docs/configuration.md) the configuration table from lib/config.ts, the one
 * place variables are declared (test/platform/readme.test.ts checks docs/configuration.md lists each of them).
 */
const production = new Set(['DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'PUBLIC_URL']);
const rows = Object.entries(configSpec).map(([name, spec]) => {
  const s = spec as { default?: unknown; devDefault?: unknown; desc?: string; choices?: readonly unknown[] };
  const local = production.has(name)
    ? {
        DATABASE_URL: '`postgres://postgres@127.0.0.1:5432/platform`',
        REDIS_URL: '`redis://127.0.0.1:6379`',
        JWT_SECRET: 'generated, kept in `.data/jwt-secret`',
        PUBLIC_URL: '`http://localhost:$PORT`',
      }[name]
    : s.default === ''
      ? '(unset)'
      : `\`${String(s.default)}\``;
  const choices = s.choices ? ` One of ${s.choices.map((c) => `\`${String(c)}\``).join(', ')}.` : '';
  return `| \`${name}\` | ${production.has(name) ? '**required in production**; locally ' + local : local} | ${(s.desc ?? '').replace(/\|/g, '\\|')}${choices} |`;
});
const table = ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
if (process.argv.includes('--write')) {
  const file = 'docs/configuration.md';
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      /<!-- config-table -->[\s\S]*<!-- \/config-table -->/,
      `<!-- config-table -->\n${table}\n<!-- /config-table -->`,
    ),
  );
} else {
  console.log(table);
}

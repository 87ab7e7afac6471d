import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { planCatalogue, REFERENCE_TABLES } from '../domain/platform/distribution/plan';
import { readCatalogue } from '../domain/platform/distribution/store';

/**
 * `npx tsx bin/distribution-plan.ts [--write]` reads the catalogue of the migrated database at DATABASE_URL (or
 * MIGRATION_DATABASE_URL) and prints (or writes into docs/scale-out.md) the distribution plan, table by table:
 * distributed by tenant_id or reference data, and what keeps each from distributing today.
 */
async function main(): Promise<void> {
  const url =
    process.env.MIGRATION_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/platform';
  const client = new Client({ connectionString: url });
  await client.connect();
  const plans = planCatalogue(await readCatalogue(async (sql) => (await client.query(sql)).rows));
  await client.end();
  const rows = plans.map((p) => {
    const how = p.distribution === 'reference' ? `reference: ${REFERENCE_TABLES[p.table]}` : p.distribution;
    const todo = p.findings.length ? p.findings.join('; ') : 'ready';
    return `| \`${p.table}\` | ${how} | ${todo} |`;
  });
  const table = ['| Table | Distribution | To do before it distributes |', '| --- | --- | --- |', ...rows].join('\n');
  if (!process.argv.includes('--write')) {
    console.log(table);
    return;
  }
  const file = resolve(__dirname, '../docs/scale-out.md');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace(
      /<!-- distribution-plan -->[\s\S]*<!-- \/distribution-plan -->/,
      `<!-- distribution-plan -->\n${table}\n<!-- /distribution-plan -->`,
    ),
  );
}

void main();

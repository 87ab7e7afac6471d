import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configSpec } from '../../lib/config';

/** The README stays true: the test command, and every variable of lib/config.ts in the configuration table. */
describe('README', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('shows the two commands', () => {
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });

  it('runs in CI the test commands it shows', () => {
    const ci = readFileSync('.ci/run', 'utf8');
    for (const command of ['npm test', 'npm run test:faults']) {
      expect(readme).toContain(command);
      expect(ci).toContain(`\n${command}\n`);
    }
  });

  it.each(Object.keys(configSpec))('documents %s', (name) => {
    expect(readme).toContain(`| \`${name}\` |`);
  });

  it('documents every TEST_ variable the tests read', () => {
    const used = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else if (entry.name.endsWith('.ts')) for (const [, name] of readFileSync(join(dir, entry.name), 'utf8').matchAll(/process\.env\.(TEST_\w+)/g)) used.add(name);
      }
    };
    walk('test');
    expect(used.size).toBeGreaterThan(0);
    for (const name of used) expect(`${name}: ${readme.includes(`| \`${name}\` |`)}`).toBe(`${name}: true`);
  });

  it('links only to files of the repository', () => {
    for (const [, target] of readme.matchAll(/\]\(([^)]+)\)/g)) {
      if (/^(https?:|#|\/)/.test(target)) continue;
      expect(`${target}: ${existsSync(target)}`).toBe(`${target}: true`);
    }
    expect(readme).not.toContain('../');
  });

  it('lists every benchmark', () => {
    const benches = readdirSync('bench')
      .filter((f: string) => f.endsWith('.ts') && !['lib.ts', 'run.ts'].includes(f))
      .map((f: string) => f.replace(/\.ts$/, ''));
    for (const name of benches) expect(readme).toContain(`| \`${name}\` |`);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configSpec } from '../../lib/config';

/**
 * The README and docs/ stay true: the README shows the test commands CI runs; docs/configuration.md lists every
 * variable of lib/config.ts and every TEST_ variable; docs/benchmarks.md every benchmark; links name files.
 */
describe('README and docs/', () => {
  const readme = readFileSync('README.md', 'utf8');
  const configuration = readFileSync('docs/configuration.md', 'utf8');

  it('shows the two commands', () => {
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });

  it('stays about one screen', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(90);
  });

  it('runs in CI the test commands it shows', () => {
    const ci = readFileSync('.ci/run', 'utf8');
    for (const command of ['npm test', 'npm run test:faults']) {
      expect(readme).toContain(command);
      expect(ci).toContain(`\n${command}\n`);
    }
  });

  it.each(Object.keys(configSpec))('documents %s', (name) => {
    expect(configuration).toContain(`| \`${name}\` |`);
  });

  it('documents every TEST_ variable the tests read', () => {
    const used = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else if (entry.name.endsWith('.ts'))
          for (const [, name] of readFileSync(join(dir, entry.name), 'utf8').matchAll(/process\.env\.(TEST_\w+)/g))
            used.add(name);
      }
    };
    walk('test');
    expect(used.size).toBeGreaterThan(0);
    for (const name of used) expect(`${name}: ${configuration.includes(`| \`${name}\` |`)}`).toBe(`${name}: true`);
  });

  it('links only to files of the repository', () => {
    const files = [
      'README.md',
      ...readdirSync('docs')
        .filter((f) => f.endsWith('.md'))
        .map((f) => join('docs', f)),
    ];
    for (const file of files) {
      for (const [, link] of readFileSync(file, 'utf8').matchAll(/\]\(([^)]+)\)/g)) {
        if (/^(https?:|#|\/)/.test(link)) continue;
        const target = join(dirname(file), link.replace(/#.*$/, ''));
        expect(`${file} -> ${link}: ${existsSync(target)}`).toBe(`${file} -> ${link}: true`);
      }
    }
    expect(readme).not.toContain('../');
  });

  it('holds no merge conflict markers', () => {
    const files = ['README.md', ...readdirSync('docs').map((f) => join('docs', f))].filter((f) => f.endsWith('.md'));
    for (const file of files)
      expect(`${file}: ${/^(<{7}|>{7}) /m.test(readFileSync(file, 'utf8'))}`).toBe(`${file}: false`);
  });

  it('lists every benchmark', () => {
    const benchmarks = readFileSync('docs/benchmarks.md', 'utf8');
    const benches = readdirSync('bench')
      .filter((f: string) => f.endsWith('.ts') && !['lib.ts', 'run.ts'].includes(f))
      .map((f: string) => f.replace(/\.ts$/, ''));
    for (const name of benches) expect(benchmarks).toContain(`| \`${name}\` |`);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { configSpec } from '../../lib/config';

/** The README stays true: the test command, and every variable of lib/config.ts in the configuration table. */
describe('README', () => {
  const readme = readFileSync('README.md', 'utf8');

  it('shows the two commands', () => {
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });

  it.each(Object.keys(configSpec))('documents %s', (name) => {
    expect(readme).toContain(`| \`${name}\` |`);
  });

  it('lists every benchmark', () => {
    const benches = readdirSync('bench')
      .filter((f: string) => f.endsWith('.ts') && !['lib.ts', 'run.ts'].includes(f))
      .map((f: string) => f.replace(/\.ts$/, ''));
    for (const name of benches) expect(readme).toContain(`| \`${name}\` |`);
  });
});

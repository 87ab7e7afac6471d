import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg } from '../support/vr';

/**
 * The headset simulator (npm run simulate:headset) as a user runs it, against a real stack: every answer it
 * gets is checked against /openapi.json like any test's (api/http/contract.ts).
 */
describe('headset simulator', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('plays a session through every step and prints one line per step when its output is not a terminal', async () => {
    const { admin } = await vrOrg(stack, 0);
    const room = await createRoom(stack, admin, { simulationSteps: 3, participantIds: [admin.user.id] });
    const args = [
      'bin/simulate-headset.ts',
      '--api',
      stack.url,
      '--email',
      admin.email,
      '--password',
      admin.password,
      '--room',
      room.id,
      '--users',
      '2',
      '--tick-ms',
      '0',
    ];
    const { stdout } = await promisify(execFile)(process.execPath, [require.resolve('tsx/cli'), ...args], {
      timeout: 60_000,
    });

    expect(stdout).not.toContain('\r');
    const lines = stdout.split('\n');
    expect(lines.filter((l) => /^step \d\/3: \d+ events sent$/.test(l)).map((l) => l.slice(0, 8))).toEqual([
      'step 1/3',
      'step 2/3',
      'step 3/3',
    ]);
    expect(lines).toContain('left the room: the session ended');
    expect(stdout).toMatch(/session [\w-]+: \d+ events, \d+ s, completion rate \d+%/);
  });
});

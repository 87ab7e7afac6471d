import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';

/** A dyno in its own process (as the Procfile runs it, from the TypeScript sources): killed, restarted, cut off. */
export interface Dyno {
  process: ChildProcess;
  /** Everything it logged (JSON lines), to look for what it said. */
  output(): string;
  /** SIGTERM (or `signal`), then waits for the exit; resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * One process, the dyno itself: tsx's loader in node, not tsx's CLI (which runs the entry in a child process of
 * its own, so a SIGKILL would kill the CLI and leave the dyno running).
 */
export function startDyno(entry: string, env: Record<string, string>): Dyno {
  const child = spawn(process.execPath, ['--import', pathToFileURL(require.resolve('tsx')).href, entry], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    process: child,
    output: () => output,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}

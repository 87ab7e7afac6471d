import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Stream } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '../support/stack';

/** The MCP server is started the way a client starts it: a process of its own running mcp/main.ts. */
export const root = join(__dirname, '..', '..');
const command = process.execPath;
const args = (extra: string[] = []) => ['--import', 'tsx', join(root, 'mcp', 'main.ts'), ...extra];

/** Until an exiting server's stderr is read to its end (bounded: a server that failed another way keeps it open). */
const stderrEnded = (stream: Stream | null | undefined, boundMs = 2000): Promise<void> =>
  new Promise((resolve) => {
    if (!stream) return resolve();
    const timer = setTimeout(resolve, boundMs);
    stream.once('end', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** The SDK's Client connected over stdio to a spawned server with this environment. */
export async function stdioClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command, args: args(), env, cwd: root, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'knowledge-mcp-test', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    await stderrEnded(transport.stderr);
    throw new Error(`${err instanceof Error ? err.message : String(err)}; server stderr: ${stderr}`, { cause: err });
  }
  return { client, stderr: () => stderr };
}

/** Runs the server to its exit (for start failures): exit code and stderr. */
export function runToExit(
  env: Record<string, string>,
  timeoutMs = 20000,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args(), {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the server did not exit within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    // 'close', not 'exit': the process's stdio is read to its end by then, so stderr is complete.
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** Starts the server in Streamable HTTP mode and connects the SDK's Client to it. */
export async function httpClient(
  env: Record<string, string>,
): Promise<{ client: Client; url: URL; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(command, args(['--port', String(port)]), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the HTTP server did not start; stderr: ${stderr}`)), 30000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('/mcp')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`the HTTP server exited (${code}): ${stderr}`)));
  });
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const client = new Client({ name: 'knowledge-mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return {
    client,
    url,
    stop: async () => {
      await client.close();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const textOf = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

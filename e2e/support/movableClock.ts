/**
 * A private server whose clock the test moves (apps/server/src/test/movable-clock-server.ts): for team
 * activation's re-alerts and escalation, and Web Push to a local endpoint. Its clock control listens on
 * 127.0.0.1 in that test process only — nothing a deployment runs can reach it.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { REPO_ROOT, freePort, freshDataDir, serverEnv, waitForHealth } from './server';

export interface MovableClockServer {
  url: string;
  dataDir: string;
  /** The server's time now. */
  now: () => Promise<Date>;
  /** Moves the server's clock on by `ms` and runs the activation sweep at once; answers the new time. */
  advance: (ms: number) => Promise<Date>;
  stop: () => Promise<void>;
}

export async function startMovableClockServer(): Promise<MovableClockServer> {
  const [port, controlPort] = [await freePort(), await freePort()];
  const dataDir = freshDataDir(`e2e-clock-${port}`);
  const child = spawn('npx', ['tsx', 'apps/server/src/test/movable-clock-server.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...serverEnv(port, dataDir), CONTROL_PORT: String(controlPort) },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const control = `http://127.0.0.1:${controlPort}`;
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const timeOf = async (response: Response): Promise<Date> => {
    const body = (await response.json()) as { now?: string; message?: string };
    if (!response.ok || !body.now) throw new Error(`clock control: ${response.status} ${body.message ?? ''}`);
    return new Date(body.now);
  };
  try {
    await waitForHealth(url, 90_000, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    dataDir,
    now: async () => timeOf(await fetch(`${control}/now`)),
    advance: async (ms) => timeOf(await fetch(`${control}/advance?ms=${ms}`, { method: 'POST' })),
    stop,
  };
}

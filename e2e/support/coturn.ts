/**
 * Debian's coturn for the relay test (scripts/ensure-system-packages.sh installs it): a `turnserver` on a free
 * loopback port with the TURN REST shared secret, as a deployment runs it beside Inbound (README).
 * Loopback peers are allowed here only because both browsers of the test are on this machine.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { freePort } from './server';

export interface RunningTurn {
  port: number;
  secret: string;
  url: string;
  /** What coturn logged (allocations, refusals), for the test's assertions. */
  log: () => string;
  stop: () => Promise<void>;
}

export async function startCoturn(): Promise<RunningTurn> {
  const port = await freePort();
  const secret = randomBytes(24).toString('hex');
  // A relay port range of its own, so parallel runs do not share one.
  const minPort = 50_000 + Math.floor(Math.random() * 140) * 100;
  const child = spawn(
    'turnserver',
    [
      '-n',
      '--listening-ip=127.0.0.1',
      `--listening-port=${port}`,
      '--relay-ip=127.0.0.1',
      `--min-port=${minPort}`,
      `--max-port=${minPort + 99}`,
      '--use-auth-secret',
      `--static-auth-secret=${secret}`,
      '--realm=inbound.test',
      '--no-tls',
      '--no-dtls',
      '--no-cli',
      '--allow-loopback-peers',
      '--log-file=stdout',
      '--simple-log',
      '--verbose',
      `--pidfile=/tmp/inbound-turn-${port}.pid`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 15_000;
  while (!/Total (General|Auth) servers|relay ports initialized|Wait for relay ports initialization/.test(output)) {
    if (child.exitCode !== null) throw new Error(`turnserver exited: ${output.slice(-2_000)}`);
    if (Date.now() > deadline) throw new Error(`turnserver did not start: ${output.slice(-2_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    secret,
    url: `turn:127.0.0.1:${port}?transport=udp`,
    log: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * TLS at a reverse proxy, as docs/deploy.md sets it up: Debian's nginx (scripts/ensure-system-packages.sh) runs
 * deploy/nginx/inbound.conf itself — only the ports, the certificate (self-signed, made here with
 * openssl) and the upstream are put in — in front of a server of its own, configured as docs/deploy.md
 * says a server behind the proxy must be: PUBLIC_URL the public https origin, TRUST_PROXY=1. (The suite's
 * server is neither: the browser's Origin over the proxy, https://host:port, is not the plain http origin
 * that server sees, and /realtime rightly refuses it.) The crew app, the hospital console and /realtime
 * are driven through it over https/wss.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, request, test, type Page } from '@playwright/test';
import { hospitals, teams, users } from '../support/demo';
import { signInToConsole } from '../support/console';
import { signInToStart } from '../support/crew';
import { REPO_ROOT, SERVER_COMMAND, freePort, freshDataDir, serverEnv, waitForHealth } from '../support/server';

const NGINX = ['/usr/sbin/nginx', 'nginx'].find((bin) => {
  try {
    execFileSync(bin, ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

let dir: string;
let dataDir: string;
let server: ChildProcess;
let nginx: ChildProcess;
let httpsUrl: string;
let httpUrl: string;

test.beforeAll(async () => {
  test.setTimeout(90_000); // a server of its own to start
  if (!NGINX) throw new Error('nginx not installed: run scripts/ensure-system-packages.sh nginx');
  dir = mkdtempSync(path.join(tmpdir(), 'inbound-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'privkey.pem'),
      '-out',
      path.join(dir, 'fullchain.pem'),
    ],
    { stdio: 'ignore' },
  );
  const [tlsPort, plainPort, serverPort] = [await freePort(), await freePort(), await freePort()];
  httpsUrl = `https://127.0.0.1:${tlsPort}`;
  httpUrl = `http://127.0.0.1:${plainPort}`;
  // Inbound as docs/deploy.md runs it behind the proxy: PUBLIC_URL is the origin the browser uses (the
  // real-time Origin check and the CSP name it), TRUST_PROXY=1 for the one hop.
  dataDir = freshDataDir(`e2e-tls-${serverPort}`);
  const [command = 'npx', ...args] = SERVER_COMMAND.split(' ');
  server = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...serverEnv(serverPort, dataDir), PUBLIC_URL: httpsUrl, TRUST_PROXY: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  await waitForHealth(`http://127.0.0.1:${serverPort}`, 60_000, server);
  const site = readFileSync(path.join(REPO_ROOT, 'deploy/nginx/inbound.conf'), 'utf8')
    .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${serverPort};`)
    .replace(/^\s*listen \[::\].*$/gm, '')
    .replace('listen 80;', `listen 127.0.0.1:${plainPort};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${tlsPort} ssl http2;`)
    .replace('/etc/ssl/inbound/fullchain.pem', path.join(dir, 'fullchain.pem'))
    .replace('/etc/ssl/inbound/privkey.pem', path.join(dir, 'privkey.pem'));
  expect(site).toContain(`127.0.0.1:${tlsPort} ssl`);
  writeFileSync(path.join(dir, 'inbound.conf'), site);
  // The minimal main configuration around the site file: everything in the temp directory.
  const root = process.getuid?.() === 0 ? 'user root;\n' : '';
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${root}daemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log warn;\n` +
      `events { worker_connections 256; }\nhttp {\n  access_log off;\n` +
      ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};\n`).join('') +
      `  include ${dir}/inbound.conf;\n}\n`,
  );
  nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  nginx.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const api = await request.newContext({ ignoreHTTPSErrors: true });
  await expect
    .poll(
      async () => {
        if (nginx.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
        return api.get(`${httpsUrl}/health`).then(
          (r) => r.status(),
          () => 0,
        );
      },
      { timeout: 15_000 },
    )
    .toBe(200);
  await api.dispose();
});

test.afterAll(async () => {
  if (nginx?.exitCode === null) {
    const exited = new Promise((resolve) => nginx.once('exit', resolve));
    nginx.kill('SIGTERM');
    await exited;
  }
  if (server?.pid && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    process.kill(-server.pid, 'SIGTERM'); // its group: npx, tsx and node
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (server.exitCode === null && server.signalCode === null) process.kill(-server.pid, 'SIGKILL');
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Resolves with the first frame of the given type the page's /realtime socket receives. */
function realtimeFrame(page: Page, type: string): Promise<{ url: string; frame: unknown }> {
  return new Promise((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        const frame = JSON.parse(String(payload)) as { type?: string };
        if (frame.type === type) resolve({ url: socket.url(), frame });
      });
    });
  });
}

test('https only: plain http is redirected, HSTS is sent, /metrics is not reachable from outside', async () => {
  const api = await request.newContext({ ignoreHTTPSErrors: true });
  const plain = await api.get(`${httpUrl}/hospital/`, { maxRedirects: 0 });
  expect(plain.status()).toBe(308);
  expect(plain.headers().location).toBe(`https://127.0.0.1/hospital/`);
  const health = await api.get(`${httpsUrl}/health`);
  expect(health.headers()['strict-transport-security']).toContain('max-age=');
  expect((await api.get(`${httpsUrl}/metrics`)).status()).toBe(404);
  await api.dispose();
});

test('the crew app signs in and opens its live connection over wss through the proxy', async ({ browser }) => {
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    baseURL: httpsUrl,
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  const ready = realtimeFrame(page, 'ready');
  await signInToStart(page, users.medic1.username, teams.riverside, 'Medic 1');
  await expect(page.getByRole('button', { name: 'START CASE' })).toBeVisible();
  const { url } = await ready;
  expect(url).toBe(`${httpsUrl.replace('https', 'wss')}/realtime`);
  await context.close();
});

test('the hospital console signs in and goes live over wss through the proxy', async ({ browser }) => {
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    baseURL: httpsUrl,
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const subscribed = realtimeFrame(page, 'subscribed');
  await signInToConsole(page, users.ed1.username);
  await expect(page.getByRole('heading', { level: 1, name: hospitals.riversideRegional })).toBeVisible();
  await expect(page.getByTestId('connection')).toHaveText(/Live/);
  expect((await subscribed).url).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/realtime$/);
  await context.close();
});

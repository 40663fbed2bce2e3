import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { routes } from '@inbound/contract';
import { createTestApp } from './test/app.js';

describe('logs', () => {
  it('never carry passwords, tokens or query strings, but do carry request ids', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await createTestApp({ env: { LOG_LEVEL: 'trace' }, logStream: stream });
    try {
      const token = await t.signIn('medic2');
      await t.post(routes.signIn.path, {
        username: 'medic2',
        password: 'wrong-secret-guess',
        twiageClient: 'ems',
        platform: 'web',
      });
      await t.get(routes.me.path, token);
      await t.get(`${routes.complaintSets.path}?name=Patient%20Jane%20Doe&firstOccurrenceOnly=true`, token);
      const changed = await t.post(
        routes.changePassword.path,
        {
          currentPassword: 'demo-medic2',
          newPassword: 'kestrel-harbor-lantern',
          verifyPassword: 'kestrel-harbor-lantern',
        },
        token,
      );
      expect(changed.statusCode).toBe(200);
      await t.post(routes.signOut.path, undefined, token);

      const log = lines.join('');
      expect(log.length).toBeGreaterThan(0);
      for (const secret of [
        'demo-medic2',
        'wrong-secret-guess',
        'kestrel-harbor-lantern',
        token,
        token.split('.')[2]!,
        'JWT ey',
        'Jane',
      ]) {
        expect(log, `log contains ${secret.slice(0, 12)}`).not.toContain(secret);
      }
      const entries = lines.map((l) => JSON.parse(l) as { reqId?: string; req?: { url?: string } });
      expect(entries.some((e) => e.reqId && e.req?.url === routes.complaintSets.path)).toBe(true);
    } finally {
      await t.close();
    }
  });
});

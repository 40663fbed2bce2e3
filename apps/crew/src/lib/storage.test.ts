import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { createLocalData, decryptText, encryptText } from './storage';

const secret = { token: 'eyJhbGciOiJIUzI1NiJ9.patient-and-token.sig', displayName: 'Jordan Reyes' };
let dbCount = 0;
const freshDb = () => `inbound-local-test-${++dbCount}`;

async function storedKey(dbName: string): Promise<CryptoKey> {
  const db = await openDB(dbName);
  const key = (await db.get('keys', 'local-data')) as CryptoKey;
  db.close();
  return key;
}

describe('local data encryption (AES-GCM, non-extractable key in IndexedDB)', () => {
  it('round-trips a value and stores no plaintext', async () => {
    const data = createLocalData({ encrypted: true, dbName: freshDb() });
    await data.set('user', secret);
    const stored = (await data.raw('user'))!;
    expect(stored).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    expect(stored).not.toContain('Jordan');
    expect(stored).not.toContain('patient-and-token');
    expect(stored).not.toContain(btoa(JSON.stringify(secret)).slice(0, 16));
    expect(await data.get('user')).toEqual(secret);
  });

  it('uses a fresh IV each time: the same value encrypts differently', async () => {
    const name = freshDb();
    await createLocalData({ encrypted: true, dbName: name }).set('warm-up', 1);
    const key = await storedKey(name);
    const a = await encryptText(key, 'same');
    const b = await encryptText(key, 'same');
    expect(a).not.toBe(b);
    expect(await decryptText(key, a)).toBe('same');
  });

  it('keeps one non-extractable key in IndexedDB, found again after a reload', async () => {
    const name = freshDb();
    await createLocalData({ encrypted: true, dbName: name }).set('teams', ['Riverside EMS']);
    const key = await storedKey(name);
    expect(key.extractable).toBe(false);
    expect(key.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();

    // As after a reload: a new instance, nothing cached, the key still in IndexedDB.
    expect(await createLocalData({ encrypted: true, dbName: name }).get('teams')).toEqual(['Riverside EMS']);
  });

  it('drops a value it cannot decrypt (tampered)', async () => {
    const name = freshDb();
    const data = createLocalData({ encrypted: true, dbName: name });
    await data.set('user', secret);
    const stored = (await data.raw('user'))!;
    const db = await openDB(name);
    await db.put('values', `${stored.slice(0, -4)}AAAA`, 'user');
    db.close();
    expect(await data.get('user')).toBeUndefined();
    expect(await data.raw('user')).toBeUndefined();
  });

  it('clear() deletes the values and the key; later writes use a new key', async () => {
    const name = freshDb();
    const data = createLocalData({ encrypted: true, dbName: name });
    await data.set('jwt', { token: 't' });
    const before = await storedKey(name);
    await data.clear();
    expect(await data.keys()).toEqual([]);
    expect(await storedKey(name)).toBeUndefined();
    await data.set('doNotDisturb', { u1: true });
    const after = await storedKey(name);
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(await data.get('doNotDisturb')).toEqual({ u1: true });
  });

  it('clear(keep) keeps only what it is given, sealed under a new key that a reloaded page finds', async () => {
    const name = freshDb();
    const data = createLocalData({ encrypted: true, dbName: name });
    await data.set('jwt', { token: 't' });
    await data.set('emtLevel', { u1: 'Paramedic' });
    const before = await storedKey(name);
    await data.clear({ emtLevel: { u1: 'Paramedic' }, closedCases: [{ id: 'c-1' }] });
    expect((await data.keys()).sort()).toEqual(['closedCases', 'emtLevel']);
    expect(await data.raw('emtLevel')).toMatch(/^v1\./);
    expect(await storedKey(name)).not.toBe(before);
    const reloaded = createLocalData({ encrypted: true, dbName: name });
    expect(await reloaded.get('emtLevel')).toEqual({ u1: 'Paramedic' });
    expect(await reloaded.get('closedCases')).toEqual([{ id: 'c-1' }]);
    expect(await reloaded.get('jwt')).toBeUndefined();
  });

  it('stores plain JSON in development', async () => {
    const data = createLocalData({ encrypted: false, dbName: freshDb() });
    await data.set('selectedTruck', { name: 'Medic 1' });
    expect(await data.raw('selectedTruck')).toBe('{"name":"Medic 1"}');
    expect(await data.get('selectedTruck')).toEqual({ name: 'Medic 1' });
    expect(await data.keys()).toEqual(['selectedTruck']);
    await data.set('selectedTruck', undefined);
    expect(await data.get('selectedTruck')).toBeUndefined();
  });
});

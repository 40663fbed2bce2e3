// The at-rest codec: what it seals opens to the same bytes, never reads as the plain text, and the key is
// asked for once it has been loaded (so sealing a tap's change starts within the tap's own task).
import { describe, expect, it, vi } from 'vitest';
import { createAesGcmCodec } from './codec';

const newKey = () => crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);

describe('createAesGcmCodec', () => {
  it('seals with a fresh IV each time and opens to the same bytes', async () => {
    const key = await newKey();
    const codec = createAesGcmCodec(() => Promise.resolve(key));
    const plain = new TextEncoder().encode('{"age":67}');
    const first = await codec.seal(plain);
    const second = await codec.seal(plain);
    expect(first.iv).toHaveLength(12);
    expect(first.iv).not.toEqual(second.iv);
    expect(new TextDecoder().decode(first.data)).not.toContain('age');
    expect(new TextDecoder().decode(await codec.open(second))).toBe('{"age":67}');
  });

  it('loads the key once, and hands a later seal to WebCrypto before yielding', async () => {
    const key = await newKey();
    const getKey = vi.fn(() => Promise.resolve(key));
    const codec = createAesGcmCodec(getKey);
    await codec.open(await codec.seal(new Uint8Array([1])));
    const encrypt = vi.spyOn(crypto.subtle, 'encrypt');
    try {
      const sealing = codec.seal(new Uint8Array([2]));
      expect(encrypt).toHaveBeenCalledTimes(1);
      await sealing;
    } finally {
      encrypt.mockRestore();
    }
    expect(getKey).toHaveBeenCalledTimes(1);
  });

  it('asks for the key again after a failed load', async () => {
    const key = await newKey();
    const getKey = vi.fn().mockRejectedValueOnce(new Error('IndexedDB closed')).mockResolvedValue(key);
    const codec = createAesGcmCodec(getKey as () => Promise<CryptoKey>);
    await expect(codec.seal(new Uint8Array([1]))).rejects.toThrow('IndexedDB closed');
    await expect(codec.seal(new Uint8Array([1]))).resolves.toHaveProperty('iv');
    expect(getKey).toHaveBeenCalledTimes(2);
  });
});

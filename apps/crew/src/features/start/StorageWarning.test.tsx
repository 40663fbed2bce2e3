// Persistent storage (issue 3): a refusal of navigator.storage.persist() is shown on Start, calmly and
// dismissible for the browser session; a grant (or no API at all) shows nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { checkStoragePersistence, resetStoragePersistenceForTests } from '../../lib/storagePersistence';
import { mockFetch } from '../../test/fetchMock';
import { signedInSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const WARNING = 'Storage on this device is not guaranteed';

function mockStorage({ persisted, persist }: { persisted: boolean; persist: boolean }) {
  const storage = {
    persisted: vi.fn(async () => persisted),
    persist: vi.fn(async () => persist),
  };
  vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { storage }));
  return storage;
}

beforeEach(() => {
  resetStoragePersistenceForTests();
  mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } } });
});

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('persistent storage warning on Start', () => {
  it('refused: explains why, and Dismiss hides it for the rest of the browser session', async () => {
    const storage = mockStorage({ persisted: false, persist: false });
    expect(await checkStoragePersistence()).toBe('denied');
    expect(storage.persist).toHaveBeenCalledTimes(1);

    const { user } = renderApp('/start', signedInSession());
    const warning = await screen.findByRole('region', { name: WARNING });
    expect(warning).toHaveTextContent('This device may clear saved changes when storage runs low');
    // Not in the way: START CASE is still there to tap.
    expect(screen.getByRole('button', { name: 'START CASE' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: WARNING })).not.toBeInTheDocument();

    // A new page in the same browser session (a reload for a new version) starts dismissed; a reset
    // session (the app opened again another day) does not.
    vi.resetModules();
    const reloaded = await import('../../lib/storagePersistence');
    expect(reloaded.useStoragePersistence.getState().dismissed).toBe(true);
    sessionStorage.clear();
    vi.resetModules();
    const reopened = await import('../../lib/storagePersistence');
    expect(reopened.useStoragePersistence.getState().dismissed).toBe(false);
  });

  it('granted (now or earlier): no warning, and persist() is not asked again when already persisted', async () => {
    const storage = mockStorage({ persisted: true, persist: false });
    expect(await checkStoragePersistence()).toBe('granted');
    expect(storage.persist).not.toHaveBeenCalled();
    renderApp('/start', signedInSession());
    expect(await screen.findByRole('button', { name: 'START CASE' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: WARNING })).not.toBeInTheDocument();
  });

  it('appears when the answer comes after Start is already on screen', async () => {
    mockStorage({ persisted: false, persist: false });
    renderApp('/start', signedInSession());
    expect(await screen.findByRole('button', { name: 'START CASE' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: WARNING })).not.toBeInTheDocument();
    await act(() => checkStoragePersistence());
    expect(screen.getByRole('region', { name: WARNING })).toBeInTheDocument();
  });
});

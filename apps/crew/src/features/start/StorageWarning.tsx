import { dismissStorageWarning, shouldWarnAboutStorage, useStoragePersistence } from '../../lib/storagePersistence';

/**
 * Start's notice when the browser refused persistent storage (issue 3): calm, not blocking, and saying
 * why it matters and what helps. Dismissed for the rest of the browser session.
 */
export function StorageWarning() {
  const show = useStoragePersistence(shouldWarnAboutStorage);
  if (!show) return null;
  return (
    <section className="notice" aria-labelledby="storage-warning-title">
      <h2 id="storage-warning-title" className="notice__title">
        Storage on this device is not guaranteed
      </h2>
      <p className="notice__text">
        This device may clear saved changes when storage runs low, before they reach the hospital. Adding Inbound to the
        home screen usually prevents this.
      </p>
      <button type="button" className="button button--secondary notice__dismiss" onClick={dismissStorageWarning}>
        Dismiss
      </button>
    </section>
  );
}

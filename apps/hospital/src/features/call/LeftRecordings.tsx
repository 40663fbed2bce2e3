import { useEffect } from 'react';
import { useMe } from '../auth/queries';
import { recordingStore } from './recordingStore';
import { sendLeftRecordings, webLocks } from './recordingUpload';

/**
 * At each sign-in: sends the call recordings this user's closed or crashed console tabs left on this
 * computer (decision 0042). Draws nothing — the recording appears in its case's media when it arrives.
 */
export function LeftRecordings() {
  const userId = useMe().data?._id;
  useEffect(() => {
    if (!userId || typeof indexedDB === 'undefined') return;
    void sendLeftRecordings({ store: recordingStore(), locks: webLocks, userId, now: Date.now() }).catch(
      () => undefined, // storage unreadable: nothing to send from it
    );
  }, [userId]);
  return null;
}

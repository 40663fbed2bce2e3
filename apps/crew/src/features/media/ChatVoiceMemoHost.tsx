import { lazy, Suspense, useEffect, useState } from 'react';
import { useSession } from '../../lib/session';
import { registerVoiceMemoRecorder } from '../chat/voiceMemoRecorder';

const VoiceMemoRecorder = lazy(async () => ({ default: (await import('./VoiceMemoRecorder')).VoiceMemoRecorder }));

const currentCaseId = () => useSession.getState().case?.id ?? null;

/**
 * Mounted with the case screen: registers the voice memo recorder for the CHAT tab's mic (spec §2 "With
 * no text, a mic icon opens the voice memo recorder") and shows it when asked. The recorder's code loads
 * on first use; what it records goes out as a VOICE_MEMO chat message too.
 */
export function ChatVoiceMemoHost() {
  const [open, setOpen] = useState(false);
  useEffect(() => registerVoiceMemoRecorder(() => setOpen(true)), []);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <VoiceMemoRecorder caseId={currentCaseId} asChat onClose={() => setOpen(false)} />
    </Suspense>
  );
}

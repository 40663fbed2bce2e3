import { lazy, Suspense, useState } from 'react';
import { FEATURE } from '@inbound/contract';
import { useSession, type StoredCase } from '../../lib/session';

// The assistant loads only when opened: the case screen's first load stays small.
const ProtocolDialog = lazy(() => import('./ProtocolDialog').then((m) => ({ default: m.ProtocolDialog })));

/** Spec §2 case screen: the AI Protocol Assistant button, for users with aiEnhancedProtocols. */
export function CaseProtocolButton({ caseData }: { caseData: StoredCase }) {
  const enabled = useSession((state) =>
    state.user?.features.some((feature) => feature.name === FEATURE.aiEnhancedProtocols && feature.enabled),
  );
  const [open, setOpen] = useState(false);
  if (!enabled) return null;
  return (
    <>
      <button type="button" className="button button--secondary button--block" onClick={() => setOpen(true)}>
        AI Protocol Assistant
      </button>
      {open && (
        <Suspense fallback={null}>
          <ProtocolDialog caseData={caseData} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

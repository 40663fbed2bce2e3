import { useEffect } from 'react';
import { ReceiveCaseModal } from './ReceiveCaseModal';
import { SenderTransferModal } from './SenderTransferModal';
import { resumeTransfer, useTransfer } from './transferController';

/** Whichever transfer modal is open; mounted on Start (receiving) and the case screen (sending). */
export function TransferModals() {
  const role = useTransfer((state) => state.role);
  const open = useTransfer((state) => state.open);
  useEffect(() => {
    void resumeTransfer();
  }, []);
  if (!open) return null;
  return role === 'sender' ? <SenderTransferModal /> : role === 'receiver' ? <ReceiveCaseModal /> : null;
}

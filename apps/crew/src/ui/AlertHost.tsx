import { dismissAlert, useAlerts } from '../lib/alerts';
import { Modal } from './Modal';

/** Shows the oldest pending in-app alert (lib/alerts) until OK. */
export function AlertHost() {
  const current = useAlerts((state) => state.queue[0]);
  if (!current) return null;
  const close = () => dismissAlert(current.id);
  return (
    <Modal
      key={current.id}
      title={current.title}
      role="alertdialog"
      onClose={close}
      actions={
        <button type="button" className="button" onClick={close}>
          OK
        </button>
      }
    >
      <p className="modal__message">{current.message}</p>
    </Modal>
  );
}

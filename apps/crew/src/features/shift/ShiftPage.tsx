import { messages } from '@inbound/contract';
import { useGoBack } from '../../routing/useGoBack';
import { paths } from '../../routing/paths';
import { TopBar } from '../../ui/TopBar';
import { ShiftSettings } from './ShiftSettings';

/** `/shift` ('Auto Logout'). Changes are saved as they are made; Done and Back both return. */
export function ShiftPage() {
  const goBack = useGoBack(paths.start);
  return (
    <div className="page">
      <TopBar
        title={messages.autoLogoutTitle}
        start={
          <button type="button" className="top-bar__button" onClick={goBack}>
            Back
          </button>
        }
      />
      <div className="page__content">
        <ShiftSettings />
        <button type="button" className="button button--primary button--block" onClick={goBack}>
          Done
        </button>
      </div>
    </div>
  );
}

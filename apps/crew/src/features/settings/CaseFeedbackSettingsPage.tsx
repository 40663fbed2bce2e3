import { useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../lib/session';
import { paths } from '../../routing/paths';
import { Banner } from '../../ui/Banner';
import { Switch } from '../../ui/Switch';
import { TopBar } from '../../ui/TopBar';

/**
 * `/caseFeedbackSettings`: Do Not Disturb, kept on this device per user id. Off (feedback prompts shown)
 * until the crew member turns it on. Save is enabled only when the value differs from the saved one.
 */
export function CaseFeedbackSettingsPage() {
  const userId = useSession((state) => state.user?.id ?? '');
  const saved = useSession((state) => state.doNotDisturb[userId] ?? false);
  const [value, setValue] = useState(saved);
  const [justSaved, setJustSaved] = useState(false);

  const save = () => {
    useSession.setState((state) => ({ doNotDisturb: { ...state.doNotDisturb, [userId]: value } }));
    setJustSaved(true);
  };

  return (
    <div className="page">
      <TopBar
        title="Case Feedback"
        start={
          <Link className="top-bar__button" to={paths.settings}>
            Back
          </Link>
        }
      />
      <div className="page__content">
        {justSaved && value === saved && <Banner kind="success" message="Saved." />}
        <Switch
          label="Do Not Disturb"
          description="Do not ask me to rate cases for the hospital."
          checked={value}
          onChange={(checked) => {
            setValue(checked);
            setJustSaved(false);
          }}
        />
        <button
          type="button"
          className="button button--primary button--block"
          disabled={value === saved}
          onClick={save}
        >
          Save
        </button>
      </div>
    </div>
  );
}

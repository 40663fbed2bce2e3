import { Link } from 'react-router';
import { FEATURE, type Team } from '@inbound/contract';
import { useSession } from '../../lib/session';
import { paths } from '../../routing/paths';
import { MenuRow } from '../../ui/MenuRow';
import { TopBar } from '../../ui/TopBar';
import { LogoutButton } from '../auth/LogoutButton';

/** `/settings` (spec §2). GPS Data Source is the desktop build's only. */
export function SettingsPage() {
  const team = useSession((state) => state.selectedTeam);
  return (
    <div className="page">
      <TopBar
        title="Settings"
        start={
          <Link className="top-bar__button" to={paths.start}>
            Close
          </Link>
        }
      />
      <div className="page__content">
        <nav className="menu" aria-label="Settings">
          <MenuRow label="Change Password" to={paths.changePassword} />
          <MenuRow label="Auto-logout" to={paths.shift} />
          {team && teamSupportsCaseFeedback(team) && <MenuRow label="Case Feedback" to={paths.caseFeedbackSettings} />}
          {__INBOUND_DESKTOP__ && <MenuRow label="GPS Data Source" to={paths.gpsSource} />}
          <LogoutButton />
        </nav>
      </div>
    </div>
  );
}

/** Case Feedback settings only matter when some hospital of the team asks for feedback (emsFeedback). */
export function teamSupportsCaseFeedback(team: Team): boolean {
  return team.hospitals.some((hospital) =>
    hospital.supportedFeatures.some((feature) => feature.name === FEATURE.emsFeedback && feature.enabled),
  );
}

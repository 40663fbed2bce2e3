import { Link } from 'react-router';
import { paths } from '../../routing/paths';
import { MenuRow } from '../../ui/MenuRow';
import { TopBar } from '../../ui/TopBar';

/** `/security`: Back and Change Password (spec §2). */
export function SecurityPage() {
  return (
    <div className="page">
      <TopBar
        title="Security"
        start={
          <Link className="top-bar__button" to={paths.settings}>
            Back
          </Link>
        }
      />
      <div className="page__content">
        <nav className="menu" aria-label="Security">
          <MenuRow label="Change Password" to={paths.changePassword} />
        </nav>
      </div>
    </div>
  );
}

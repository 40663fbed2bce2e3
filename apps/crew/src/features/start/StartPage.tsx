import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { FEATURE, messages } from '@inbound/contract';
import { useSession } from '../../lib/session';
import { paths } from '../../routing/paths';
import { MenuRow } from '../../ui/MenuRow';
import { SupportContact } from '../../ui/SupportContact';
import { TopBar } from '../../ui/TopBar';
import { LogoutButton } from '../auth/LogoutButton';
import { validateSession } from '../auth/session';
import { CaseFeedbackModal } from '../case/CaseFeedbackModal';
import { startCase } from '../case/startCase';
import { prefetchComplaintSet } from '../complaints/queries';
import { MessageCenterButton } from '../messages/MessageCenterButton';
import { HospitalStatusList } from '../hospitalStatus/HospitalStatusList';
import { NotificationsPrompt } from '../push/NotificationsPrompt';
import { useUserPushTopic } from '../push/pushSubscription';
import { formatDisplayTime, shiftEndInstant } from '../shift/shiftTime';
import { EmsLevelDialog } from '../protocol/EmsLevelDialog';
import { needsEmsLevel } from '../protocol/emsLevel';
import { openReceiveCase } from '../transfer/receiveCase';
import { TransferModals } from '../transfer/TransferModals';
import { ClosedHandoffStatus } from '../arrival/ClosedHandoffStatus';
import { ClosedCasesStatus } from './ClosedCasesStatus';
import { StorageWarning } from './StorageWarning';

/** `/start` (spec §2): who is on which truck, and the START CASE button. */
export function StartPage() {
  const user = useSession((state) => state.user);
  const team = useSession((state) => state.selectedTeam);
  const truck = useSession((state) => state.selectedTruck);
  const autoLogoutTime = useSession((state) => state.autoLogoutTime);
  const autoLogoutAt = useSession((state) => state.autoLogoutAt);
  const feedbackPending = useSession((state) => state.caseFeedbackPending);
  // Asked once each time Start opens (spec §2); closing it after a failure keeps it for next time.
  const [feedbackDismissed, setFeedbackDismissed] = useState(false);
  useUserPushTopic();
  const [askingEmsLevel, setAskingEmsLevel] = useState(false);
  const levelNeeded = useSession((state) =>
    needsEmsLevel({ team: state.selectedTeam, userId: state.user?.id ?? null, stored: state.emtLevel }),
  );
  const navigate = useNavigate();
  const shiftEnd = shiftEndInstant({ autoLogoutTime, autoLogoutAt }, new Date());
  const protocolsEnabled = user?.features.some(
    (feature) => feature.name === FEATURE.aiEnhancedProtocols && feature.enabled,
  );

  // Keep the team's complaint list on the device while there is coverage (a case may start without).
  useEffect(() => {
    if (team) void prefetchComplaintSet(team);
  }, [team]);

  const onStartCase = () => {
    // The token first (spec §2): an invalid one logs out, or asks to re-authenticate during a case.
    if (validateSession() !== 'valid') return;
    void startCase();
  };

  return (
    <div className="page page--start">
      <TopBar
        title="Inbound"
        start={
          <Link className="top-bar__button" to={paths.settings}>
            Settings
          </Link>
        }
        end={<MessageCenterButton />}
      />
      <div className="page__content">
        <p className="welcome">
          Welcome, <strong>{user?.displayName}</strong>
        </p>
        <nav className="menu" aria-label="Shift">
          <LogoutButton />
          <MenuRow
            label="Shift Ends"
            value={shiftEnd ? formatDisplayTime(shiftEnd) : messages.chooseTime}
            to={paths.shift}
          />
          <MenuRow label="Team" value={team?.name ?? ''} to={paths.teamSelection} />
          <MenuRow label="Truck" value={truck?.name ?? ''} to={paths.truckSelection} />
          <MenuRow label="Case Transfer" value={messages.tapToReceiveCase} onClick={openReceiveCase} />
          {protocolsEnabled && (
            <MenuRow
              label="Protocols"
              value={messages.askQuestion}
              to={paths.protocol}
              onClick={(event) => {
                // Spec §2: the assistant asks for the EMS level first when one is needed.
                if (!levelNeeded) return;
                event.preventDefault();
                setAskingEmsLevel(true);
              }}
            />
          )}
        </nav>
        {team && <HospitalStatusList hospitals={team.hospitals} />}
        {/* Held at the bottom of the screen on a phone: START CASE is never below the fold (issue 16). */}
        <div className="start-action">
          <p className="tagline">{messages.tagline}</p>
          <button type="button" className="button button--start" onClick={onStartCase}>
            {messages.startCase}
          </button>
        </div>
        {/* Below START CASE: a notice for later must never push the one urgent button off a phone's screen. */}
        <ClosedHandoffStatus />
        <ClosedCasesStatus />
        <StorageWarning />
        <NotificationsPrompt />
        <SupportContact />
      </div>
      {askingEmsLevel && (
        <EmsLevelDialog
          onClose={() => setAskingEmsLevel(false)}
          onContinue={() => {
            setAskingEmsLevel(false);
            void navigate(paths.protocol);
          }}
        />
      )}
      <TransferModals />
      {feedbackPending && !feedbackDismissed && (
        <CaseFeedbackModal pending={feedbackPending} onClose={() => setFeedbackDismissed(true)} />
      )}
    </div>
  );
}

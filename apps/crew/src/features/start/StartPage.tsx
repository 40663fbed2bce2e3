import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { FEATURE, messages } from '@inbound/contract';
import { showAlert } from '../../lib/alerts';
import { useSession } from '../../lib/session';
import { paths } from '../../routing/paths';
import { MenuRow } from '../../ui/MenuRow';
import { SupportContact } from '../../ui/SupportContact';
import { TopBar } from '../../ui/TopBar';
import { LogoutButton } from '../auth/LogoutButton';
import { validateSession } from '../auth/session';
import { ClosedHandoffStatus } from '../arrival/ClosedHandoffStatus';
import { HospitalStatusList } from '../hospitalStatus/HospitalStatusList';
import { MessageCenterEnvelope } from '../messages/MessageCenterEnvelope';
import { formatDisplayTime, shiftEndInstant } from '../shift/shiftTime';
import { EmsLevelDialog } from '../protocol/EmsLevelDialog';
import { needsEmsLevel } from '../protocol/emsLevel';
import { openReceiveCase } from '../transfer/receiveCase';
import { startTexts as t } from './startScreen';
import { rememberStartShellRest } from './startShellRest';
import { takeStartShellTap } from './startShellTap';
import { StorageWarning } from './StorageWarning';

// Start draws from the stored session alone: nothing here imports the API client, the contract's schemas,
// the outbox or tus (issue 16, item 11 — /start's LCP on a cellular link). What needs them is one chunk,
// requested as soon as Start has painted (see the effect below), not before.
const loadStartLive = () => import('./StartLive');
const MessageCenterLive = lazy(async () => ({ default: (await loadStartLive()).MessageCenterLive }));
const ClosedCasesStatus = lazy(async () => ({ default: (await loadStartLive()).ClosedCasesStatus }));
const NotificationsPrompt = lazy(async () => ({ default: (await loadStartLive()).NotificationsPrompt }));
const StartBackground = lazy(async () => ({ default: (await loadStartLive()).StartBackground }));

/** `/start` (spec §2): who is on which truck, and the START CASE button. */
export function StartPage() {
  const user = useSession((state) => state.user);
  const team = useSession((state) => state.selectedTeam);
  const truck = useSession((state) => state.selectedTruck);
  const autoLogoutTime = useSession((state) => state.autoLogoutTime);
  const autoLogoutAt = useSession((state) => state.autoLogoutAt);
  const [askingEmsLevel, setAskingEmsLevel] = useState(false);
  // The Message Center: Start draws the envelope; the count and the center come with the live chunk (a tap
  // before it is in opens the center as soon as it is).
  const [messageCenterOpen, setMessageCenterOpen] = useState(false);
  const [unread, setUnread] = useState(0);
  // The live parts mount after the first paint: their chunk is requested by then, not by the first render.
  const [painted, setPainted] = useState(false);
  useEffect(() => afterPaint(() => setPainted(true)), []);
  const levelNeeded = useSession((state) =>
    needsEmsLevel({ team: state.selectedTeam, userId: state.user?.id ?? null, stored: state.emtLevel }),
  );
  const navigate = useNavigate();
  const shiftEnd = shiftEndInstant({ autoLogoutTime, autoLogoutAt }, new Date());
  const protocolsEnabled = user?.features.some(
    (feature) => feature.name === FEATURE.aiEnhancedProtocols && feature.enabled,
  );

  // Where Start draws START CASE, for start.html's shell at the next start (startShellRest.ts): the observer
  // reports the first layout and every change of Start's height (the hospital statuses in, a notice), after
  // layout and off React's commit, so what is kept is what a reload draws first. Not while scrolled: the
  // pinned button's place there is not the page's. (jsdom has no ResizeObserver.)
  const content = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLElement>(null);
  const action = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const [c, m, a] = [content.current, menu.current, action.current];
    if (!c || !m || !a || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (window.scrollY === 0) rememberStartShellRest(c, m, a);
    });
    observer.observe(c);
    return () => observer.disconnect();
  }, []);

  // A button tapped on start.html's static shell, before the app took over (decision 0043): acted on now, as
  // a tap here. Taken once (StrictMode's second run finds nothing).
  const [askLogout, setAskLogout] = useState(false);
  useEffect(() => {
    const tapped = takeStartShellTap();
    if (tapped === 'startCase') onStartCase();
    else if (tapped === 'caseTransfer') openReceiveCase();
    // A dialog of this screen: opened right after this effect, not by a second render inside it.
    else if (tapped === 'logout') queueMicrotask(() => setAskLogout(true));
    else if (tapped === 'messageCenter') queueMicrotask(() => setMessageCenterOpen(true));
  }, []);

  return (
    <div className="page page--start">
      <TopBar
        title={t.title}
        start={
          <Link className="top-bar__button" to={paths.settings}>
            {t.settings}
          </Link>
        }
        end={<MessageCenterEnvelope unread={unread} onOpen={() => setMessageCenterOpen(true)} />}
      />
      <div className="page__content" ref={content}>
        <p className="welcome">
          {t.welcome} <strong>{user?.displayName}</strong>
        </p>
        {/* The last patient's hand-over first: a crew waiting at the ED reads it without scrolling (issue 16). */}
        <ClosedHandoffStatus />
        <nav className="menu" aria-label="Shift" ref={menu}>
          <LogoutButton askNow={askLogout} />
          <MenuRow
            label={t.shiftEnds}
            value={shiftEnd ? formatDisplayTime(shiftEnd) : messages.chooseTime}
            to={paths.shift}
          />
          <MenuRow label={t.team} value={team?.name ?? ''} to={paths.teamSelection} />
          <MenuRow label={t.truck} value={truck?.name ?? ''} to={paths.truckSelection} />
          <MenuRow label={t.caseTransfer} value={messages.tapToReceiveCase} onClick={openReceiveCase} />
          {protocolsEnabled && (
            <MenuRow
              label={t.protocols}
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
        <div className="start-action" ref={action}>
          <p className="tagline">{messages.tagline}</p>
          <button type="button" className="button button--start" onClick={onStartCase}>
            {messages.startCase}
          </button>
        </div>
        {/* Below START CASE: a notice for later must never push the one urgent button off a phone's screen. */}
        {painted && (
          <Suspense fallback={null}>
            <ClosedCasesStatus />
          </Suspense>
        )}
        <StorageWarning />
        {painted && (
          <Suspense fallback={null}>
            <NotificationsPrompt />
          </Suspense>
        )}
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
      {(painted || messageCenterOpen) && (
        <Suspense fallback={null}>
          <MessageCenterLive
            open={messageCenterOpen}
            onClose={() => setMessageCenterOpen(false)}
            onUnread={setUnread}
          />
        </Suspense>
      )}
      {painted && (
        <Suspense fallback={null}>
          <StartBackground />
        </Suspense>
      )}
    </div>
  );
}

/** START CASE (spec §2): the token first — an invalid one logs out, or asks to re-authenticate in a case. */
function onStartCase(): void {
  if (validateSession() !== 'valid') return;
  // Loaded since the first paint (and precached by the service worker): this resolves at once.
  loadStartLive()
    .then(({ startCase }) => startCase())
    .catch((error: unknown) => {
      console.error('START CASE could not load', error);
      showAlert(messages.noResponse);
    });
}

/**
 * Runs `callback` once the browser has painted the current frame (a task after the next animation frame),
 * or after 500 ms in a tab that draws no frames (hidden); returns a cancel function.
 */
function afterPaint(callback: () => void): () => void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    callback();
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(once, 0);
  });
  const fallback = setTimeout(once, 500);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(fallback);
    if (timer !== undefined) clearTimeout(timer);
  };
}

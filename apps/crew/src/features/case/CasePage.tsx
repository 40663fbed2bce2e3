import { lazy, Suspense, useState } from 'react';
import { useSession } from '../../lib/session';
import { TopBar } from '../../ui/TopBar';
import { CaseProtocolButton } from '../protocol/CaseProtocolButton';
import { ComplaintsTab } from '../complaints/ComplaintsTab';
import { MessageCenterButton } from '../messages/MessageCenterButton';
import { CallButton } from '../call/CallButton';
import { isCallActive } from '../call/callState';
import { ConsultHost, ConsultIndicator } from '../consult/ConsultHost';
import { ConsultInvite } from '../consult/ConsultInvite';
import { isConsultActive } from '../consult/consultState';
import { callMessages, messages } from '@inbound/contract';
import { showAlert } from '../../lib/alerts';
import { AgeGender } from './AgeGender';
import { destinationOf, isCaseClosable } from './caseModel';
import { CaseTabs } from './CaseTabs';
import { CloseCaseDialog, type CloseStep } from './CloseCase';
import { useCaseChannel } from './caseChannel';
import { ArrivalStatus, DiversionAlert } from '../arrival/ArrivalStatus';
import { DestinationWarning } from '../arrival/destinationWarning';
import { TeamsOnTheWay } from '../activation/TeamsOnTheWay';
import { DestinationAdvice, useDestinationAdvice } from '../destination/DestinationAdvice';
import { HospitalBar, HospitalChoices, HospitalPicker, MAX_HOSPITAL_CHOICES } from './HospitalSelector';
import { closeCase } from './mutations';
import { NetworkStatus } from './NetworkStatus';
import { PatientInfoButton, PatientSummary } from './PatientInfo';
import { SessionExpiredModal } from './SessionExpiredModal';
import { LocationOffNotice } from './LocationOffNotice';
import { useAutoClose, useLocationUpdates } from './useCaseLifecycle';

// Desktop only: where the case's position comes from (the vehicle modem, or the browser's fallback).
const DesktopPositionLine = __INBOUND_DESKTOP__
  ? lazy(() => import('../gps/DesktopPositionLine').then((m) => ({ default: m.DesktopPositionLine })))
  : null;

/**
 * `/case` (spec §2): everything is read from the local case (lib/session) and every tap changes it at
 * once; lib/caseOutbox carries the changes to the server. Phone: one column with the hospital bar at
 * the bottom; tablet: the patient column beside the tabs.
 */
export function CasePage() {
  const caseData = useSession((state) => state.case);
  const caseActive = useSession((state) => state.caseActive);
  const team = useSession((state) => state.selectedTeam);
  const needsAuthentication = useSession((state) => state.needsAuthentication);
  const [closeStep, setCloseStep] = useState<CloseStep | null>(null);
  const [pickingHospital, setPickingHospital] = useState(false);

  const location = useLocationUpdates(caseActive && caseData !== null);
  const advice = useDestinationAdvice(
    caseData ?? { complaint: null, complaintSet: team?.complaintSet ?? '' },
    team?.hospitals ?? [],
  );
  useAutoClose(caseData?.createdAt ?? null, team?.maxCaseLength ?? null);
  useCaseChannel(caseData?.id ?? null);

  // The guard sends the crew to Start when there is no case; nothing to show meanwhile.
  if (!caseData) return null;
  const hospitals = team?.hospitals ?? [];
  const destination = destinationOf(caseData, team);
  // A few hospitals: one tap each on the screen; more: the bar that opens the picker.
  const hospitalChoices = hospitals.length > 0 && hospitals.length <= MAX_HOSPITAL_CHOICES;

  return (
    <div className={hospitalChoices ? 'page page--case page--case-choices' : 'page page--case'}>
      <TopBar
        title={
          <>
            Case <span className="top-bar__case-number">{caseData.caseNumber}</span>
          </>
        }
        start={
          <button
            type="button"
            className="top-bar__button top-bar__button--outlined"
            onClick={() =>
              // Spec §4/§8: no closing during a call (a live consult is one too).
              isCallActive() || isConsultActive()
                ? showAlert(callMessages.endCallToClose, messages.warningTitle)
                : setCloseStep(isCaseClosable(caseData, team))
            }
          >
            Close Case
          </button>
        }
        end={
          <>
            <ConsultIndicator />
            <CallButton caseData={caseData} destination={destination} />
            <MessageCenterButton />
          </>
        }
      />
      <NetworkStatus caseId={caseData.id} destination={destination} />
      {DesktopPositionLine && (
        <Suspense fallback={null}>
          <DesktopPositionLine />
        </Suspense>
      )}
      <ArrivalStatus caseId={caseData.id} />
      <DiversionAlert caseId={caseData.id} onChooseHospital={() => setPickingHospital(true)} />
      <TeamsOnTheWay caseId={caseData.id} />
      <ConsultInvite caseData={caseData} team={team} destination={destination} />
      {location === 'off' && <LocationOffNotice />}
      <div className="case-layout">
        <section className="case-layout__patient" aria-label="Patient">
          <PatientSummary caseData={caseData} />
          <AgeGender caseData={caseData} />
          {team?.patientInfoForm && <PatientInfoButton caseData={caseData} form={team.patientInfoForm} />}
          <CaseProtocolButton caseData={caseData} />
          {hospitalChoices && (
            <HospitalChoices
              hospitals={hospitals}
              destination={destination}
              advice={<DestinationAdvice advice={advice} destination={destination} />}
              advisedId={advice?.ranked[0]?.hospital.id ?? null}
            />
          )}
        </section>
        <CaseTabs complaints={<ComplaintsTab caseData={caseData} />} />
      </div>
      {!hospitalChoices && <DestinationAdvice advice={advice} destination={destination} />}
      {!hospitalChoices && (
        <HospitalBar hospitals={hospitals} destination={destination} onOpenPicker={() => setPickingHospital(true)} />
      )}
      {pickingHospital && (
        <HospitalPicker
          hospitals={hospitals}
          selectedId={caseData.destinationHospital?.id ?? null}
          onClose={() => setPickingHospital(false)}
        />
      )}
      <DestinationWarning />
      <ConsultHost destination={destination} />
      {needsAuthentication && <SessionExpiredModal />}
      {closeStep && (
        <CloseCaseDialog
          step={closeStep}
          onCancel={() => setCloseStep(null)}
          onChooseHospital={() => {
            setCloseStep(null);
            setPickingHospital(true);
          }}
          onConfirm={() => {
            setCloseStep(null);
            void closeCase();
          }}
        />
      )}
    </div>
  );
}

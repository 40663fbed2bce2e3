import type { CaseTimelineEntry } from '@inbound/contract';
import { formatAge, formatClock, formatGender } from '../board/format';

const MEDIA_NAMES: Record<string, string> = {
  photo: 'Photo',
  id: 'ID photo',
  ekg: 'EKG',
  video: 'Video',
  voicememo: 'Voice memo',
};

const str = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** A date-time as the screen's local clock (never the raw ISO text); empty means the crew said "unknown". */
function fieldText(field: { value?: unknown; type?: unknown }): string {
  const value = str(field.value);
  if (field.type !== 'datetime') return value;
  if (value === '') return 'unknown';
  return Number.isNaN(Date.parse(value)) ? value : formatClock(value);
}

const CALL_OUTCOMES: Record<string, string> = {
  cancelled: 'cancelled by the crew',
  rejected: 'declined',
  missed: 'not answered',
  failed: 'could not connect',
  lost: 'connection lost',
};

/** A call's line: who called, who answered, how long (mm:ss), how it ended. */
function describeCall(d: Record<string, unknown>): string {
  const seconds = Number(d.durationSeconds) || 0;
  const length = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  const caller = str(d.callerName) || 'Crew';
  if (d.outcome === 'completed' || (d.answeredByName && d.outcome === 'lost')) {
    const lost = d.outcome === 'lost' ? ', connection lost' : '';
    return `Voice call ${caller} → ${str(d.answeredByName)}, ${length}${lost}${d.recorded ? ', recorded' : ''}`;
  }
  return `Voice call from ${caller}, ${CALL_OUTCOMES[str(d.outcome)] ?? str(d.outcome)}`;
}

/** One line saying what a case event changed, in the words staff use. */
export function describeEvent(entry: CaseTimelineEntry): string {
  const d = entry.detail;
  switch (entry.type) {
    case 'caseStarted':
      return `Case ${str(d.caseNumber)} started`;
    case 'hospital':
      return d.destinationName ? `Destination set to ${str(d.destinationName)}` : 'Destination set to this hospital';
    case 'complaint':
      return `Complaint: ${str(d.complaintName) || str(d.complaint)}`;
    case 'age': {
      const period = Number(d.agePeriod);
      return `Age ${formatAge({ age: Number(d.age), agePeriod: period === 1 || period === 2 ? period : 3 }) ?? ''}`;
    }
    case 'gender':
      return `Gender: ${formatGender(d.gender === 'M' || d.gender === 'F' ? d.gender : null) ?? '—'}`;
    case 'tag':
      return `${d.action === 'removed' ? 'Removed' : 'Added'}: ${str(d.tagName) || str(d.tagId)}`;
    case 'dataEnabledTag': {
      const fields = Array.isArray(d.fields) ? (d.fields as { name?: unknown; value?: unknown; type?: unknown }[]) : [];
      return `${str(d.tagName) || str(d.tagId)}: ${fields.map((f) => `${str(f.name)} ${fieldText(f)}`.trim()).join(', ')}`;
    }
    case 'location':
      return `Position ${Number(d.latitude).toFixed(5)}, ${Number(d.longitude).toFixed(5)}`;
    case 'arrived':
      return 'Arrived at the hospital';
    case 'acknowledged':
      return `Acknowledged by ${str(d.byName)}`;
    case 'arrivedAtDestination':
      return `Arrived at ${formatClock(str(d.at))} (${d.source === 'geofence' ? 'GPS at the door' : d.source === 'crew' ? 'crew closed the case' : `marked by ${str(d.byName)}`})`;
    case 'handoffAccepted':
      return `Handoff accepted by ${str(d.byName)}`;
    case 'diverted':
      return `Diverted by ${str(d.byName)} (${str(d.hospitalName)}): ${str(d.reason)}`;
    case 'patientInfo':
      return 'Patient info updated';
    case 'monitor':
      return 'Monitor linked';
    case 'caseFeedback':
      return 'Crew sent case feedback';
    case 'call':
      return describeCall(d);
    case 'callrecording':
      // Partial: its console closed mid-call and sent what it had kept at the next sign-in (decision 0042).
      return d.partial === true
        ? 'Call recording added (partial: the console closed during the call)'
        : 'Call recording added';
    case 'liveconsult': {
      const seconds = Number(d.durationSeconds) || 0;
      const names = Array.isArray(d.participants)
        ? [...new Set(d.participants.map((p: unknown) => str((p as Record<string, unknown>).name)))]
        : [];
      return `Live consult, ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}: ${names.join(', ')}`;
    }
    case 'transfer':
      if (d.action === 'handedOver') return 'Case transferred to another crew';
      return d.action === 'receiverAdmitted' ? 'Another crew is taking over the case' : 'Case transfer ended';
    case 'teamActivated':
      return `${str(d.teamName)} team activated by ${str(d.byName)}`;
    case 'teamAcknowledged':
      return `${str(d.name)} (${str(d.teamName)} team): on my way`;
    case 'teamRealerted':
      return `Team alerted again (round ${str(d.round)})`;
    case 'teamEscalated':
      return 'No answer in time: backups alerted';
    case 'teamStoodDown':
      return `${str(d.teamName)} team stood down by ${str(d.byName)}`;
    default:
      return MEDIA_NAMES[entry.type] ? `${MEDIA_NAMES[entry.type]} added` : entry.type;
  }
}

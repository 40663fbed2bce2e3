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

/** One line saying what a case event changed, in the words staff use. */
export function describeEvent(entry: CaseTimelineEntry): string {
  const d = entry.detail;
  switch (entry.type) {
    case 'caseStarted':
      return `Case ${str(d.caseNumber)} started`;
    case 'hospital':
      return 'Destination set to this hospital';
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
    case 'patientInfo':
      return 'Patient info updated';
    case 'monitor':
      return 'Monitor linked';
    case 'caseFeedback':
      return 'Crew sent case feedback';
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

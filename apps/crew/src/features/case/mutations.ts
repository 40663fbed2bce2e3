/**
 * Every change the crew makes to a case: the local case (lib/session) is updated at once, so the screen
 * shows it on the tap, then the change is queued in the outbox, which carries it to the server in order.
 * Nothing here calls the API directly.
 */
import type { CasePosition } from '../../lib/positionSource';
import {
  messages,
  type AgePeriodCode,
  type Gender,
  type PatientInfoEntry,
  type Tag,
  type TagFieldValue,
} from '@inbound/contract';
import { showAlert } from '../../lib/alerts';
import { caseOutbox } from '../../lib/caseOutbox';
import { caseMutations, type MutationInput } from '../../lib/outbox';
import { useSession, type StoredCase } from '../../lib/session';
import { addTagChanges, tagChanges, type TagChange } from '../complaints/tagRules';
import { destinationOf, shouldAskCaseFeedback } from './caseModel';

let queueing: Promise<void> = Promise.resolve();

/**
 * Applies `update` to the local case now, then queues the changes `build` makes from the case id, one
 * after the other (their order is the order the server sees). Returns once they are stored on the device.
 */
export function recordChange(
  update: (current: StoredCase) => StoredCase,
  build: (caseId: string) => MutationInput[],
): Promise<void> {
  const current = useSession.getState().case;
  if (!current) return Promise.resolve();
  useSession.setState({ case: update(current) });
  return enqueueInOrder(build(current.id));
}

/**
 * Queues one tap's changes after every change queued before them: two quick taps are never interleaved
 * (the outbox stores in the order of the calls), and a tap's changes go in together, in one transaction.
 * Called at once, not after the previous tap is stored, so the sealing starts while the screen renders.
 */
export function enqueueInOrder(inputs: readonly MutationInput[]): Promise<void> {
  const stored = caseOutbox.enqueueAll(inputs).then(
    () => undefined,
    (error: unknown) => {
      console.error('a case change could not be queued', error);
      showAlert(messages.changeNotSaved, messages.warningTitle);
    },
  );
  queueing = queueing.then(() => stored);
  return queueing;
}

/** Resolves once every change recorded so far is in the outbox (tests, close). */
export function whenChangesQueued(): Promise<void> {
  return queueing;
}

export function chooseComplaint(complaintId: string): Promise<void> {
  const current = useSession.getState().case;
  // Spec §4: changing the complaint to the same id is ignored.
  if (!current || current.complaint === complaintId) return Promise.resolve();
  return recordChange(
    (c) => ({ ...c, complaint: complaintId }),
    (id) => [caseMutations.patchCase(id, { complaint: complaintId })],
  );
}

/**
 * A change of complaint that drops the old complaint's tags (issue 16, item 5; the crew was asked): the
 * removals first, while the tags still belong to the case's complaint on the server, then the complaint.
 */
export function changeComplaint(complaintId: string): Promise<void> {
  const current = useSession.getState().case;
  if (!current || current.complaint === complaintId) return Promise.resolve();
  const removals: TagChange[] = current.tags.map((tag) => ({ op: 'remove', tagId: tag.id }));
  return recordChange(
    (c) => ({ ...applyTagChanges(c, removals), complaint: complaintId }),
    (id) => [...tagMutations(id, removals), caseMutations.patchCase(id, { complaint: complaintId })],
  );
}

export function chooseHospital(hospitalId: string): Promise<void> {
  const current = useSession.getState().case;
  if (!current || current.destinationHospital?.id === hospitalId) return Promise.resolve();
  return recordChange(
    (c) => ({ ...c, destinationHospital: { id: hospitalId } }),
    (id) => [caseMutations.patchCase(id, { destinationHospital: hospitalId })],
  );
}

/** Spec §4 Gender: tapping the chosen value clears it. */
export function tapGender(gender: Gender): Promise<void> {
  const current = useSession.getState().case;
  if (!current) return Promise.resolve();
  const next = current.gender === gender ? null : gender;
  return recordChange(
    (c) => ({ ...c, gender: next }),
    (id) => [caseMutations.patchCase(id, { gender: next })],
  );
}

export function setAge(age: number, agePeriod: AgePeriodCode): Promise<void> {
  return recordChange(
    (c) => ({ ...c, age, agePeriod }),
    (id) => [caseMutations.patchCase(id, { age, agePeriod })],
  );
}

export function clearAge(): Promise<void> {
  const current = useSession.getState().case;
  if (!current || current.age === null) return Promise.resolve();
  return recordChange(
    (c) => ({ ...c, age: null }),
    (id) => [caseMutations.patchCase(id, { age: null })],
  );
}

function applyTagChanges(current: StoredCase, changes: readonly TagChange[]): StoredCase {
  let tags = current.tags;
  for (const change of changes) {
    tags =
      change.op === 'remove'
        ? tags.filter((tag) => tag.id !== change.tagId)
        : [...tags.filter((tag) => tag.id !== change.tagId), { id: change.tagId, values: [] }];
  }
  return { ...current, tags };
}

function tagMutations(caseId: string, changes: readonly TagChange[]): MutationInput[] {
  return changes.map((change) =>
    change.op === 'remove' ? caseMutations.removeTag(caseId, change.tagId) : caseMutations.addTag(caseId, change.tagId),
  );
}

const selectedIds = (c: StoredCase) => new Set(c.tags.map((tag) => tag.id));

/** Spec §4 Tags: remove, swap within the group (remove first, then add), or add. */
export function tapTag(tag: Tag, complaintTags: readonly Tag[]): Promise<void> {
  const current = useSession.getState().case;
  if (!current) return Promise.resolve();
  const changes = tagChanges(selectedIds(current), tag, complaintTags);
  return recordChange(
    (c) => applyTagChanges(c, changes),
    (id) => tagMutations(id, changes),
  );
}

/** Removes a tag (the data-enabled modal's Remove). */
export function removeTag(tagId: string): Promise<void> {
  const current = useSession.getState().case;
  if (!current || !selectedIds(current).has(tagId)) return Promise.resolve();
  const changes: TagChange[] = [{ op: 'remove', tagId }];
  return recordChange(
    (c) => applyTagChanges(c, changes),
    (id) => tagMutations(id, changes),
  );
}

/** Spec §5 Data-enabled tag: ADD saves the values, and selects the tag first if it was not. */
export function addTagValues(
  tag: Tag,
  complaintTags: readonly Tag[],
  fields: TagFieldValue[],
  now: Date = new Date(),
): Promise<void> {
  const current = useSession.getState().case;
  if (!current) return Promise.resolve();
  const changes = addTagChanges(selectedIds(current), tag, complaintTags);
  const entry = { fields, updatedAt: now.toISOString() };
  return recordChange(
    (c) => {
      const withTag = applyTagChanges(c, changes);
      return {
        ...withTag,
        tags: withTag.tags.map((item) => (item.id === tag.id ? { ...item, values: [...item.values, entry] } : item)),
      };
    },
    (id) => [...tagMutations(id, changes), caseMutations.tagValues(id, tag.id, { fields })],
  );
}

export function savePatientInfo(formId: string, fields: PatientInfoEntry[]): Promise<void> {
  return recordChange(
    (c) => ({ ...c, patientInfo: fields }),
    (id) => [caseMutations.dynamicForm(id, formId, { fields })],
  );
}

export function recordLocation(position: CasePosition): Promise<void> {
  const current = useSession.getState().case;
  if (!current || !useSession.getState().caseActive) return Promise.resolve();
  const { latitude, longitude, accuracy, recordedAt } = position;
  return recordChange(
    (c) => c,
    (id) => [
      caseMutations.location(id, {
        latitude,
        longitude,
        accuracy: accuracy !== undefined && Number.isFinite(accuracy) ? Math.max(0, accuracy) : undefined,
        recordedAt,
      }),
    ],
  );
}

/**
 * Spec §4 close: the case is cleared, feedback is set pending when the hospital takes it, the crew is
 * back on Start at once (the guard follows `caseActive`), then arrivedAt is sent. The case is listed in
 * `closedCases` until its changes are delivered and its traces wiped (closedCaseWipe).
 */
export function closeCase(now: Date = new Date()): Promise<void> {
  const current = useSession.getState().case;
  if (!current) return Promise.resolve();
  const { selectedTeam, user, doNotDisturb, closedCases } = useSession.getState();
  const destination = destinationOf(current, selectedTeam);
  const askFeedback = shouldAskCaseFeedback(destination, doNotDisturb[user?.id ?? ''] ?? false);
  useSession.setState({
    case: null,
    caseActive: false,
    caseFeedbackPending: askFeedback && destination ? { caseId: current.id, hospitalName: destination.name } : null,
    // Its changes are still on their way; closedCaseWipe removes the last traces once they are delivered.
    closedCases: [
      ...closedCases.filter((closed) => closed.id !== current.id),
      { id: current.id, caseNumber: current.caseNumber, closedAt: now.toISOString() },
    ],
    // The previous case's watch gives way to this one's, which the outbox's answer fills in.
    handoffWatch: null,
  });
  const close = caseMutations.patchCase(current.id, { arrivedAt: now.toISOString() });
  // Start follows the hand-over with an opaque token; a hospital off the platform has no console to accept it.
  const follow = destination && !destination.nonTwiage ? [caseMutations.handoffWatch(current.id)] : [];
  return enqueueInOrder([close, ...follow]);
}

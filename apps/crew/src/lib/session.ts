/**
 * The crew's session: who is signed in, their teams, the chosen team and truck, the shift end, the case
 * flags. One small zustand store (decision 0004); every field of `StoredSession` is written to
 * `localData` (lib/storage) as it changes and read back by `hydrateSession()` before the router starts.
 */
import { create } from 'zustand';
import type {
  AgePeriodCode,
  AuthToken,
  CaseTag,
  ComplaintSet,
  Gender,
  PatientInfoEntry,
  Team,
  Truck,
  User,
} from '@inbound/contract';
import { readDeviceFlag, writeDeviceFlag } from './deviceFlag';
import { localData as defaultLocalData, type LocalData } from './storage';

/**
 * The case as kept on the device (spec §3 Case): the screen reads it first and every tap updates it at
 * once (the outbox then carries the change to the server). While the server has not answered the create,
 * `id` is `placeholder-{timestamp}` and `caseNumber` '...'.
 */
export interface StoredCase {
  id: string;
  caseNumber: string;
  channelId: string | null;
  ownedBy: string | null;
  type: 'emsED' | 'hospitalED';
  /** ISO instant: when the crew started it, replaced by the server's on create. */
  createdAt: string;
  emsAgency: string;
  truck: string;
  complaintSet: string;
  complaint: string | null;
  destinationHospital: { id: string } | null;
  tags: CaseTag[];
  age: number | null;
  agePeriod: AgePeriodCode;
  gender: Gender | null;
  patientInfo: PatientInfoEntry[];
  /** The team monitor linked to the patient (§5 monitor form); absent on cases stored before it existed. */
  monitorIntegration?: { monitorId: string; patientId: string; type: string } | null;
}

/**
 * A case closed on this device whose traces may still be here: only what the wipe needs to find them
 * (features/case/closedCaseWipe), no patient data. Removed once the wipe is done.
 */
export interface ClosedCase {
  /** The case id at close: the real one, or `placeholder-{ts}` when the create had not been answered yet. */
  id: string;
  caseNumber: string;
  /** ISO instant. */
  closedAt: string;
}

/**
 * The closed case's hand-over, followed on Start (decision 0038): an opaque server token, the hospital's
 * name, when the token expires, and who accepted once known — no case id or number, no patient data.
 */
export interface HandoffWatch {
  token: string;
  hospitalName: string;
  expiresAt: string;
  handoff: { byName: string; at: string } | null;
}

export interface StoredSession {
  jwt: AuthToken | null;
  user: User | null;
  teams: Team[];
  selectedTeam: Team | null;
  selectedTruck: Truck | null;
  /** Shift end as the spec stores it, HH:mm:ss (local time). */
  autoLogoutTime: string | null;
  /** The same shift end as a full ISO instant, so the date is known too. */
  autoLogoutAt: string | null;
  case: StoredCase | null;
  caseActive: boolean;
  /** The selected team's complaint set, kept so that a case started with no coverage has its list. */
  complaintSet: ComplaintSet | null;
  caseTransfer: unknown;
  /** Set when a closed case's hospital takes case feedback (spec §4): Start shows the rating modal. */
  caseFeedbackPending: { caseId: string; hospitalName: string } | null;
  /** Per user id. */
  doNotDisturb: Record<string, boolean>;
  /** Per user id. */
  emtLevel: Record<string, string>;
  pushToken: string | null;
  /** ISO time the Message Center was last opened; newer broadcasts count as unread. */
  messageCenterLastOpened: string | null;
  /** Closed cases not wiped from the device yet (their changes are still on their way). */
  closedCases: ClosedCase[];
  /** The last closed case's hand-over watch (opaque token, hospital name), shown on Start for 2 h. */
  handoffWatch: HandoffWatch | null;
}

export interface SessionState extends StoredSession {
  hydrated: boolean;
  /**
   * Set when a 401 or an expired token meets an active case (spec §4): the session-expired modal (case
   * issue) reads it and lets the crew authenticate again without losing the case.
   */
  needsAuthentication: boolean;
}

export const emptySession: StoredSession = {
  jwt: null,
  user: null,
  teams: [],
  selectedTeam: null,
  selectedTruck: null,
  autoLogoutTime: null,
  autoLogoutAt: null,
  case: null,
  caseActive: false,
  complaintSet: null,
  caseTransfer: null,
  caseFeedbackPending: null,
  doNotDisturb: {},
  emtLevel: {},
  pushToken: null,
  messageCenterLastOpened: null,
  closedCases: [],
  handoffWatch: null,
};

export const storedKeys = Object.keys(emptySession) as (keyof StoredSession)[];

/** Kept across logout: they are keyed by user id precisely so that each crew member's choice survives. */
export const perUserKeys = ['doNotDisturb', 'emtLevel'] as const satisfies readonly (keyof StoredSession)[];

/**
 * Kept across logout as well: the device's own duties, not the crew member's. An automatic logout keeps
 * the outbox, so the closed cases still waiting to be wiped must be remembered too.
 */
export const keptOnLogoutKeys = [...perUserKeys, 'closedCases'] as const satisfies readonly (keyof StoredSession)[];

export const useSession = create<SessionState>()(() => ({
  ...emptySession,
  hydrated: false,
  needsAuthentication: false,
}));

/**
 * Set, synchronously, the moment a logout's wipe is asked for and removed once it is on the device. The
 * screen is back at login at once while the wipe takes a few IndexedDB round trips; a page reloaded or
 * closed in between finishes the wipe when it next starts, so whoever picks the tablet up next is never
 * signed in as the medic who signed out. A refused localStorage only loses this protection.
 */
const WIPE_PENDING = 'inbound.sessionWipePending';

let writes: Promise<void> = Promise.resolve();
let stopPersisting: (() => void) | null = null;
let persistedTo: LocalData | null = null;

/** Reads the stored session (async: decryption), puts it in the store, then keeps the store persisted. */
export async function hydrateSession(store: LocalData = defaultLocalData): Promise<void> {
  stopPersisting?.();
  await writes;
  if (readDeviceFlag(WIPE_PENDING)) await wipe(store, await readKeptOnLogout(store));
  const loaded: Partial<StoredSession> = {};
  await Promise.all(
    storedKeys.map(async (key) => {
      const value = await store.get(key);
      if (value !== undefined) (loaded as Record<string, unknown>)[key] = value;
    }),
  );
  useSession.setState({ ...emptySession, ...loaded, hydrated: true, needsAuthentication: false });
  persistedTo = store;
  stopPersisting = useSession.subscribe((state, previous) => {
    for (const key of storedKeys) {
      if (state[key] !== previous[key]) {
        // An empty value (signed out, cleared) removes the entry rather than storing `null`.
        const value = isEmptyValue(state[key]) ? undefined : state[key];
        writes = writes
          .then(() => store.set(key, value))
          .catch((error: unknown) => console.error('storage write failed', error));
      }
    }
  });
}

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === false || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** Resolves once every write queued so far has reached storage. */
export function flushSessionWrites(): Promise<void> {
  return writes;
}

/** Back to signed out: everything but the per-user preferences and the closed cases still to wipe. */
export function clearSession(): void {
  const { doNotDisturb, emtLevel, closedCases } = useSession.getState();
  useSession.setState({ ...emptySession, doNotDisturb, emtLevel, closedCases, needsAuthentication: false });
}

/**
 * Logout's storage side (decision 0007): deletes every stored value and the encryption key but the
 * per-user preferences and the closed cases still to wipe, which are sealed again under a new key.
 */
export function wipeStoredSession(): Promise<void> {
  const store = persistedTo;
  if (!store) return writes;
  writeDeviceFlag(WIPE_PENDING, true);
  writes = writes
    .then(() => wipe(store, keptOnLogout(useSession.getState())))
    .catch((error: unknown) => console.error('storage wipe failed', error));
  return writes;
}

async function wipe(store: LocalData, kept: Partial<StoredSession>): Promise<void> {
  await store.clear(kept);
  writeDeviceFlag(WIPE_PENDING, false);
}

function keptOnLogout(state: Partial<StoredSession>): Partial<StoredSession> {
  return Object.fromEntries(keptOnLogoutKeys.flatMap((key) => (isEmptyValue(state[key]) ? [] : [[key, state[key]]])));
}

async function readKeptOnLogout(store: LocalData): Promise<Partial<StoredSession>> {
  const stored = await Promise.all(keptOnLogoutKeys.map(async (key) => [key, await store.get(key)] as const));
  return keptOnLogout(Object.fromEntries(stored) as Partial<StoredSession>);
}

/** Tests: a fresh, hydrated, unpersisted store. */
export function resetSessionForTests(state: Partial<StoredSession> = {}): void {
  stopPersisting?.();
  stopPersisting = null;
  persistedTo = null;
  useSession.setState({ ...emptySession, ...state, hydrated: true, needsAuthentication: false }, true);
}

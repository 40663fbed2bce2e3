/**
 * Case transfer, both sides (spec §4 "Case transfer", §8 texts, §9 timers), outside React so the
 * timers and the state machine are one testable thing; the modals read `useTransfer`.
 *
 * Sender (the crew with the case): `openTransfer()` → POST /v4/case-transfers, subscribe `transfer:{id}`,
 * the modal shows the code. A request (open) asks Accept / Decline; accepted → "The requester is loading
 * the case."; received → "The requester received the case." and the transfer is acknowledged (done);
 * done → the case is cleared here and 'The case transfer is done.'.
 * Receiver (Start, 'Tap to Receive Case'): `requestTransfer(code)` → POST .../{code}/request, spinner;
 * accepted → the case is fetched and marked received; done → the case is loaded and the guard shows
 * /case. Declined, cancelled and expired end it with their texts.
 *
 * Every CASE_TRANSFER_UPDATED on the channel refreshes the state (GET). While waiting, connectivity is
 * probed every 5 s; offline for 60 s cancels the transfer ('The case transfer timed out and it was
 * cancelled.'); back online before that resubscribes and refreshes. The channel is left 2 s after the
 * end, so the last updates still arrive. A transfer marks the app busy (no reload; calls check it).
 */
import { create } from 'zustand';
import {
  CASE_TRANSFER_OFFLINE_TIMEOUT_MS,
  CASE_TRANSFER_POLL_MS,
  CASE_TRANSFER_UNSUBSCRIBE_DELAY_MS,
  dispatchMessages,
  messages,
  transferMessages,
  type Case,
  type CaseTransfer,
} from '@inbound/contract';
import { showAlert } from '../../lib/alerts';
import { api } from '../../lib/apiClient';
import { ApiError } from '../../lib/apiError';
import { caseOutbox } from '../../lib/caseOutbox';
import { errorMessage } from '../../lib/errors';
import { isPlaceholderId } from '../../lib/outbox';
import { realtime } from '../../lib/realtime';
import { useSession, type StoredCase } from '../../lib/session';
import { busyReasons, markBusy } from '../../pwa/busy';

export type TransferRole = 'sender' | 'receiver';

export interface TransferState {
  role: TransferRole | null;
  transfer: CaseTransfer | null;
  /** A call of ours is out (Send Request, Accept, …): its buttons are disabled. */
  inFlight: boolean;
  /** The modal is open (the receiver's shows the code entry before any transfer exists). */
  open: boolean;
  /** Set while the connectivity probe fails; the 60 s timer runs from it. */
  offlineSince: number | null;
}

const initial: TransferState = { role: null, transfer: null, inFlight: false, open: false, offlineSince: null };
export const useTransfer = create<TransferState>(() => initial);

const TITLE = 'Case Transfer';

// ---- connectivity (spec §7 "Connectivity probe fetches a small image file") ------------------------

/** Overridable in tests. The probe asks for the app's smallest icon, never from a cache. */
export const connectivity = {
  async probe(): Promise<boolean> {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return false;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 4_000);
    try {
      const response = await fetch(`/icons/icon-192.png?probe=${Date.now()}`, {
        method: 'HEAD',
        cache: 'no-store',
        signal: controller.signal,
      });
      return response.ok;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  },
};

// ---- the running transfer's resources -----------------------------------------------------------

let stopChannel: (() => void) | null = null;
let channelOf: string | null = null;
let pollTimer: ReturnType<typeof setInterval> | null = null;
let offlineTimer: ReturnType<typeof setTimeout> | null = null;
let releaseBusy: (() => void) | null = null;
/** Side effects already done for this transfer (acknowledge, received, load), so a refresh repeats none. */
const done = new Set<string>();
let loadedCase: Case | null = null;

function set(partial: Partial<TransferState>): void {
  useTransfer.setState(partial);
}

function failureText(error: unknown): string {
  if (error instanceof ApiError && error.kind === 'noResponse') return transferMessages.slowConnection;
  return errorMessage(error);
}

function follow(transfer: CaseTransfer): void {
  const channel = transfer.pubnubChannel;
  if (channelOf === channel && stopChannel) return;
  stopChannel?.();
  channelOf = channel;
  stopChannel = realtime.subscribe(channel, {
    onEvent: (event) => {
      if (event.type === 'CASE_TRANSFER_UPDATED') void refresh();
    },
    // (Re)subscribed after a reconnect: whatever changed meanwhile is fetched.
    onSubscribed: () => void refresh(),
  });
  releaseBusy ??= markBusy('transfer');
  startPolling();
}

function startPolling(): void {
  if (pollTimer) return;
  pollTimer = setInterval(() => void checkConnectivity(), CASE_TRANSFER_POLL_MS);
}

async function checkConnectivity(): Promise<void> {
  const online = await connectivity.probe();
  if (!useTransfer.getState().transfer) return;
  if (!online) {
    if (offlineTimer) return;
    set({ offlineSince: Date.now() });
    offlineTimer = setTimeout(() => void timedOut(), CASE_TRANSFER_OFFLINE_TIMEOUT_MS);
    return;
  }
  if (offlineTimer) {
    clearTimeout(offlineTimer);
    offlineTimer = null;
    set({ offlineSince: null });
    realtime.reconnect();
    await refresh();
  }
}

async function timedOut(): Promise<void> {
  offlineTimer = null;
  const { transfer, role } = useTransfer.getState();
  if (!transfer) return;
  end(transferMessages.timedOut);
  // Best effort: the server also expires it; the other crew then hears 'cancelled'.
  try {
    if (role === 'sender')
      await api.call('cancelTransfer', { params: { id: transfer._id }, body: { reason: 'timeout' } });
    else await api.call('cancelTransferRequest', { params: { id: transfer._id } });
  } catch {
    // Offline, as expected.
  }
}

/** Ends the transfer here: the alert (if any), the channel 2 s later, the timers, the busy mark. */
function end(text: string | null): void {
  if (pollTimer) clearInterval(pollTimer);
  if (offlineTimer) clearTimeout(offlineTimer);
  pollTimer = null;
  offlineTimer = null;
  const stop = stopChannel;
  stopChannel = null;
  channelOf = null;
  if (stop) setTimeout(stop, CASE_TRANSFER_UNSUBSCRIBE_DELAY_MS);
  releaseBusy?.();
  releaseBusy = null;
  done.clear();
  loadedCase = null;
  useTransfer.setState(initial);
  useSession.setState({ caseTransfer: null });
  if (text) showAlert(text, TITLE);
}

// ---- state refresh and reactions ----------------------------------------------------------------

let refreshing: Promise<void> | null = null;
/**
 * An update arrived while a refresh was out. That refresh's GET may have been answered before the change
 * (and its reactions — the receiver's 'received', the sender's acknowledge — take further round trips), so
 * one more GET follows it. Without it the update was lost and, as nothing else announces it, both crews
 * waited for good ('Loading the case…' / 'The requester is loading the case.') on a slow device.
 */
let refreshAgain = false;

export function refresh(): Promise<void> {
  if (!useTransfer.getState().transfer) return Promise.resolve();
  if (refreshing) {
    refreshAgain = true;
    return refreshing;
  }
  refreshing = (async () => {
    try {
      do {
        refreshAgain = false;
        const id = useTransfer.getState().transfer?._id;
        if (!id) return;
        try {
          const transfer = await api.call('getTransfer', { params: { id } });
          if (useTransfer.getState().transfer?._id === id) await apply(transfer);
        } catch (error) {
          // Offline: the poll notices; the next update or reconnect refreshes again.
          if (!(error instanceof ApiError && error.kind === 'noResponse')) console.warn('case transfer refresh failed');
        }
      } while (refreshAgain);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

async function apply(transfer: CaseTransfer): Promise<void> {
  const { role } = useTransfer.getState();
  const previous = useTransfer.getState().transfer;
  set({ transfer });
  useSession.setState({ caseTransfer: { id: transfer._id, role } });
  if (role === 'sender') await reactAsSender(transfer, previous);
  else if (role === 'receiver') await reactAsReceiver(transfer);
}

async function reactAsSender(transfer: CaseTransfer, previous: CaseTransfer | null): Promise<void> {
  if (transfer.status === 'done') {
    clearTransferredCase(transfer.caseId);
    end(transferMessages.done);
    return;
  }
  if (transfer.status === 'cancelled') return end(transferMessages.cancelled);
  if (transfer.status === 'expired') return end(transferMessages.expired);
  const request = transfer.request?.status;
  if (request === 'cancelled' && previous?.request?.status !== 'cancelled') {
    showAlert(transferMessages.requestCancelledForSender, messages.warningTitle);
  }
  if (request === 'received' && !done.has('acknowledge')) {
    done.add('acknowledge');
    try {
      await apply(await api.call('acknowledgeTransfer', { params: { id: transfer._id } }));
    } catch (error) {
      done.delete('acknowledge');
      showAlert(failureText(error), TITLE);
    }
  }
}

async function reactAsReceiver(transfer: CaseTransfer): Promise<void> {
  const request = transfer.request?.status;
  if (transfer.status === 'done' || request === 'done') {
    await loadReceivedCase(transfer);
    return;
  }
  if (transfer.status === 'expired') return end(transferMessages.hasExpired);
  if (transfer.status === 'cancelled') return end(transferMessages.cancelled);
  if (request === 'denied') return end(transferMessages.requestDeclined);
  if (request === 'cancelled') return end(transferMessages.requestCancelledForReceiver);
  if (request === 'accepted' && !done.has('received')) {
    done.add('received');
    try {
      loadedCase = await api.call('getCase', {
        params: { id: transfer.caseId },
        query: { rawDataEnabledTags: 'true' },
      });
      await apply(await api.call('transferReceived', { params: { id: transfer._id } }));
    } catch (error) {
      done.delete('received');
      showAlert(failureText(error), TITLE);
    }
  }
}

async function loadReceivedCase(transfer: CaseTransfer): Promise<void> {
  if (done.has('load')) return;
  done.add('load');
  try {
    // Fetched again: what the sender added between 'accepted' and 'done' is in it.
    loadedCase = await api.call('getCase', { params: { id: transfer.caseId }, query: { rawDataEnabledTags: 'true' } });
  } catch (error) {
    if (!loadedCase) {
      done.delete('load');
      showAlert(failureText(error), TITLE);
      return;
    }
  }
  if (!loadedCase) return;
  openLoadedCase(loadedCase);
  end(null);
}

/**
 * A case this crew now holds from elsewhere — a transfer done, a dispatch claimed: the device keeps it
 * and the route guard shows /case, as for a case started here.
 */
function openLoadedCase(record: Case): void {
  useSession.setState({ case: toStoredCase(record), caseActive: true });
}

/** The case as the device keeps it, from the server's record (the receiver's side). */
export function toStoredCase(record: Case): StoredCase {
  return {
    id: record.id,
    caseNumber: record.caseNumber,
    channelId: record.channelId,
    ownedBy: record.ownedBy,
    type: record.type,
    createdAt: record.createdAt,
    emsAgency: record.emsAgency,
    truck: record.truck,
    complaintSet: record.complaintSet,
    complaint: record.complaint,
    destinationHospital: record.destinationHospital,
    tags: record.tags,
    age: record.age,
    agePeriod: record.agePeriod,
    gender: record.gender,
    patientInfo: record.patientInfo,
    monitorIntegration: record.monitorIntegration,
  };
}

/**
 * Spec §4: the sender's case is cleared (not closed: it goes on with the other crew, so no arrivedAt and
 * no feedback prompt). It is listed in `closedCases` like a closed one, so closedCaseWipe removes what
 * this device still holds of it (query cache, worker cache) — the patient is no longer this crew's.
 */
function clearTransferredCase(caseId: string): void {
  const { case: local, closedCases } = useSession.getState();
  if (!local || local.id !== caseId) return;
  useSession.setState({
    case: null,
    caseActive: false,
    closedCases: [
      ...closedCases.filter((closed) => closed.id !== caseId),
      { id: caseId, caseNumber: local.caseNumber, closedAt: new Date().toISOString() },
    ],
  });
}

// ---- sender actions -----------------------------------------------------------------------------

/** The MEDIA tab's Case Transfer button. */
export async function openTransfer(): Promise<void> {
  const state = useTransfer.getState();
  if (state.role === 'sender' && state.transfer) {
    set({ open: true });
    return;
  }
  if (busyReasons().includes('call')) {
    showAlert(transferMessages.closeCallFirst, messages.warningTitle);
    return;
  }
  const local = useSession.getState().case;
  if (!local || isPlaceholderId(local.id)) {
    showAlert(transferMessages.notAvailable, TITLE);
    return;
  }
  if (!(await connectivity.probe())) {
    showAlert(transferMessages.offline, TITLE);
    return;
  }
  set({ role: 'sender', inFlight: true, open: true });
  try {
    // Everything this crew entered must be on the server before another crew loads the case.
    await caseOutbox.flush();
    if ((await caseOutbox.listPending(local.id)).length > 0) throw new ApiError('noResponse');
    const transfer = await api.call('createTransfer', { body: { caseId: local.id } });
    set({ transfer, inFlight: false });
    useSession.setState({ caseTransfer: { id: transfer._id, role: 'sender' } });
    follow(transfer);
  } catch (error) {
    useTransfer.setState(initial);
    showAlert(failureText(error), TITLE);
  }
}

async function senderCall(name: 'acceptTransferRequest' | 'denyTransferRequest' | 'cancelTransfer'): Promise<void> {
  const transfer = useTransfer.getState().transfer;
  if (!transfer) return;
  set({ inFlight: true });
  try {
    const updated =
      name === 'cancelTransfer'
        ? await api.call(name, { params: { id: transfer._id }, body: { reason: 'user' } })
        : await api.call(name, { params: { id: transfer._id } });
    set({ inFlight: false });
    await apply(updated);
  } catch (error) {
    set({ inFlight: false });
    showAlert(failureText(error), TITLE);
    void refresh();
  }
}

export const acceptRequest = () => senderCall('acceptTransferRequest');
export const declineRequest = () => senderCall('denyTransferRequest');
export const cancelTransfer = () => senderCall('cancelTransfer');

/** Spec §4: only while open and with no request, or one denied, done or cancelled. */
export function canCancelTransfer(transfer: CaseTransfer | null): boolean {
  if (!transfer || transfer.status !== 'open') return false;
  const request = transfer.request?.status;
  return request === undefined || request === 'denied' || request === 'done' || request === 'cancelled';
}

/** Hides the sender's modal; the transfer goes on (the Case Transfer button shows it again). */
export function hideTransfer(): void {
  set({ open: false });
}

// ---- receiver actions ---------------------------------------------------------------------------

/** Start's 'Tap to Receive Case'. */
export function openReceive(): void {
  const state = useTransfer.getState();
  if (state.role === 'sender') return;
  set({ role: 'receiver', open: true });
}

export function requestTransfer(code: string): Promise<void> {
  return sendRequest(code, failureText);
}

async function sendRequest(code: string, failure: (error: unknown) => string): Promise<void> {
  const trimmed = code.trim();
  const { selectedTeam, selectedTruck } = useSession.getState();
  if (!trimmed || useTransfer.getState().inFlight || !selectedTeam || !selectedTruck) return;
  set({ inFlight: true });
  if (!(await connectivity.probe())) {
    set({ inFlight: false });
    showAlert(transferMessages.offline, TITLE);
    return;
  }
  try {
    const transfer = await api.call('requestTransfer', {
      params: { code: trimmed },
      body: { emsAgencyId: selectedTeam.id, truckId: selectedTruck.id },
    });
    set({ transfer, inFlight: false, role: 'receiver' });
    useSession.setState({ caseTransfer: { id: transfer._id, role: 'receiver' } });
    follow(transfer);
    await apply(transfer);
  } catch (error) {
    set({ inFlight: false });
    showAlert(failure(error), TITLE);
  }
}

/** The receiver's Cancel: withdraws an open request; otherwise just closes. */
export async function cancelReceive(): Promise<void> {
  const { transfer } = useTransfer.getState();
  if (transfer && transfer.status === 'open' && transfer.request?.status === 'open') {
    set({ inFlight: true });
    try {
      await api.call('cancelTransferRequest', { params: { id: transfer._id } });
    } catch (error) {
      set({ inFlight: false });
      showAlert(failureText(error), TITLE);
      return;
    }
  }
  end(null);
}

/**
 * Loads a dispatched case from the Message Center ('Click Here to load the case', confirmed): the server
 * hands it to the selected team and truck and answers the case, which opens like a received transfer's
 * (docs/decisions/0014-dispatched-cases.md). Whatever the server refuses — an unknown number, one
 * another crew has, one dispatched to another agency — is §8's Message Center warning.
 */
export async function receiveDispatchedCase(caseNumber: string): Promise<void> {
  const state = useTransfer.getState();
  // A transfer in progress (either side) or a claim already on its way: nothing else starts.
  if (state.role !== null || state.inFlight) return;
  const warning = transferMessages.notAvailableFromMessageCenter(caseNumber);
  const { selectedTeam, selectedTruck, case: local, caseActive } = useSession.getState();
  if (local && caseActive) {
    if (local.caseNumber !== caseNumber) showAlert(dispatchMessages.closeCaseFirst, messages.warningTitle);
    return;
  }
  if (caseNumber.trim() === '' || !selectedTeam || !selectedTruck) {
    showAlert(warning, TITLE);
    return;
  }
  set({ inFlight: true });
  const releaseClaim = markBusy('transfer');
  try {
    if (!(await connectivity.probe())) {
      showAlert(transferMessages.offline, TITLE);
      return;
    }
    const record = await api.call('claimDispatch', {
      params: { caseNumber },
      body: { emsAgencyId: selectedTeam.id, truckId: selectedTruck.id },
    });
    openLoadedCase(record);
  } catch (error) {
    showAlert(
      error instanceof ApiError && error.kind === 'noResponse' ? transferMessages.slowConnection : warning,
      TITLE,
    );
  } finally {
    releaseClaim();
    set({ inFlight: false });
  }
}

/** Tests: drop everything without alerts or timers left behind. */
export function resetTransferForTests(): void {
  end(null);
}

/**
 * After a reload (or a new tab): a transfer kept in the session is followed again, or found over.
 * Its state comes from the server; a transfer that ended meanwhile says so.
 */
export async function resumeTransfer(): Promise<void> {
  const kept = useSession.getState().caseTransfer as { id?: unknown; role?: unknown } | null;
  if (!kept || typeof kept.id !== 'string' || useTransfer.getState().transfer) return;
  const role: TransferRole = kept.role === 'receiver' ? 'receiver' : 'sender';
  try {
    const transfer = await api.call('getTransfer', { params: { id: kept.id } });
    set({ role, transfer, open: true });
    follow(transfer);
    await apply(transfer);
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'noResponse') return;
    useSession.setState({ caseTransfer: null });
  }
}

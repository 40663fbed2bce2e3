import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { callMessages, messages, type Team } from '@inbound/contract';
import { setCallActive } from '../call/callState';
import { useConsultView } from '../consult/consultState';
import { caseOutbox } from '../../lib/caseOutbox';
import { useSession, type StoredCase } from '../../lib/session';
import { mockFetch } from '../../test/fetchMock';
import { caseTeam, complaintSet, hospital, localCase, signedInSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { whenChangesQueued } from '../case/mutations';
import type { MediaItem } from './mediaQueue';

// The device's queue is H1's (mediaQueue.ts, tested there); here it is a list the test sets.
const local = vi.hoisted(() => ({ items: [] as MediaItem[] }));
vi.mock('./mediaQueue', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./mediaQueue')>()),
  useMediaItems: (caseId: string | null) => local.items.filter((item) => item.caseId === caseId),
}));

const lifepak = { _id: 'm-lifepak', name: 'LIFEPAK 15', type: 'lifepak' };
const zoll = { _id: 'm-zoll', name: 'ZOLL X', type: 'zoll' };
const liveHospital = hospital('rrmc', 'Riverside Regional Medical Center', ['liveConsult']);
const plainHospital = hospital('stmary', "St. Mary's Hospital");

function session(team: Partial<Team> = {}, overrides: Partial<StoredCase> = {}) {
  const selectedTeam = { ...caseTeam, hospitals: [liveHospital, plainHospital], ...team };
  return {
    ...signedInSession(),
    teams: [selectedTeam],
    selectedTeam,
    complaintSet,
    case: localCase(overrides),
    caseActive: true,
  };
}

const counts = (photo = 0, video = 0) => ({ photo, id: 0, ekg: 0, video, voicememo: 0 });

function server(mediaCounts = counts()) {
  return mockFetch({
    'GET /notification/broadcast/me': { body: { data: [] } },
    'GET /v4/complaintSets': { body: [complaintSet] },
    'GET /media/twiage-cases/case-1/uploads': { body: { uploads: [], mediaCounts } },
  });
}

async function openMedia(team: Partial<Team> = {}, overrides: Partial<StoredCase> = {}) {
  const view = renderApp('/case', session(team, overrides));
  await view.user.click(await screen.findByRole('tab', { name: 'MEDIA' }));
  await screen.findByRole('button', { name: /^Photo, / });
  return view;
}

beforeEach(async () => {
  local.items = [];
  await caseOutbox.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('MEDIA tab', () => {
  it("counts the server's media plus what is still on the device, and lists each item's state", async () => {
    server(counts(2, 1));
    local.items = [
      {
        key: 'k1',
        caseId: 'case-1',
        eventType: 'photo',
        size: 250_000,
        createdAt: Date.now(),
        status: 'sending',
        progress: 0.4,
        error: null,
      },
      {
        key: 'k2',
        caseId: 'case-1',
        eventType: 'voicememo',
        size: 20_000,
        createdAt: Date.now() - 1_000,
        status: 'failed',
        error: 'The voicememo file is too large: at most 20 MB.',
        progress: 0,
      },
    ];
    await openMedia();
    expect(await screen.findByRole('button', { name: 'Photo, 3 items' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'ID, 0 items' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Video, 1 item' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Voice Memo, 1 item' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Live Consult' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Case Transfer/ })).toBeInTheDocument();

    const list = screen.getByRole('list', { name: 'Media items' });
    expect(within(list).getByText('Sending 40 %')).toBeInTheDocument();
    expect(within(list).getByRole('progressbar', { name: 'Photo upload progress' })).toHaveAttribute('value', '0.4');
    expect(within(list).getByRole('alert')).toHaveTextContent(
      'Not sent: The voicememo file is too large: at most 20 MB.',
    );
  });

  it("says 'getUserMedia is not implemented in this browser' where the browser cannot capture", async () => {
    server();
    const { user } = await openMedia();
    expect(navigator.mediaDevices).toBeUndefined(); // jsdom, like an old in-app browser
    await user.click(screen.getByRole('button', { name: /^Photo, / }));
    const camera = screen.getByRole('dialog', { name: 'Photo' });
    expect(await within(camera).findByRole('alert')).toHaveTextContent(messages.getUserMediaMissing);
    expect(within(camera).getByRole('button', { name: 'Capture' })).toBeDisabled();
    await user.click(within(camera).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('switches camera only where there are two, and stops every track on a switch and on leaving', async () => {
    server();
    const streams: { deviceId: string; stop: ReturnType<typeof vi.fn> }[] = [];
    const getUserMedia = vi.fn(async (constraints: MediaStreamConstraints) => {
      const wanted = (constraints.video as MediaTrackConstraints).deviceId as { exact: string } | undefined;
      const entry = { deviceId: wanted?.exact ?? 'back', stop: vi.fn() };
      streams.push(entry);
      const track = { stop: entry.stop, getSettings: () => ({ deviceId: entry.deviceId }) };
      return { getTracks: () => [track], getVideoTracks: () => [track] } as unknown as MediaStream;
    });
    const cameras = ['back', 'front'].map((deviceId) => ({
      kind: 'videoinput',
      deviceId,
      label: deviceId,
      groupId: '',
    }));
    vi.stubGlobal('navigator', {
      ...navigator,
      mediaDevices: { getUserMedia, enumerateDevices: vi.fn(async () => cameras) },
    });
    const { user } = await openMedia();
    await user.click(screen.getByRole('button', { name: /^ID, / }));
    const camera = screen.getByRole('dialog', { name: 'ID' });
    await user.click(await within(camera).findByRole('button', { name: 'Switch camera' }));
    await waitFor(() => expect(streams.map((entry) => entry.deviceId)).toEqual(['back', 'front']));
    expect(streams[0]!.stop).toHaveBeenCalled();
    await user.click(within(camera).getByRole('button', { name: 'Close' }));
    expect(streams[1]!.stop).toHaveBeenCalled();
  });

  it('EKG goes straight to the picture when the team has no monitors, and says nothing about monitors', async () => {
    server();
    const { user } = await openMedia({ monitors: [] });
    expect(screen.queryByText(messages.monitorIntegrationAvailable)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^EKG, / }));
    expect(screen.getByRole('dialog', { name: 'EKG picture' })).toBeInTheDocument();
  });

  it('live consult: a hospital first, one that supports it, no call on; then the room opens (here: no camera API, so the §8 text)', async () => {
    server();
    const { user } = await openMedia();
    const warning = async (text: string) => {
      const alert = await screen.findByRole('alertdialog', { name: messages.warningTitle });
      expect(alert).toHaveTextContent(text);
      await user.click(within(alert).getByRole('button', { name: 'OK' }));
    };
    await user.click(screen.getByRole('button', { name: 'Live Consult' }));
    await warning(messages.selectHospitalForLiveConsult);

    useSession.setState({ case: { ...useSession.getState().case!, destinationHospital: { id: 'stmary' } } });
    await user.click(screen.getByRole('button', { name: 'Live Consult' }));
    await warning("St. Mary's Hospital does not support Live Consults.");

    useSession.setState({ case: { ...useSession.getState().case!, destinationHospital: { id: 'rrmc' } } });
    setCallActive(true);
    await user.click(screen.getByRole('button', { name: 'Live Consult' }));
    await warning(callMessages.endCallToStartConsult);
    setCallActive(false);

    await user.click(screen.getByRole('button', { name: 'Live Consult' }));
    expect(useConsultView.getState().view).toBe('open');
    // jsdom has no getUserMedia: the room says so (spec §8) and closes.
    await warning(messages.getUserMediaMissing);
    expect(useConsultView.getState().view).toBe('none');
  });
});

describe('monitor form (§5)', () => {
  it('Select Monitor and Enter PT ID (digits only, max 4, 0000); Save only with both; shown at once and queued', async () => {
    server();
    const { user } = await openMedia({ monitors: [lifepak, zoll] });
    const ekg = screen.getByRole('button', { name: /^EKG, / });
    expect(ekg).toHaveAccessibleDescription(messages.monitorIntegrationAvailable);
    await user.click(ekg);
    const chooser = screen.getByRole('dialog', { name: 'EKG' });
    expect(within(chooser).getByRole('button', { name: 'Picture' })).toBeInTheDocument();
    await user.click(within(chooser).getByRole('button', { name: 'Monitor Integration' }));

    const form = screen.getByRole('dialog', { name: 'Monitor' });
    const select = within(form).getByRole('combobox', { name: 'Monitor' });
    expect(select).toHaveDisplayValue(messages.selectMonitor);
    const ptId = within(form).getByLabelText(messages.enterPtId);
    expect(ptId).toHaveAttribute('placeholder', '0000');
    const save = within(form).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();

    await user.type(ptId, 'a1-2b3 45');
    expect(ptId).toHaveValue('1234');
    expect(save).toBeDisabled(); // no monitor yet
    await user.selectOptions(select, 'ZOLL X');
    expect(save).toBeEnabled();
    await user.clear(ptId);
    expect(save).toBeDisabled(); // no PT ID
    await user.type(ptId, '0042');
    await user.click(save);

    expect(screen.queryByRole('dialog', { name: 'Monitor' })).not.toBeInTheDocument();
    expect(useSession.getState().case?.monitorIntegration).toEqual({
      monitorId: 'm-zoll',
      patientId: '0042',
      type: 'zoll',
    });
    expect(screen.getByRole('button', { name: /^EKG, / })).toHaveAccessibleDescription('ZOLL X · PT ID 0042');
    await whenChangesQueued();
    const queued = await caseOutbox.listPending();
    expect(queued.map((change) => `${change.method} ${change.path}`)).toEqual([
      'PATCH /monitor-integration/zoll/case-1',
    ]);
  });

  it('preselects the only monitor', async () => {
    server();
    const { user } = await openMedia({ monitors: [lifepak] });
    await user.click(screen.getByRole('button', { name: /^EKG, / }));
    await user.click(screen.getByRole('button', { name: 'Monitor Integration' }));
    const form = screen.getByRole('dialog', { name: 'Monitor' });
    expect(within(form).getByRole('combobox', { name: 'Monitor' })).toHaveDisplayValue('LIFEPAK 15');
    await user.type(within(form).getByLabelText(messages.enterPtId), '7');
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Save' })).toBeEnabled());
  });
});

import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { messages } from '@inbound/contract';
import { App } from '../../App';
import { caseOutbox } from '../../lib/caseOutbox';
import { caseMutations } from '../../lib/outbox';
import { flushSessionWrites, hydrateSession, useSession, type StoredCase } from '../../lib/session';
import { createLocalData } from '../../lib/storage';
import { appRoutes } from '../../routing/routes';
import { mockFetch, type MockHandler } from '../../test/fetchMock';
import {
  authToken,
  caseTeam,
  complaintSet,
  hilltop,
  lakeside,
  localCase,
  medic1,
  signedInSession,
} from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { whenChangesQueued } from './mutations';

const accepted = { body: { id: 'case-1', event: null } };

function caseSession(overrides: Partial<StoredCase> = {}) {
  return {
    ...signedInSession(),
    teams: [caseTeam],
    selectedTeam: caseTeam,
    complaintSet,
    case: localCase(overrides),
    caseActive: true,
  };
}

/** A server that accepts every change of case-1 (the outbox is started: it really sends). */
function caseServer(extra: Record<string, MockHandler> = {}) {
  const server = mockFetch({
    'GET /notification/broadcast/me': { body: { data: [] } },
    'GET /v4/complaintSets': { body: [complaintSet] },
    'PATCH /v4/twiageCases/case-1': accepted,
    'POST /v4/twiageCases/case-1/tags': accepted,
    'DELETE /v4/twiageCases/case-1/tags': accepted,
    'PATCH /v4/twiageCases/case-1/tags/lkw/values': accepted,
    'PUT /v4/twiageCases/case-1/dynamicForms/pif': accepted,
    ...extra,
  });
  /** What reached the server, in order: "METHOD path?query" and the body. */
  const sent = async () => {
    await whenChangesQueued();
    await caseOutbox.flush();
    await caseOutbox.whenIdle();
    return server.requests
      .filter((request) => request.url.pathname.startsWith('/v4/twiageCases'))
      .map((request) => [`${request.method} ${request.url.pathname}${request.url.search}`, request.body]);
  };
  return { ...server, sent };
}

/** The outbox is not started: what a tap queued, oldest first. */
async function pending() {
  await whenChangesQueued();
  return (await caseOutbox.listPending()).map((change) => `${change.method} ${change.path}`);
}

beforeEach(async () => {
  await caseOutbox.clear();
});

afterEach(async () => {
  await caseOutbox.stop();
  vi.unstubAllGlobals();
});

describe('START CASE', () => {
  // Start's live chunk (START CASE's code with it) follows Start's first paint (issue 16, decision 0030): in
  // the app it is in long before a crew's tap; here it is loaded first rather than timed against a cold import.
  beforeAll(async () => {
    await import('../start/StartLive');
  });
  it('offline: a placeholder case, the case screen at once, createCase queued, the stored complaint list', async () => {
    mockFetch({
      'GET /notification/broadcast/me': 'network-error',
      'GET /v4/complaintSets': 'network-error',
    });
    const { user, router } = renderApp('/start', { ...caseSession(), case: null, caseActive: false });
    await user.click(await screen.findByRole('button', { name: 'START CASE' }));

    expect(await screen.findByRole('heading', { name: 'Case ...' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/case');
    const local = useSession.getState().case;
    expect(local).toMatchObject({
      caseNumber: '...',
      emsAgency: 'riverside',
      truck: 't-medic1',
      complaintSet: 'Default',
    });
    expect(local?.id).toMatch(/^placeholder-\d+$/);
    expect(await pending()).toEqual([`POST /v4/twiageCases?placeholderId=${local?.id}`]);
    expect(await screen.findByRole('button', { name: 'Stroke Priority 1' })).toBeInTheDocument();
    expect(screen.getByText(messages.changesWaiting(1))).toBeInTheDocument();
  });

  it("takes the server's id and case number when the create is answered; later changes go to the real case", async () => {
    const createdAt = new Date().toISOString();
    const server = caseServer({
      'POST /v4/twiageCases': {
        status: 201,
        body: { id: 'case-1', caseNumber: 'RV-4QX', channelId: 'case:case-1', ownedBy: 'u-medic1', createdAt },
      },
    });
    await caseOutbox.start();
    const { user } = renderApp('/start', { ...caseSession(), case: null, caseActive: false });
    await user.click(await screen.findByRole('button', { name: 'START CASE' }));
    expect(await screen.findByRole('heading', { name: 'Case RV-4QX' })).toBeInTheDocument();
    expect(useSession.getState().case).toMatchObject({ id: 'case-1', channelId: 'case:case-1', ownedBy: 'u-medic1' });

    await user.click(screen.getByRole('button', { name: 'Female' }));
    const sent = await server.sent();
    expect(sent[0]?.[0]).toMatch(/^POST \/v4\/twiageCases\?placeholderId=placeholder-\d+$/);
    expect(sent[1]).toEqual(['PATCH /v4/twiageCases/case-1', { gender: 'F' }]);
  });
});

describe('case screen', () => {
  it('sends complaint, tags (swap: remove before add), gender (tap again clears) and age in the order tapped', async () => {
    const server = caseServer();
    await caseOutbox.start();
    const { user } = renderApp('/case', caseSession());

    expect(await screen.findByRole('heading', { name: 'Case RV-7K2' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Legend' })).toHaveTextContent('Priority 1Priority 2Priority 3');
    await user.click(await screen.findByRole('button', { name: 'Stroke Priority 1' }));
    const droop = screen.getByRole('button', { name: 'Facial Droop' });
    expect(droop).toHaveStyle({ backgroundColor: 'rgb(255, 255, 255)', color: 'rgb(0, 0, 0)' });
    await user.click(droop);
    expect(droop).toHaveAttribute('aria-pressed', 'true');
    expect(droop).toHaveStyle({ backgroundColor: 'rgb(211, 47, 47)', color: 'rgb(255, 255, 255)' });
    await user.click(screen.getByRole('button', { name: 'Left' }));
    await user.click(screen.getByRole('button', { name: 'Right' }));
    expect(screen.getByRole('button', { name: 'Left' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'Right' })).toHaveAttribute('aria-pressed', 'true');

    // The header goes back to the list; the same complaint again is ignored.
    await user.click(screen.getByRole('button', { name: 'Stroke Priority 1' }));
    await user.click(screen.getByRole('button', { name: 'Stroke Priority 1' }));

    await user.click(screen.getByRole('button', { name: 'Female' }));
    expect(screen.getByRole('button', { name: 'Female' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Female' }));
    expect(screen.getByRole('button', { name: 'Female' })).toHaveAttribute('aria-pressed', 'false');
    await user.click(screen.getByRole('button', { name: 'Male' }));

    // The age is typed in place (issue 16) and saved on Enter.
    const age = screen.getByRole('textbox', { name: 'Age in years' });
    await user.click(age);
    await user.type(age, '67{Enter}');
    expect(age).toHaveValue('67');
    expect(age).not.toHaveFocus();

    expect(await server.sent()).toEqual([
      ['PATCH /v4/twiageCases/case-1', { complaint: 'stroke' }],
      ['POST /v4/twiageCases/case-1/tags?tagId=droop', undefined],
      ['POST /v4/twiageCases/case-1/tags?tagId=left', undefined],
      ['DELETE /v4/twiageCases/case-1/tags?tagId=left', undefined],
      ['POST /v4/twiageCases/case-1/tags?tagId=right', undefined],
      ['PATCH /v4/twiageCases/case-1', { gender: 'F' }],
      ['PATCH /v4/twiageCases/case-1', { gender: null }],
      ['PATCH /v4/twiageCases/case-1', { gender: 'M' }],
      ['PATCH /v4/twiageCases/case-1', { age: 67, agePeriod: 3 }],
    ]);
  });

  it('queues a swap within a group as remove-then-add (the outbox pending list)', async () => {
    mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } }, 'GET /v4/complaintSets': 'network-error' });
    const { user } = renderApp('/case', caseSession({ complaint: 'stroke', tags: [{ id: 'left', values: [] }] }));
    await user.click(await screen.findByRole('button', { name: 'Right' }));
    expect(await pending()).toEqual([
      'DELETE /v4/twiageCases/case-1/tags?tagId=left',
      'POST /v4/twiageCases/case-1/tags?tagId=right',
    ]);
    await user.click(screen.getByRole('button', { name: 'Right' }));
    expect((await pending()).at(-1)).toBe('DELETE /v4/twiageCases/case-1/tags?tagId=right');
  });

  it('age modal: limits per unit with the hint, empty does nothing, Clear resets', async () => {
    const server = caseServer();
    await caseOutbox.start();
    const { user } = renderApp('/case', caseSession());
    await user.click(await screen.findByRole('button', { name: 'Age unit Years' }));
    let dialog = screen.getByRole('dialog', { name: 'Age' });
    expect(within(dialog).getByText(messages.ageHint(120))).toBeInTheDocument();
    // The number field has the focus, so the numeric keypad opens at once (issue 16).
    expect(within(dialog).getByLabelText('Age in years')).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Age unit Years' }));
    dialog = screen.getByRole('dialog', { name: 'Age' });
    await user.click(within(dialog).getByRole('button', { name: 'Months' }));
    expect(within(dialog).getByText(messages.ageHint(24))).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Age in months'), '25');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(messages.ageHint(24));
    await user.clear(within(dialog).getByLabelText('Age in months'));
    await user.type(within(dialog).getByLabelText('Age in months'), '18');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('textbox', { name: 'Age in months' })).toHaveValue('18');
    expect(screen.getByRole('button', { name: 'Age unit Months' })).toBeInTheDocument();

    // Typed in place, out of range: the range is said and nothing is sent.
    const inPlace = screen.getByRole('textbox', { name: 'Age in months' });
    await user.clear(inPlace);
    await user.type(inPlace, '30{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(messages.ageHint(24));
    expect(inPlace).toHaveAttribute('aria-invalid', 'true');
    await user.clear(inPlace);
    await user.type(inPlace, '18{Enter}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Age unit Months' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Age' })).getByRole('button', { name: 'Clear' }));
    expect(screen.getByRole('textbox', { name: 'Age in months' })).toHaveValue('');

    expect(await server.sent()).toEqual([
      ['PATCH /v4/twiageCases/case-1', { age: 18, agePeriod: 2 }],
      ['PATCH /v4/twiageCases/case-1', { age: null }],
    ]);
  });

  it('data-enabled tag: ADD disabled while empty, values sent (datetime only once edited), history with times', async () => {
    const server = caseServer();
    await caseOutbox.start();
    const { user } = renderApp('/case', caseSession({ complaint: 'stroke' }));
    await user.click(await screen.findByRole('button', { name: 'Last Known Well' }));
    let dialog = screen.getByRole('dialog', { name: 'Last Known Well' });
    const add = within(dialog).getByRole('button', { name: 'ADD' });
    expect(add).toBeDisabled();
    await user.type(within(dialog).getByLabelText('GCS'), '14');
    expect(add).toBeEnabled();
    await user.click(add);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // The saved value shows on the tag itself (issue 16).
    expect(screen.getByRole('button', { name: 'Last Known Well 14' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Last Known Well 14' }));
    dialog = screen.getByRole('dialog', { name: 'Last Known Well' });
    const history = within(dialog).getByRole('region', { name: 'Earlier values' });
    expect(history).toHaveTextContent('GCS: 14');
    expect(within(history).getByText(/\d{2}:\d{2} (AM|PM)/)).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '2026-11-21T22:10' } });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Last Known Well 14' }));
    dialog = screen.getByRole('dialog', { name: 'Last Known Well' });
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '2026-11-21T22:10' } });
    await user.click(within(dialog).getByRole('button', { name: 'ADD' }));

    const sent = await server.sent();
    expect(sent.slice(0, 2)).toEqual([
      ['POST /v4/twiageCases/case-1/tags?tagId=lkw', undefined],
      [
        'PATCH /v4/twiageCases/case-1/tags/lkw/values',
        { fields: [{ key: 'gcs', name: 'GCS', type: 'number', value: '14' }] },
      ],
    ]);
    expect(sent[2]?.[0]).toBe('PATCH /v4/twiageCases/case-1/tags/lkw/values');
    expect(sent[2]?.[1]).toEqual({
      fields: [
        {
          key: 'time',
          name: 'Time',
          type: 'datetime',
          value: expect.stringMatching(/^2026-11-21T22:10:00\.000[+-]\d{2}:\d{2}$/),
        },
      ],
    });
    expect(sent).toHaveLength(3);
  });

  it('data-enabled datetime: starts empty with a hint (not a time ADD would ignore); Now fills it and enables ADD', async () => {
    const server = caseServer();
    await caseOutbox.start();
    const { user } = renderApp('/case', caseSession({ complaint: 'stroke' }));
    await user.click(await screen.findByRole('button', { name: 'Last Known Well' }));
    const dialog = screen.getByRole('dialog', { name: 'Last Known Well' });
    const time = within(dialog).getByLabelText('Time');
    expect(time).toHaveValue('');
    expect(time).toHaveAccessibleDescription('Not set. Tap Now for the current time, or pick the date and time.');
    const add = within(dialog).getByRole('button', { name: 'ADD' });
    expect(add).toBeDisabled();

    const before = Date.now();
    await user.click(within(dialog).getByRole('button', { name: 'Time: now' }));
    const shown = (time as HTMLInputElement).value;
    expect(shown).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    // The minute shown is the current one (local time), not a stale prefill.
    expect(Math.abs(new Date(shown).getTime() - before)).toBeLessThan(2 * 60_000);
    expect(time).not.toHaveAccessibleDescription();
    expect(add).toBeEnabled();
    await user.click(add);

    const sent = await server.sent();
    expect(sent.at(-1)).toEqual([
      'PATCH /v4/twiageCases/case-1/tags/lkw/values',
      {
        fields: [
          {
            key: 'time',
            name: 'Time',
            type: 'datetime',
            value: expect.stringMatching(new RegExp(`^${shown}:00\\.000[+-]\\d{2}:\\d{2}$`)) as string,
          },
        ],
      },
    ]);
  });

  it('patient info: text, date and multiline fields only, empty ones dropped, summary shown', async () => {
    const server = caseServer();
    await caseOutbox.start();
    const { user } = renderApp('/case', caseSession());
    await user.click(await screen.findByRole('button', { name: 'Patient Info' }));
    const dialog = screen.getByRole('dialog', { name: 'Patient Info' });
    expect(within(dialog).queryByLabelText('Weight')).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('First Name'), 'Ada');
    await user.type(within(dialog).getByLabelText('Last Name'), 'Lovelace');
    fireEvent.change(within(dialog).getByLabelText('DOB'), { target: { value: '1958-03-01' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(screen.getByText('Patient:')).toBeInTheDocument();
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument();
    expect(screen.getByText('DOB:')).toBeInTheDocument();
    expect(screen.getByText('1958-03-01')).toBeInTheDocument();
    expect(await server.sent()).toEqual([
      [
        'PUT /v4/twiageCases/case-1/dynamicForms/pif',
        {
          fields: [
            { key: 'firstName', value: 'Ada' },
            { key: 'lastName', value: 'Lovelace' },
            { key: 'dateOfBirth', value: '1958-03-01' },
          ],
        },
      ],
    ]);
  });

  it('hospital choices: one tap each with status badges, the non-platform banner, the same hospital again ignored, recent first', async () => {
    const server = caseServer();
    await caseOutbox.start();
    const { user, unmount } = renderApp('/case', caseSession());
    // A few hospitals: one tap each on the case screen (issue 16), no picker needed.
    const choices = await screen.findByRole('group', { name: 'Destination hospital' });
    expect(within(choices).getByText('CT down')).toHaveClass('status-badge--critical');
    await user.click(within(choices).getByRole('button', { name: /^County Clinic/ }));
    expect(within(choices).getByRole('button', { name: /^County Clinic/ })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('note')).toHaveTextContent(messages.noDataToHospital);
    expect(screen.getByRole('note').textContent).toBe('No data will be sent to the hospital.');

    await user.click(within(choices).getByRole('button', { name: /^St\. Mary's Hospital/ }));
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
    await user.click(within(choices).getByRole('button', { name: /^St\. Mary's Hospital/ }));

    expect(await server.sent()).toEqual([
      ['PATCH /v4/twiageCases/case-1', { destinationHospital: 'county' }],
      ['PATCH /v4/twiageCases/case-1', { destinationHospital: 'stmary' }],
    ]);
    unmount();

    // The next case screen lists the most recently chosen first.
    renderApp('/case', caseSession());
    const next = await screen.findByRole('group', { name: 'Destination hospital' });
    const names = within(next)
      .getAllByRole('button')
      .map((button) => button.textContent ?? '');
    expect(names[0]).toMatch(/^St\. Mary's Hospital/);
    expect(names[1]).toMatch(/^County Clinic/);
  });

  it("MEDIA shows the media buttons with the case's counts; CHAT shows the conversation", async () => {
    mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/complaintSets': { body: [complaintSet] },
      'GET /media/twiage-cases/case-1/uploads': {
        body: { uploads: [], mediaCounts: { photo: 0, id: 1, ekg: 0, video: 0, voicememo: 0 } },
      },
    });
    const { user } = renderApp('/case', caseSession());
    await user.click(await screen.findByRole('tab', { name: 'MEDIA' }));
    const panel = screen.getByRole('tabpanel');
    expect(await within(panel).findByRole('button', { name: 'ID, 1 item' })).toBeInTheDocument();
    for (const name of ['Photo, 0 items', 'EKG, 0 items', 'Video, 0 items', 'Voice Memo, 0 items', 'Live Consult']) {
      expect(within(panel).getByRole('button', { name })).toBeInTheDocument();
    }
    await user.click(screen.getByRole('tab', { name: 'CHAT' }));
    expect(within(screen.getByRole('tabpanel')).getByRole('textbox', { name: 'Write a message' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'CHAT' })).toHaveAttribute('aria-selected', 'true');
  });
});

describe('network status', () => {
  it('shows Online / Offline and what waits to be sent', async () => {
    mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/complaintSets': { body: [complaintSet] },
    });
    const { user } = renderApp('/case', caseSession());
    expect(await screen.findByText('Online')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Female' }));
    expect(await screen.findByText(messages.changesWaiting(1))).toBeInTheDocument();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    fireEvent(window, new Event('offline'));
    expect(await screen.findByText('Offline')).toBeInTheDocument();
    vi.restoreAllMocks();
  });

  it('shows a refused change with the server message; Discard drops it', async () => {
    caseServer({
      'POST /v4/twiageCases/case-1/tags': { status: 400, body: { message: 'Tag droop is not in this complaint set.' } },
    });
    await caseOutbox.start();
    const { user } = renderApp('/case', caseSession({ complaint: 'stroke' }));
    await user.click(await screen.findByRole('button', { name: 'Facial Droop' }));
    const refused = await screen.findByRole('alert');
    expect(refused).toHaveTextContent('Tag droop is not in this complaint set.');
    expect(within(refused).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    await user.click(within(refused).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(await caseOutbox.pendingCount()).toBe(0);
  });
});

describe('closing the case', () => {
  it('is blocked without a hospital: the Warning, whose OK opens the hospital picker', async () => {
    mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/complaintSets': { body: [complaintSet] },
    });
    const { user } = renderApp('/case', caseSession());
    await user.click(await screen.findByRole('button', { name: 'Close Case' }));
    const warning = screen.getByRole('alertdialog', { name: 'Warning' });
    expect(
      within(warning).getByText('No hospital selected! Please select a hospital before closing the case.'),
    ).toBeInTheDocument();
    await user.click(within(warning).getByRole('button', { name: 'OK' }));
    expect(screen.getByRole('dialog', { name: 'Select Hospital' })).toBeInTheDocument();
    expect(useSession.getState().caseActive).toBe(true);
  });

  it('is blocked while a requiring hospital lacks the patient name and DOB', async () => {
    mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/complaintSets': { body: [complaintSet] },
    });
    const { user } = renderApp(
      '/case',
      caseSession({ destinationHospital: { id: 'rrmc' }, patientInfo: [{ key: 'firstName', value: 'Ada' }] }),
    );
    await user.click(await screen.findByRole('button', { name: 'Close Case' }));
    const warning = screen.getByRole('alertdialog', { name: 'Warning' });
    expect(
      within(warning).getByText(
        'Please fill in the following fields in Patient Info to complete this case: Last Name, DOB.',
      ),
    ).toBeInTheDocument();
    await user.click(within(warning).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await pending()).toEqual([]);
  });

  it('asks for confirmation; Yes clears the case, returns to Start, then sends arrivedAt', async () => {
    mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/complaintSets': { body: [complaintSet] },
    });
    const { user, router } = renderApp('/case', caseSession({ destinationHospital: { id: 'stmary' } }));
    await user.click(await screen.findByRole('button', { name: 'Close Case' }));
    let confirm = screen.getByRole('alertdialog', { name: 'Close Case' });
    expect(confirm).toHaveTextContent(messages.closeCaseConfirm);
    expect(confirm).toHaveTextContent(messages.closeCaseWarning);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(useSession.getState().caseActive).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Close Case' }));
    confirm = screen.getByRole('alertdialog', { name: 'Close Case' });
    await user.click(within(confirm).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('button', { name: 'START CASE' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/start');
    expect(useSession.getState()).toMatchObject({ case: null, caseActive: false });
    // The close, then the hand-over watch Start follows once the case is wiped (decision 0038).
    expect(await pending()).toEqual(['PATCH /v4/twiageCases/case-1', 'POST /v4/twiageCases/case-1/handoff-watch']);
  });

  it('closes by itself at once when maxCaseLength minutes have already passed', async () => {
    mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/complaintSets': { body: [complaintSet] },
    });
    const old = new Date(Date.now() - (caseTeam.maxCaseLength + 1) * 60_000).toISOString();
    const { router } = renderApp('/case', caseSession({ createdAt: old }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/start'));
    expect(useSession.getState().case).toBeNull();
    expect(await pending()).toEqual(['PATCH /v4/twiageCases/case-1']);
  });

  it('sends a position with high accuracy and no cached position while the case is open', async () => {
    mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/complaintSets': { body: [complaintSet] },
    });
    const getCurrentPosition = vi.fn(
      (success: PositionCallback, _error?: PositionErrorCallback, _options?: PositionOptions) =>
        success({
          coords: { latitude: 42.1, longitude: -71.2, accuracy: 8 },
          timestamp: Date.now(),
        } as GeolocationPosition),
    );
    Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
    onTestFinished(() => {
      Reflect.deleteProperty(navigator, 'geolocation');
    });
    renderApp('/case', caseSession());
    await screen.findByRole('heading', { name: 'Case RV-7K2' });
    await waitFor(() => expect(getCurrentPosition).toHaveBeenCalled());
    expect(getCurrentPosition.mock.calls[0]?.[2]).toMatchObject({ enableHighAccuracy: true, maximumAge: 0 });
    expect(await pending()).toEqual(['POST /v4/twiageCases/case-1/locationUpdates']);
  });

  it('location refused: says so once on the case screen and stops asking every 15 s', async () => {
    mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/complaintSets': { body: [complaintSet] },
    });
    const getCurrentPosition = vi.fn((_success: PositionCallback, error?: PositionErrorCallback) =>
      error?.({ code: 1, PERMISSION_DENIED: 1, message: 'User denied Geolocation' } as GeolocationPositionError),
    );
    Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
    const interval = vi.spyOn(window, 'clearInterval');
    onTestFinished(() => {
      Reflect.deleteProperty(navigator, 'geolocation');
      interval.mockRestore();
    });
    renderApp('/case', caseSession());
    expect(await screen.findByText(/^Location is off: the hospital sees no ETA/)).toBeInTheDocument();
    expect(getCurrentPosition).toHaveBeenCalledTimes(1);
    // The 15 s timer was stopped by the refusal itself, not only when the screen closed.
    expect(interval).toHaveBeenCalled();
    expect(await pending()).toEqual([]);
  });
});

describe('logout with changes waiting', () => {
  it('says how many changes would be lost, and clears the outbox only after Yes', async () => {
    mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } }, 'POST /v4/auth/signout': { status: 204 } });
    await caseOutbox.enqueue(caseMutations.patchCase('case-1', { arrivedAt: new Date().toISOString() }));
    const { user } = renderApp('/start', signedInSession());
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Logout' });
    expect(dialog).toHaveTextContent(
      '1 change has not reached the hospital yet. If you log out now, it will be lost. Are you sure you want to logout?',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(await caseOutbox.pendingCount()).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Logout' });
    await user.click(within(dialog).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(await caseOutbox.pendingCount()).toBe(0);
  });
});

describe('reload', () => {
  it('restores the case screen with everything entered', async () => {
    mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } }, 'GET /v4/complaintSets': 'network-error' });
    const store = createLocalData({ encrypted: true, dbName: 'case-reload-test' });
    await hydrateSession(store);
    useSession.setState(caseSession({ complaint: 'stroke' }));
    const user = userEvent.setup();
    render(<App router={createMemoryRouter(appRoutes, { initialEntries: ['/case'] })} />);
    await user.click(await screen.findByRole('button', { name: 'Female' }));
    await user.click(screen.getByRole('button', { name: 'Left' }));
    await whenChangesQueued();
    await flushSessionWrites();
    cleanup();

    // A new page: the session is read back from the device (hydrateSession replaces the whole state).
    await hydrateSession(createLocalData({ encrypted: true, dbName: 'case-reload-test' }));
    expect(useSession.getState().case).toMatchObject({ gender: 'F', tags: [{ id: 'left', values: [] }] });
    const router = createMemoryRouter(appRoutes, { initialEntries: ['/start'] });
    render(<App router={router} />);
    await waitFor(() => expect(router.state.location.pathname).toBe('/case'));
    expect(await screen.findByRole('button', { name: 'Female' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Left' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('heading', { name: 'Case RV-7K2' })).toBeInTheDocument();
    expect(await pending()).toEqual(['PATCH /v4/twiageCases/case-1', 'POST /v4/twiageCases/case-1/tags?tagId=left']);
    await store.clear();
  });
});

describe('session expired during a case', () => {
  it('a 401 holds the outbox and asks to sign in again; signing in keeps the case and sends what waited', async () => {
    let answered401 = false;
    const server = caseServer({
      'PATCH /v4/twiageCases/case-1': () => {
        if (answered401) return accepted;
        answered401 = true;
        return { status: 401, body: { message: 'Authentication required.' } };
      },
      'POST /v4/auth/signin': { body: { authorizationToken: authToken() } },
      'GET /v4/users/me': { body: medic1 },
      'GET /v4/emsAgencies/riverside': { body: caseTeam },
      'GET /v4/emsAgencies/lakeside': { body: lakeside },
      'GET /v4/emsAgencies/hilltop': { body: hilltop },
    });
    await caseOutbox.start();
    const { user } = renderApp('/case', caseSession());
    await user.click(await screen.findByRole('button', { name: 'Female' }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Session expired' });
    expect(dialog).toHaveTextContent(messages.sessionExpired);
    expect(dialog).toHaveTextContent(messages.sessionExpiredCaseOpen);
    expect(screen.getByText(messages.signInToSend)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Username or email')).toHaveValue('medic1');
    await user.click(within(dialog).getByRole('button', { name: 'Login' }));
    expect(within(dialog).getByText(messages.fillPassword)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Password'), 'demo-medic1');
    await user.click(within(dialog).getByRole('button', { name: 'Login' }));

    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(useSession.getState()).toMatchObject({ caseActive: true, case: { id: 'case-1', gender: 'F' } });
    await waitFor(() => expect(server.calls('PATCH /v4/twiageCases/case-1')).toHaveLength(2));
    expect(await server.sent()).toEqual([
      ['PATCH /v4/twiageCases/case-1', { gender: 'F' }],
      ['PATCH /v4/twiageCases/case-1', { gender: 'F' }],
    ]);
    const keys = server.calls('PATCH /v4/twiageCases/case-1').map((request) => request.headers.get('Idempotency-Key'));
    expect(keys[0]).toBe(keys[1]);
  });
});

describe('case feedback after closing', () => {
  const feedbackTeam = {
    ...caseTeam,
    hospitals: caseTeam.hospitals.map((item) =>
      item.id === 'stmary' ? { ...item, supportedFeatures: [{ name: 'emsFeedback', enabled: true }] } : item,
    ),
  };

  /** The close's hand-over watch (decision 0038): answered, then asked about from Start. */
  const watchHandlers: Record<string, MockHandler> = {
    'POST /v4/twiageCases/case-1/handoff-watch': {
      body: { token: 'opaque', hospitalName: "St. Mary's Hospital", expiresAt: '2099-01-01T00:00:00.000Z' },
    },
    'POST /v4/handoff-watch/status': {
      body: { hospitalName: "St. Mary's Hospital", expiresAt: '2099-01-01T00:00:00.000Z', handoff: null },
    },
  };

  async function closeAtStMarys(extra: Record<string, MockHandler>) {
    const server = caseServer({ ...watchHandlers, ...extra });
    await caseOutbox.start();
    const view = renderApp('/case', {
      ...caseSession({ destinationHospital: { id: 'stmary' } }),
      teams: [feedbackTeam],
      selectedTeam: feedbackTeam,
    });
    await view.user.click(await screen.findByRole('button', { name: 'Close Case' }));
    await view.user.click(
      within(screen.getByRole('alertdialog', { name: 'Close Case' })).getByRole('button', { name: 'Yes' }),
    );
    return { ...view, server };
  }

  it('asks for a rating on Start; Submit needs stars; the answer is shown and the prompt is done', async () => {
    const { user, server } = await closeAtStMarys({
      'POST /v4/twiageCases/case-1/case-feedback': { status: 201, body: { id: 'fb-1' } },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Case Feedback' });
    expect(dialog).toHaveTextContent(messages.caseFeedbackPrompt("St. Mary's Hospital"));
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: '4 stars' }));
    await user.type(within(dialog).getByLabelText('Notes'), 'Quick hand-over');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText(messages.caseFeedbackSuccess)).toBeInTheDocument();
    expect(await server.sent()).toEqual([
      ['PATCH /v4/twiageCases/case-1', { arrivedAt: expect.any(String) as string }],
      ['POST /v4/twiageCases/case-1/handoff-watch', undefined],
      ['POST /v4/twiageCases/case-1/case-feedback', { rating: 4, notes: 'Quick hand-over', type: 'ems' }],
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(useSession.getState().caseFeedbackPending).toBeNull();
  });

  it("shows the server's message on failure; closing keeps the prompt pending", async () => {
    const { user } = await closeAtStMarys({
      'POST /v4/twiageCases/case-1/case-feedback': {
        status: 400,
        body: { message: 'Feedback is closed for this case.' },
      },
    });
    const dialog = await screen.findByRole('dialog', { name: 'Case Feedback' });
    await user.click(within(dialog).getByRole('button', { name: '2 stars' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Feedback is closed for this case.');
    expect(within(dialog).getByRole('button', { name: 'Try Again' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(useSession.getState().caseFeedbackPending).toEqual({
      caseId: 'case-1',
      hospitalName: "St. Mary's Hospital",
    });
    expect(await caseOutbox.pendingCount()).toBe(0);
  });

  it('is not asked with Do Not Disturb on', async () => {
    mockFetch({
      'GET /notification/broadcast/me': { body: { data: [] } },
      'GET /v4/complaintSets': { body: [complaintSet] },
    });
    const { user } = renderApp('/case', {
      ...caseSession({ destinationHospital: { id: 'stmary' } }),
      teams: [feedbackTeam],
      selectedTeam: feedbackTeam,
      doNotDisturb: { [medic1.id]: true },
    });
    await user.click(await screen.findByRole('button', { name: 'Close Case' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Close Case' })).getByRole('button', { name: 'Yes' }),
    );
    expect(await screen.findByRole('button', { name: 'START CASE' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Case Feedback' })).not.toBeInTheDocument();
    expect(useSession.getState().caseFeedbackPending).toBeNull();
  });
});

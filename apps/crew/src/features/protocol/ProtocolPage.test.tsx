// Spec §2 AI protocol dialog and /protocol, §4 Protocol, §8 protocol errors, §9 streaming reveal.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { messages, type QuestionResult } from '@inbound/contract';
import { riverside, signedInSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';

const result = (over: Partial<QuestionResult> = {}): QuestionResult => ({
  questionUuid: '00000000-0000-4000-8000-000000000001',
  chatSessionID: 'chat-1',
  summarizedResult:
    'From CARDIAC ARREST (1210), Page 1 of 5 [1]:\n> Epinephrine (0.1mg/mL) administer 1mg (10mL) IV/IO',
  detailedResult: '[1] CARDIAC ARREST (1210), Page 1 of 5:\n> Amiodarone 300mg (6mL) IV/IO',
  pageLinks: [
    {
      ref: 1,
      documentTitle: 'CARDIAC ARREST',
      protocolNumber: '1210',
      printedPage: 'Page 1 of 5',
      page: 1,
      url: '/v4/protocols/documents/v1/file?u=u&exp=1&sig=s#page=1',
    },
  ],
  answerKind: 'extractive',
  ...over,
});

interface Call {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

/** /questions/ streams text then '+++' and JSON when asked with `streaming: true`; /feedback/ answers 201. */
function backend({ fail = false, failDetails = false } = {}) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      const call = {
        url,
        headers: new Headers(init.headers),
        body: JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>,
      };
      calls.push(call);
      if (url.startsWith('/questions')) {
        const detailed = call.body.responseType === 'detailed' && call.headers.get('streaming') !== 'true';
        if (fail || (detailed && failDetails)) return new Response('{"message":"x"}', { status: 500 });
        const answer = result({ questionUuid: String(call.body.questionUuid) });
        if (call.headers.get('streaming') !== 'true') return Response.json(answer);
        const text = call.body.responseType === 'detailed' ? answer.detailedResult : answer.summarizedResult;
        const pieces = [text.slice(0, 20), text.slice(20), `+++${JSON.stringify(answer)}`];
        const stream = new ReadableStream({
          start(controller) {
            for (const piece of pieces) controller.enqueue(new TextEncoder().encode(piece));
            controller.close();
          },
        });
        return new Response(stream, { headers: { 'content-type': 'text/plain' } });
      }
      if (url.startsWith('/feedback')) return Response.json({ id: 'f1' }, { status: 201 });
      if (url.startsWith('/notification/broadcast/me')) return Response.json({ data: [] });
      throw new Error(`unexpected ${url}`);
    }),
  );
  return calls;
}

/** Riverside with the flags on its first hospital only (`everyHospital`: on all of them). */
const withFlags = (flags: string[], everyHospital = false) => ({
  ...riverside,
  hospitals: riverside.hospitals.map((h, i) =>
    i === 0 || everyHospital
      ? { ...h, supportedFeatures: [...h.supportedFeatures, ...flags.map((name) => ({ name, enabled: true }))] }
      : h,
  ),
});

afterEach(() => vi.unstubAllGlobals());

describe('/protocol', () => {
  it('asks, streams the answer in, links the cited page, shows details on first Show, takes feedback', async () => {
    const calls = backend();
    const { user } = renderApp('/protocol', {
      ...signedInSession(),
      selectedTeam: { ...withFlags(['showAiProtocolFeedback']), codeVital: { emtLevels: [{ name: 'Paramedic' }] } },
      emtLevel: { 'u-medic1': 'Paramedic' },
    });
    await user.type(await screen.findByRole('textbox', { name: 'Question' }), 'Epi dose in arrest');
    await user.click(screen.getByRole('button', { name: messages.askQuestion }));

    const log = await screen.findByRole('log', { name: 'Conversation' });
    expect(within(log).getByText('Epi dose in arrest')).toBeInTheDocument();
    await within(log).findByText(/administer 1mg \(10mL\) IV\/IO/);
    const ask = calls.find((c) => c.url.startsWith('/questions'))!;
    expect(ask.headers.get('streaming')).toBe('true');
    expect(ask.body).toMatchObject({
      question: 'Epi dose in arrest',
      responseType: 'summary',
      organization: { id: riverside.id, type: 'emsAgency' },
      emtLevel: 'Paramedic',
    });
    expect(within(log).getByRole('link', { name: 'CARDIAC ARREST (1210), Page 1 of 5' })).toHaveAttribute(
      'href',
      expect.stringContaining('#page=1'),
    );

    await user.click(within(log).getByRole('button', { name: 'Show details' }));
    await within(log).findByText(/Amiodarone 300mg/);
    await user.click(within(log).getByRole('button', { name: 'Hide details' }));
    await user.click(within(log).getByRole('button', { name: 'Show details' }));
    expect(calls.filter((c) => c.url.startsWith('/questions'))).toHaveLength(2); // fetched once only

    await user.click(within(log).getByRole('button', { name: 'Thumbs down' }));
    const send = within(log).getByRole('button', { name: 'Send feedback' });
    expect(send).toBeDisabled();
    await user.type(within(log).getByRole('textbox', { name: 'What was wrong with this answer?' }), 'Wrong page');
    await user.click(send);
    await within(log).findByText('Thank you for your feedback.');
    expect(calls.find((c) => c.url.startsWith('/feedback'))!.body).toEqual({
      questionUuid: ask.body.questionUuid,
      feedback: false,
      feedbackText: 'Wrong page',
    });

    await user.click(screen.getByRole('button', { name: 'New Conversation' }));
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
  });

  it('shows the §8 texts when the answer or its details fail', async () => {
    backend({ failDetails: true });
    const { user } = renderApp('/protocol', signedInSession());
    await user.type(await screen.findByRole('textbox', { name: 'Question' }), 'Aspirin dose');
    await user.click(screen.getByRole('button', { name: messages.askQuestion }));
    await user.click(await screen.findByRole('button', { name: 'Show details' }));
    expect(await screen.findByText(messages.protocolDetailError)).toBeInTheDocument();
    // No feedback buttons without the organisation's showAiProtocolFeedback.
    expect(screen.queryByRole('button', { name: 'Thumbs up' })).not.toBeInTheDocument();

    vi.unstubAllGlobals();
    backend({ fail: true });
    await user.type(screen.getByRole('textbox', { name: 'Question' }), 'Again');
    await user.click(screen.getByRole('button', { name: messages.askQuestion }));
    expect(await screen.findByText(messages.protocolRequestError)).toBeInTheDocument();
  });

  it('asks for the detailed answer and offers no Show details where the summary is hidden', async () => {
    const calls = backend();
    const { user } = renderApp('/protocol', {
      ...signedInSession(),
      selectedTeam: withFlags(['aiProtocolHideSummary'], true),
    });
    await user.type(await screen.findByRole('textbox', { name: 'Question' }), 'Amiodarone dose');
    await user.click(screen.getByRole('button', { name: messages.askQuestion }));
    await screen.findByText(/Amiodarone 300mg/);
    expect(calls.find((c) => c.url.startsWith('/questions'))!.body.responseType).toBe('detailed');
    expect(screen.queryByRole('button', { name: 'Show details' })).not.toBeInTheDocument();
  });

  it('signed out: the page opens, asking to sign in', async () => {
    renderApp('/protocol');
    expect(await screen.findByRole('button', { name: messages.askQuestion })).toBeDisabled();
    expect(screen.getByText("Sign in to ask your agency's protocols.")).toBeInTheDocument();
  });
});

describe('reveal', () => {
  it('reveals the streamed text character by character', async () => {
    backend();
    const { user } = renderApp('/protocol', signedInSession());
    await user.type(await screen.findByRole('textbox', { name: 'Question' }), 'Epi');
    await user.click(screen.getByRole('button', { name: messages.askQuestion }));
    await waitFor(() => expect(screen.getByRole('log').textContent).toMatch(/IV\/IO/));
  });
});

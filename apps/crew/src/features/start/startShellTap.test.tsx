import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { messages } from '@inbound/contract';
import { START_SHELL_SCRIPT, startShellHtml } from '../../../build/startShell';
import { useSession } from '../../lib/session';
import { mockFetch } from '../../test/fetchMock';
import { authToken, caseTeam, complaintSet, localCase, signedInSession } from '../../test/fixtures';
import { renderApp } from '../../test/renderApp';
import { startTexts } from './startScreen';
import { START_SHELL_GLOBAL, closeStartShell, takeStartShellTap } from './startShellTap';

// start.html as the browser has it before the app: the shell drawn, its script run (it listens on the
// document, so the listeners of earlier tests are left inert by deleting the global they close over).
let shellButton: HTMLButtonElement;
beforeEach(() => {
  document.body.innerHTML = `<div id="shell">${startShellHtml()}</div>`;
  new Function(START_SHELL_SCRIPT)();
  shellButton = document.querySelector<HTMLButtonElement>('#shell .button--start')!;
});
afterEach(() => {
  cleanup();
  const shell = (window as unknown as Record<string, { closed: boolean }>)[START_SHELL_GLOBAL];
  if (shell) shell.closed = true;
  document.body.innerHTML = '';
});

describe('a tap on the Start shell’s START CASE, before the app', () => {
  it('is noted once, shown pressed; nothing is noted once the shell is closed', () => {
    expect(takeStartShellTap()).toBeNull();
    document.body.innerHTML = `<div id="shell">${startShellHtml()}</div>`;
    new Function(START_SHELL_SCRIPT)();
    shellButton = document.querySelector<HTMLButtonElement>('#shell .button--start')!;
    shellButton.click();
    expect(shellButton).toHaveAttribute('aria-busy', 'true');
    expect(takeStartShellTap()).toBe('startCase');
    expect(takeStartShellTap()).toBeNull();
    shellButton.click();
    expect(takeStartShellTap()).toBeNull();
  });

  it('notes the last of the shell’s buttons tapped, and a link row not at all (it navigates itself)', () => {
    const logout = screen.getByRole('button', { name: 'Logout' });
    logout.click();
    screen.getByRole('button', { name: new RegExp(startTexts.caseTransfer) }).click();
    expect(logout).not.toHaveAttribute('aria-busy');
    screen.getByRole('button', { name: startTexts.messageCenter }).click();
    expect(takeStartShellTap()).toBe('messageCenter');
    document.body.innerHTML = `<div id="shell">${startShellHtml()}</div>`;
    new Function(START_SHELL_SCRIPT)();
    document
      .querySelector<HTMLElement>('#shell a.menu__row')!
      .dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    expect(takeStartShellTap()).toBeNull();
  });

  it('once closed, a tap is forgotten', () => {
    shellButton.click();
    closeStartShell();
    expect(takeStartShellTap()).toBeNull();
  });
});

/** React's first commit replaces the shell (createRoot on #root); here it is removed before Start renders. */
const appTakesOver = () => document.getElementById('shell')!.remove();

describe('Start acts on a tap made on the shell', () => {
  beforeAll(async () => {
    await import('./StartLive');
  });
  const offline = () =>
    mockFetch({
      'GET /notification/broadcast/me': 'network-error',
      'GET /v4/complaintSets': 'network-error',
    });
  const session = () => ({ ...signedInSession(), teams: [caseTeam], selectedTeam: caseTeam, complaintSet });

  it('starts the case once mounted, as a tap on its own START CASE', async () => {
    offline();
    shellButton.click();
    appTakesOver();
    const { router } = renderApp('/start', session());
    await waitFor(() => expect(router.state.location.pathname).toBe('/case'));
    expect(useSession.getState()).toMatchObject({ caseActive: true });
    expect(useSession.getState().case).toMatchObject({ emsAgency: caseTeam.id });
  });

  it('without a tap, Start waits for one', async () => {
    offline();
    appTakesOver();
    const { router } = renderApp('/start', session());
    expect(await screen.findByRole('button', { name: messages.startCase })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(router.state.location.pathname).toBe('/start');
    expect(useSession.getState().caseActive).toBe(false);
  });

  it('asks about logout, or opens the Message Center, as a tap on its own row or envelope', async () => {
    offline();
    screen.getByRole('button', { name: 'Logout' }).click();
    appTakesOver();
    renderApp('/start', session());
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(messages.logoutConfirm);
    cleanup();
    document.body.innerHTML = `<div id="shell">${startShellHtml()}</div>`;
    new Function(START_SHELL_SCRIPT)();
    screen.getByRole('button', { name: startTexts.messageCenter }).click();
    appTakesOver();
    renderApp('/start', session());
    expect(await screen.findByRole('dialog', { name: 'Message Center' })).toBeInTheDocument();
  });

  it('signed out (an expired token): login as always, no case, and the tap forgotten for after the sign-in', async () => {
    offline();
    shellButton.click();
    appTakesOver();
    const { router } = renderApp('/start', { ...session(), jwt: authToken(-1000) });
    expect(await screen.findByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(useSession.getState().caseActive).toBe(false);
    // AppShell closed the shell with the first screen: the next Start (after a sign-in) finds no tap.
    expect(takeStartShellTap()).toBeNull();
  });

  it('a case open: the case screen, and the tap forgotten', async () => {
    offline();
    shellButton.click();
    appTakesOver();
    const { router } = renderApp('/start', { ...session(), case: localCase(), caseActive: true });
    await waitFor(() => expect(router.state.location.pathname).toBe('/case'));
    expect(takeStartShellTap()).toBeNull();
    expect(useSession.getState().case?.id).toBe('case-1');
  });
});

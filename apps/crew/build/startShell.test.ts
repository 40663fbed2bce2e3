import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { messages } from '@inbound/contract';
import { mockFetch } from '../src/test/fetchMock';
import { medic1, signedInSession } from '../src/test/fixtures';
import { renderApp } from '../src/test/renderApp';
import { SHELL_MENU_ROWS } from '../src/features/start/startShellRest';
import { START_SHELL_ACTION } from '../src/features/start/startShellTap';
import { startShellHtml } from './startShell';

// Start's hospital statuses load their live channel with a dynamic import; loaded here first, it cannot
// still be on its way when the file's environment is torn down (which logged "could not load" errors).
beforeAll(() => import('../src/features/hospitalStatus/liveStatuses'));
afterEach(cleanup);

/** The shell's Start, parsed as the browser does. */
const shellPage = () =>
  new DOMParser()
    .parseFromString(`<div id="root">${startShellHtml()}</div>`, 'text/html')
    .querySelector('.page--start')!;

/** Start as React draws it, without Protocols (a session-only row); what only the session knows emptied. */
async function reactPage() {
  mockFetch({ 'GET /notification/broadcast/me': { body: { data: [] } } });
  renderApp('/start', { ...signedInSession(), user: { ...medic1, features: [] } });
  await screen.findByRole('button', { name: messages.startCase });
  const page = document.querySelector('.page--start')!.cloneNode(true) as Element;
  page.querySelectorAll('[data-discover]').forEach((link) => link.removeAttribute('data-discover'));
  page.querySelector('.welcome strong')!.textContent = '';
  for (const row of page.querySelectorAll('a.menu__row')) row.querySelector('.menu__value')!.textContent = '';
  return page;
}

describe('Start’s static shell (start.html) is React’s Start', () => {
  it('START CASE and the tagline: the same markup, but for the shell’s marker', async () => {
    const react = await reactPage();
    const shell = shellPage().querySelector('.start-action')!;
    const action = shell.querySelector(`[${START_SHELL_ACTION}]`);
    expect(action?.textContent).toBe(messages.startCase);
    action!.removeAttribute(START_SHELL_ACTION);
    expect(shell.outerHTML).toBe(react.querySelector('.start-action')!.outerHTML);
  });

  it('the top bar, the welcome and the rows: the same markup, the session’s values left empty', async () => {
    const react = await reactPage();
    const shell = shellPage();
    // The shell's markers of its buttons (what a tap before the app asks for) are the one difference.
    const marked = [...shell.querySelectorAll(`[${START_SHELL_ACTION}]`)];
    expect(marked.map((button) => button.getAttribute(START_SHELL_ACTION))).toEqual([
      'messageCenter',
      'logout',
      'caseTransfer',
      'startCase',
    ]);
    for (const button of marked) button.removeAttribute(START_SHELL_ACTION);
    for (const selector of ['.top-bar', '.welcome', '.menu']) {
      expect(shell.querySelector(selector)!.outerHTML, selector).toBe(react.querySelector(selector)!.outerHTML);
    }
  });

  it('in the same order, START CASE after the rows; the shell keeps the rest of the screen for the app', async () => {
    const react = await reactPage();
    const order = (page: Element) =>
      [...page.querySelector('.page__content')!.children]
        .map((child) => child.className)
        .filter((name) => ['welcome', 'menu', 'start-action'].includes(name));
    expect(order(shellPage())).toEqual(order(react));
    expect(order(react)).toEqual(['welcome', 'menu', 'start-action']);
    expect(shellPage().querySelector('.menu + .start-shell__rest + .start-action')).not.toBeNull();
    // The room Start leaves the shell is measured from where the shell's rows end (startShellRest.ts).
    expect(shellPage().querySelector('.menu')!.children).toHaveLength(SHELL_MENU_ROWS);
  });
});

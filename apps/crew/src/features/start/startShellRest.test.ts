import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { START_SHELL_SCRIPT } from '../../../build/startShell';
import { START_SHELL_GLOBAL } from './startShellTap';
import {
  SHELL_MENU_ROWS,
  START_SHELL_REST_KEY,
  START_SHELL_REST_PROPERTY,
  rememberStartShellRest,
} from './startShellRest';

/** An element laid out at `top`–`bottom` (jsdom lays out nothing). */
function placed(tag: string, top: number, bottom: number, style = '', parent: Element = document.body): HTMLElement {
  const element = document.createElement(tag);
  element.setAttribute('style', style);
  element.getBoundingClientRect = () => DOMRect.fromRect({ x: 0, y: top, width: 600, height: bottom - top });
  parent.append(element);
  return element;
}

/** Start's rows from y = 100, 60 px each, and the menu's 2 px edge below them; `extra` rows the shell lacks. */
function menuOf(extra: number): HTMLElement {
  const rows = SHELL_MENU_ROWS + extra;
  const menu = placed('nav', 100, 100 + rows * 60 + 2);
  for (let i = 0; i < rows; i++) placed('a', 100 + i * 60, 160 + i * 60, '', menu);
  return menu;
}

/** The shell's script as start.html runs it; answers the height it gave the shell's empty block. */
function runShellScript(): string {
  document.documentElement.style.removeProperty(START_SHELL_REST_PROPERTY);
  new Function(START_SHELL_SCRIPT)();
  (window as unknown as Record<string, { closed: boolean }>)[START_SHELL_GLOBAL]!.closed = true;
  return document.documentElement.style.getPropertyValue(START_SHELL_REST_PROPERTY);
}

const kept = () => JSON.parse(localStorage.getItem(START_SHELL_REST_KEY) ?? 'null') as unknown;

beforeEach(() => {
  localStorage.clear();
  Object.assign(window, { innerWidth: 600, innerHeight: 960 });
});
afterEach(() => {
  document.body.innerHTML = '';
  document.documentElement.style.removeProperty(START_SHELL_REST_PROPERTY);
});

describe('the room Start leaves under its rows, for the shell', () => {
  it('is kept for this screen size where Start fits it, from where the shell’s rows end, less its two gaps', () => {
    const content = placed('div', 60, 1100, 'row-gap: 16px');
    const action = placed('div', 809, 909, 'position: sticky');
    // The shell's rows end at 100 + 5 × 60 + 2 = 402, with or without Start's Protocols row below them.
    rememberStartShellRest(content, menuOf(0), action);
    expect(kept()).toEqual({ width: 600, height: 960, rest: 809 - 402 - 32 });
    rememberStartShellRest(content, menuOf(1), action);
    expect(kept()).toEqual({ width: 600, height: 960, rest: 809 - 402 - 32 });
    expect(runShellScript()).toBe('375px');
  });

  it('is forgotten where START CASE is held at the bottom (Start taller than the screen) or beside the rows', () => {
    localStorage.setItem(START_SHELL_REST_KEY, JSON.stringify({ width: 600, height: 960, rest: 40 }));
    const content = placed('div', 60, 2000, 'row-gap: 16px');
    rememberStartShellRest(content, menuOf(1), placed('div', 860, 960, 'position: sticky'));
    expect(kept()).toBeNull();
    expect(runShellScript()).toBe('');

    localStorage.setItem(START_SHELL_REST_KEY, JSON.stringify({ width: 600, height: 960, rest: 40 }));
    rememberStartShellRest(content, menuOf(1), placed('div', 300, 400, 'position: static'));
    expect(kept()).toBeNull();
  });

  it('is not given to a screen of another size, nor when what is kept is not a height', () => {
    localStorage.setItem(START_SHELL_REST_KEY, JSON.stringify({ width: 960, height: 600, rest: 120 }));
    expect(runShellScript()).toBe('');
    localStorage.setItem(START_SHELL_REST_KEY, JSON.stringify({ width: 600, height: 960, rest: 'x' }));
    expect(runShellScript()).toBe('');
    localStorage.setItem(START_SHELL_REST_KEY, '{not json');
    expect(runShellScript()).toBe('');
    localStorage.setItem(START_SHELL_REST_KEY, JSON.stringify({ width: 600, height: 960, rest: 120 }));
    expect(runShellScript()).toBe('120px');
  });
});

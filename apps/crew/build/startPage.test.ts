import { describe, expect, it } from 'vitest';
import { launchScriptTag } from './launchSplash';
import { loginShellHtml } from './loginShell';
import { START_SHELL_SCRIPT, startShellHtml } from './startShell';
import { startPageHtml, startShellScriptFile } from './startPage';

const indexHtml =
  '<html><head><title>Inbound</title>\n' +
  '<script type="module" crossorigin src="/assets/index-a.js"></script>\n' +
  '<link rel="stylesheet" crossorigin href="/assets/index-b.css">\n' +
  `  ${launchScriptTag()}\n` +
  `</head><body><div id="root">${loginShellHtml()}</div></body></html>`;

describe('start.html', () => {
  it('is index.html with Start’s shell instead of the login screen’s, and the shell’s script instead of the launch script', () => {
    const page = startPageHtml(indexHtml, 'assets/start-shell-1234abcd.js');
    expect(page).toContain(`<div id="root">${startShellHtml()}</div>`);
    expect(page).not.toContain('login__title');
    expect(page).toMatch(/index-b\.css">\n\s*<script src="\/assets\/start-shell-1234abcd\.js"><\/script>\n\s*<\/head>/);
    expect(page).not.toContain('/assets/launch-');
    // Start's chunk is not listed (decision 0043): only what index.html has.
    expect(page).not.toContain('modulepreload');
    expect(page.replace(/<body>[\s\S]*<\/body>/, '')).toContain(
      '<script type="module" crossorigin src="/assets/index-a.js">',
    );
  });

  it('fails the build when index.html has no login shell or no launch script to replace', () => {
    expect(() =>
      startPageHtml(`<html><head>${launchScriptTag()}</head><body><div id="root"></div></body></html>`, 'x.js'),
    ).toThrow(/no login shell/);
    expect(() => startPageHtml(indexHtml.replace(launchScriptTag(), ''), 'x.js')).toThrow(/no launch script/);
  });

  it('names the script by its content', () => {
    expect(startShellScriptFile()).toMatch(/^assets\/start-shell-[0-9a-f]{8}\.js$/);
    expect(startShellScriptFile(`${START_SHELL_SCRIPT};`)).not.toBe(startShellScriptFile());
  });
});

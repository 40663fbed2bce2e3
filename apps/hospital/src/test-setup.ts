// Runs before each test file. The hospital project shares one jsdom per worker (`isolate: false`, see
// vitest.config.ts), so each file starts from fresh modules (its own `vi.mock`s apply, no module state
// from the file before) and from empty storage at `/`.
import { vi } from 'vitest';

vi.resetModules();
localStorage.clear();
sessionStorage.clear();
window.history.replaceState(null, '', '/');

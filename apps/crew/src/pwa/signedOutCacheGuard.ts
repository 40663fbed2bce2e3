/**
 * A Workbox plugin for the runtime caches (vite.config.ts `runtimeCaching`): a response whose request
 * was already in flight when the crew logged out is not cached. Logout asks the service worker to clear
 * its runtime caches (public/sw-extensions.js), which bumps `inboundCacheEpoch`; without this guard a
 * hospital-statuses poll answered a moment later put the signed-out crew's data back on the device
 * (seen as a flaky e2e, pwa.spec "logout … clear its runtime cache").
 *
 * Workbox serialises these functions into the generated sw.js: they must not close over anything and
 * reach the epoch through the service worker's global scope only.
 */
interface GuardState {
  epoch?: number;
}

// Arrow functions: Workbox's serialiser writes a method shorthand out as invalid code.
export const signedOutCacheGuard = {
  requestWillFetch: async ({ request, state }: { request: Request; state?: GuardState }): Promise<Request> => {
    if (state) state.epoch = (globalThis as { inboundCacheEpoch?: number }).inboundCacheEpoch ?? 0;
    return request;
  },
  cacheWillUpdate: async ({
    response,
    state,
  }: {
    response: Response;
    state?: GuardState;
  }): Promise<Response | null> => {
    const epoch = (globalThis as { inboundCacheEpoch?: number }).inboundCacheEpoch ?? 0;
    return state?.epoch === epoch ? response : null;
  },
};

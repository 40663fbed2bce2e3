/** The crew app's field error reporter (the one implementation: @inbound/client fieldErrors.ts). */
import { createBrowserFieldErrors } from '@inbound/client';

export const { reportFieldError, reportUncaughtErrors } = createBrowserFieldErrors('crew');

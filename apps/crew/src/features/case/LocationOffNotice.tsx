import { useEffect, useState } from 'react';
import { readDeviceFlag, writeDeviceFlag } from '../../lib/deviceFlag';

/**
 * The case screen's notice that the device gives no position (issue 16, item 7): the whole explanation the
 * first time a crew sees it on this device, then one short line above the work — on a phone the long one
 * takes three lines. It never shrinks while on screen (the work below would jump under a finger); the
 * short form comes with the next case screen. A device flag: refused storage explains in full every time.
 */
export const LOCATION_OFF_SEEN_KEY = 'inbound.locationOffSeen';

export const locationOffTexts = {
  full: 'Location is off: the hospital sees no ETA. Allow location for Inbound in the browser settings.',
  short: 'Location off: no ETA for the ED',
} as const;

export function LocationOffNotice() {
  const [seenBefore] = useState(() => readDeviceFlag(LOCATION_OFF_SEEN_KEY));
  useEffect(() => {
    if (!seenBefore) writeDeviceFlag(LOCATION_OFF_SEEN_KEY, true);
  }, [seenBefore]);
  return seenBefore ? (
    <p className="location-off location-off--short" role="status" title={locationOffTexts.full}>
      {locationOffTexts.short}
    </p>
  ) : (
    <p className="location-off" role="status">
      {locationOffTexts.full}
    </p>
  );
}

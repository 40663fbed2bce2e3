import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { LOCATION_OFF_SEEN_KEY, LocationOffNotice, locationOffTexts } from './LocationOffNotice';

describe('LocationOffNotice (issue 16, item 7)', () => {
  afterEach(() => localStorage.removeItem(LOCATION_OFF_SEEN_KEY));

  it('explains in full the first time, then says it in one short line on the next case screen', () => {
    const first = render(<LocationOffNotice />);
    expect(screen.getByRole('status')).toHaveTextContent(locationOffTexts.full);
    // Seen now, but it does not shrink under the crew's fingers while this screen is open.
    first.rerender(<LocationOffNotice />);
    expect(screen.getByRole('status')).toHaveTextContent(locationOffTexts.full);
    expect(localStorage.getItem(LOCATION_OFF_SEEN_KEY)).toBe('1');
    first.unmount();

    render(<LocationOffNotice />);
    const short = screen.getByRole('status');
    expect(short).toHaveTextContent(locationOffTexts.short);
    expect(short).not.toHaveTextContent('browser settings');
    expect(short).toHaveClass('location-off--short');
  });
});

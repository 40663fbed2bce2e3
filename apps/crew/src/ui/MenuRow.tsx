import type { MouseEvent } from 'react';
import { Link } from 'react-router';

interface MenuRowProps {
  label: string;
  value?: string;
  to?: string;
  /** On a link row, may `preventDefault()` to do something else first (e.g. ask a question). */
  onClick?: (event: MouseEvent<HTMLElement>) => void;
}

/** A full-width row: a label and, on the right, its current value. A link when it goes somewhere. */
export function MenuRow({ label, value, to, onClick }: MenuRowProps) {
  const content = (
    <>
      <span className="menu__label">{label}</span>
      {/* The space keeps the accessible name readable ("Team Riverside EMS"); flex layout hides it. */}
      {value !== undefined && ' '}
      {value !== undefined && <span className="menu__value">{value}</span>}
      <span className="menu__chevron" aria-hidden="true">
        ›
      </span>
    </>
  );
  if (to) {
    return (
      <Link className="menu__row" to={to} onClick={onClick}>
        {content}
      </Link>
    );
  }
  return (
    <button type="button" className="menu__row" onClick={onClick}>
      {content}
    </button>
  );
}

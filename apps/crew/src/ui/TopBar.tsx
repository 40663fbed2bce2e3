import type { ReactNode } from 'react';

interface TopBarProps {
  title: ReactNode;
  start?: ReactNode;
  end?: ReactNode;
}

/** The bar at the top of a screen: an action on each side and the screen's title (its h1). */
export function TopBar({ title, start, end }: TopBarProps) {
  return (
    <header className="top-bar">
      <div className="top-bar__side">{start}</div>
      <h1 className="top-bar__title">{title}</h1>
      <div className="top-bar__side top-bar__side--end">{end}</div>
    </header>
  );
}

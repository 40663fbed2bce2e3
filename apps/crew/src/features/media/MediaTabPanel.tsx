import { Component, lazy, Suspense, useState, type ReactNode } from 'react';
import { Spinner } from '../../ui/Spinner';

const load = () => import('./MediaTab');

/**
 * The MEDIA tab, loaded on first open (React.lazy): the capture code is not part of the case screen's
 * first load. If its code cannot be fetched (no network and no service worker copy yet) the tab says so
 * and offers to try again — the rest of the case screen goes on working.
 */
export function MediaTabPanel() {
  const [MediaTab, setMediaTab] = useState(() => lazy(load));
  return (
    <LoadBoundary onRetry={() => setMediaTab(() => lazy(load))}>
      <Suspense fallback={<Spinner />}>
        <MediaTab />
      </Suspense>
    </LoadBoundary>
  );
}

class LoadBoundary extends Component<{ children: ReactNode; onRetry: () => void }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('the media tab could not be loaded', error instanceof Error ? error.name : error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="empty-state" role="alert">
        <p>The media screen could not be loaded. It loads as soon as the network is back.</p>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            this.setState({ failed: false });
            this.props.onRetry();
          }}
        >
          Try again
        </button>
      </div>
    );
  }
}

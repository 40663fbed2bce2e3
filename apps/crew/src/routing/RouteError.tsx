import { useRouteError } from 'react-router';

/** A screen failed to load (often a lost connection while fetching its code): say so and offer a reload. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <div className="page">
      <div className="page__content">
        <div className="banner banner--error" role="alert">
          This screen could not be loaded. Check the connection and try again.
        </div>
        <button type="button" className="button button--primary button--block" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    </div>
  );
}

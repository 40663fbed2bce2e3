/** Truck load state (spec §4). */
export const TruckLoadState = {
  Initial: 'Initial',
  Loading: 'Loading',
  LoadingSucceeded: 'LoadingSucceeded',
  LoadingFailed: 'LoadingFailed',
} as const;
export type TruckLoadState = (typeof TruckLoadState)[keyof typeof TruckLoadState];

/** From a query's status: nothing asked yet (no team), in flight, answered, failed. */
export function truckLoadState(query: {
  status: 'pending' | 'error' | 'success';
  fetchStatus: 'fetching' | 'paused' | 'idle';
}): TruckLoadState {
  if (query.status === 'success') return TruckLoadState.LoadingSucceeded;
  if (query.status === 'error')
    return query.fetchStatus === 'fetching' ? TruckLoadState.Loading : TruckLoadState.LoadingFailed;
  return query.fetchStatus === 'idle' ? TruckLoadState.Initial : TruckLoadState.Loading;
}

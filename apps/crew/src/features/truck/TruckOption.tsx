import { useId } from 'react';
import type { Truck } from '@inbound/contract';

/** ALS or BLS, derived from isALS (spec §3). */
export function truckType(truck: Truck): 'ALS' | 'BLS' {
  return truck.isALS ? 'ALS' : 'BLS';
}

/** One truck: a radio named by the truck's name, its type shown beside it. */
export function TruckOption({ truck, checked, onChoose }: { truck: Truck; checked: boolean; onChoose: () => void }) {
  const nameId = useId();
  const typeId = useId();
  const type = truckType(truck);
  return (
    <label className={`choice${checked ? ' choice--checked' : ''}`}>
      <input
        type="radio"
        name="truck"
        value={truck.id}
        checked={checked}
        aria-labelledby={nameId}
        aria-describedby={typeId}
        onChange={onChoose}
      />
      <span id={nameId} className="choice__name">
        {truck.name}
      </span>
      <span id={typeId} className={`badge badge--${type.toLowerCase()}`}>
        {type}
      </span>
    </label>
  );
}

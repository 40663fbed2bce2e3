/**
 * In-app alerts (a modal with OK, large enough for gloved hands) instead of window.alert: it does not
 * block the page, can be styled and tested, and survives the logout that sometimes causes it.
 */
import { create } from 'zustand';

export interface AppAlert {
  id: number;
  title: string;
  message: string;
}

interface AlertsState {
  queue: AppAlert[];
}

export const useAlerts = create<AlertsState>()(() => ({ queue: [] }));

let nextId = 1;

export function showAlert(message: string, title = 'Alert'): void {
  useAlerts.setState((state) => ({ queue: [...state.queue, { id: nextId++, title, message }] }));
}

export function dismissAlert(id: number): void {
  useAlerts.setState((state) => ({ queue: state.queue.filter((alert) => alert.id !== id) }));
}

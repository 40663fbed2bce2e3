import type { TeamActivation } from '@inbound/contract';

/**
 * Where an activation stands, for a member's eyes: a backup called at 20 minutes is told so, not
 * "alert 11" (the activation's round, which counts the first members' re-alerts).
 */
export function roundLabel(activation: Pick<TeamActivation, 'escalatedAt' | 'alertRounds'>): string | null {
  if (activation.escalatedAt) return 'escalated to backups';
  return activation.alertRounds > 1 ? `alert ${activation.alertRounds}` : null;
}

/**
 * Which team a case on the board proposes: a priority-1 case whose complaint names a team's kind
 * (a stroke, a STEMI, trauma…) proposes that team, once the hospital has defined one and it was not
 * activated for the case yet. A proposal is a button, never an automatic activation.
 */
import type { BoardCase, HospitalTeam, TeamActivation, TeamKind } from '@inbound/contract';

const KIND_WORDS: Record<TeamKind, RegExp> = {
  stroke: /\bstroke\b|\bcva\b/i,
  stemi: /\bstemi\b|\bmyocardial infarction\b|\bcardiac\b/i,
  trauma: /\btrauma\b/i,
  sepsis: /\bsepsis\b|\bseptic\b/i,
  pediatric: /\bpediatric\b|\bpaediatric\b/i,
};

export function kindOfComplaint(name: string): TeamKind | null {
  for (const [kind, words] of Object.entries(KIND_WORDS) as [TeamKind, RegExp][]) if (words.test(name)) return kind;
  return null;
}

export interface Proposal {
  card: BoardCase;
  team: HospitalTeam;
}

export function proposals(
  cards: readonly BoardCase[],
  teams: readonly HospitalTeam[],
  activations: readonly TeamActivation[],
): Proposal[] {
  const out: Proposal[] = [];
  for (const card of cards) {
    if (card.complaint?.priority !== 1) continue;
    const kind = kindOfComplaint(card.complaint.name);
    const team = kind ? teams.find((t) => t.kind === kind) : undefined;
    if (!team) continue;
    if (activations.some((a) => a.caseId === card.id && a.teamId === team._id)) continue;
    out.push({ card, team });
  }
  return out;
}

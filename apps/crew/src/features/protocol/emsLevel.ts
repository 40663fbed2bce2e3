/**
 * The EMS (EMT) level the AI protocol assistant sends with each question (spec §7 `POST /questions`
 * `emtLevel`). The levels are the team's `codeVital.emtLevels` (§3); the chosen one is kept per user id
 * in the session's `emtLevel` (§3 "an EMT level per user id", §9 "EMT level stored per user"), which
 * survives logout. Spec §2: opening the assistant asks for the level first when one is needed and the
 * team has levels.
 */
import type { Team } from '@inbound/contract';

export interface EmsLevelContext {
  team: Pick<Team, 'codeVital'> | null;
  userId: string | null;
  /** The session's `emtLevel`: level name by user id. */
  stored: Readonly<Record<string, string>>;
}

/** The team's level names, in the team's order. */
export function emsLevelNames(team: Pick<Team, 'codeVital'> | null): string[] {
  return team?.codeVital.emtLevels.map((level) => level.name) ?? [];
}

/** The crew member's level, if it is one this team offers (a level of another team cannot be sent). */
export function currentEmsLevel({ team, userId, stored }: EmsLevelContext): string | null {
  const level = userId === null ? undefined : stored[userId];
  return level !== undefined && emsLevelNames(team).includes(level) ? level : null;
}

/** Spec §2: the dialog shows when a level is needed (none chosen that this team offers) and levels exist. */
export function needsEmsLevel(context: EmsLevelContext): boolean {
  return emsLevelNames(context.team).length > 0 && currentEmsLevel(context) === null;
}

/** The session's `emtLevel` map with this user's choice. */
export function withEmsLevel(
  stored: Readonly<Record<string, string>>,
  userId: string,
  level: string,
): Record<string, string> {
  return { ...stored, [userId]: level };
}

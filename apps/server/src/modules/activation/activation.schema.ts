/** Team activation's tables (migration 20261125_1300_team_activation), in the portable style of db/schema.ts. */
export interface HospitalTeamsTable {
  id: string;
  hospital_id: string;
  kind: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface HospitalTeamMembersTable {
  team_id: string;
  user_id: string;
  backup: number;
  position: number;
}

export interface TeamActivationsTable {
  id: string;
  case_id: string;
  case_number: string;
  hospital_id: string;
  hospital_name: string;
  team_id: string;
  kind: string;
  team_name: string;
  /** 'active' | 'stoodDown' */
  status: string;
  activated_at: string;
  activated_by_name: string;
  alert_rounds: number;
  escalated_at: string | null;
  stood_down_at: string | null;
  stood_down_by_name: string | null;
  /** When the scheduler next re-alerts or escalates; null: nothing more to do. */
  next_alert_at: string | null;
}

export interface TeamActivationMembersTable {
  activation_id: string;
  user_id: string;
  name: string;
  backup: number;
  position: number;
  alerted_at: string | null;
  acknowledged_at: string | null;
}

export interface ActivationTables {
  hospital_teams: HospitalTeamsTable;
  hospital_team_members: HospitalTeamMembersTable;
  team_activations: TeamActivationsTable;
  team_activation_members: TeamActivationMembersTable;
}

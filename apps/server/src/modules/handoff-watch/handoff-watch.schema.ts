/** The crew's hand-over watches after the close (migration 20261127_1320_charge_nurse_handoff_watch). */
export interface HandoffWatchesTable {
  /** SHA-256 of the token, hex: the token itself is only on the crew's device. */
  token_hash: string;
  user_id: string;
  case_id: string;
  hospital_id: string;
  hospital_name: string;
  created_at: string;
  expires_at: string;
}

export interface HandoffWatchTables {
  handoff_watches: HandoffWatchesTable;
}

/** Charge nurses and their offload alerts (migration 20261127_1320_charge_nurse_handoff_watch). */
export interface HospitalChargeNursesTable {
  hospital_id: string;
  user_id: string;
}

/** One offload alert: a case over its hospital's threshold, for one arrival (a new arrival is a new crossing). */
export interface OffloadAlertsTable {
  case_id: string;
  hospital_id: string;
  arrived_at: string;
  threshold_minutes: number;
  alerted_at: string;
}

export interface ChargeNurseTables {
  hospital_charge_nurses: HospitalChargeNursesTable;
  offload_alerts: OffloadAlertsTable;
}

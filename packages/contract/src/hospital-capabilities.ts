/**
 * What a hospital can do for the time-critical patients (issue 15 item 5): its stroke centre level,
 * whether it does PCI (a cath lab for a STEMI), its trauma level. Set by an organisation admin; the
 * crew's hospital picker ranks by them for a stroke, STEMI or trauma case — advice, never a block.
 */
import { z } from 'zod';

/** Highest first: Comprehensive, Thrombectomy-capable, Primary, Acute Stroke Ready (Joint Commission). */
export const STROKE_CENTER_LEVELS = ['comprehensive', 'thrombectomy', 'primary', 'acuteReady'] as const;
export const StrokeCenterLevel = z.enum(STROKE_CENTER_LEVELS);
export type StrokeCenterLevel = z.infer<typeof StrokeCenterLevel>;

export const STROKE_CENTER_NAMES: Record<StrokeCenterLevel, string> = {
  comprehensive: 'Comprehensive stroke centre',
  thrombectomy: 'Thrombectomy-capable stroke centre',
  primary: 'Primary stroke centre',
  acuteReady: 'Acute stroke ready hospital',
};

export const HospitalCapabilities = z.object({
  strokeCenter: StrokeCenterLevel.nullable(),
  /** Percutaneous coronary intervention around the clock (a STEMI's cath lab). */
  pci: z.boolean(),
  /** Trauma centre level 1 (highest) to 5; null: not a trauma centre. */
  traumaLevel: z.number().int().min(1, 'traumaLevel: 1 to 5').max(5, 'traumaLevel: 1 to 5').nullable(),
});
export type HospitalCapabilities = z.infer<typeof HospitalCapabilities>;

export const NO_CAPABILITIES: HospitalCapabilities = { strokeCenter: null, pci: false, traumaLevel: null };

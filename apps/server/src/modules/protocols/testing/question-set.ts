/**
 * Questions a medic asks, each with the page of the real protocol set that answers it and the words
 * that page prints as the answer (the first is the dose or fact the answer must quote as printed).
 * San Diego's packet is one PDF (page = page of the PDF); Los Angeles is one PDF per protocol.
 * `questionSetHolds` checks every entry against the pdftotext ground truth, so a wrong entry fails
 * loudly rather than making retrieval look worse or better than it is.
 */
import { SAN_DIEGO_PACKET } from './protocol-data.js';

export type SetAgency = 'sd' | 'la';

export interface SetQuestion {
  agency: SetAgency;
  question: string;
  file: string;
  page: number;
  expect: string[];
}

const sd = (question: string, page: number, ...expect: string[]): SetQuestion => ({
  agency: 'sd',
  question,
  file: SAN_DIEGO_PACKET,
  page,
  expect,
});
const la = (question: string, file: string, page: number, ...expect: string[]): SetQuestion => ({
  agency: 'la',
  question,
  file: `${file}.pdf`,
  page,
  expect,
});

export const QUESTION_SET: SetQuestion[] = [
  // San Diego County: drug cards (P-115), protocols, pediatric chart (P-117)
  sd('What is the adult dose of adenosine for SVT?', 32, 'Adenosine 6 mg rapid IV/IO'),
  sd('ASA dose for chest pain', 35, 'Aspirin 324 mg chewable PO'),
  sd('Amiodarone dose for stable VT', 34, 'amiodarone 150 mg in 100 mL of NS'),
  sd('Atropine dose for unstable bradycardia', 36, 'atropine 1 mg IV/IO'),
  sd('Suboxone dose for opioid withdrawal', 37, '16 mg/4 mg'),
  sd('How much dextrose for an adult with low blood sugar?', 39, 'Dextrose 25 gm IV'),
  sd('Benadryl dose adult', 40, 'Diphenhydramine 50 mg IV/IM'),
  sd('IM epi dose for anaphylaxis', 41, '0.5 mg IM'),
  sd('Epinephrine 1:10,000 dose in cardiac arrest', 42, 'epinephrine 1:10,000 1 mg IV/IO'),
  sd('How do I mix push-dose epinephrine?', 43, 'Add 1 mL of epinephrine 1:10,000'),
  sd('Fentanyl IV dose for pain', 44, 'up to 100 mcg IV'),
  sd('Glucagon dose for beta blocker overdose', 45, 'glucagon 1-5 mg IV'),
  sd('Atrovent dose nebulized', 46, 'Ipratropium bromide 2.5 mL 0.02%'),
  sd('Ketamine IV dose for pain', 47, '0.3 mg/kg in 100 mL of NS'),
  sd('Versed IM dose for a patient over 40 kg', 49, 'midazolam 10 mg IM'),
  sd('Narcan dose for opioid overdose', 51, 'Naloxone 2 mg IN/IM/IV'),
  sd('Nitro dose if systolic BP is 150 or more', 52, 'NTG 0.8 mg SL'),
  sd('Zofran dose for nausea', 53, 'Ondansetron 4 mg IV/IM/ODT'),
  sd('TXA dose for hemorrhage', 55, 'Tranexamic acid 1 gm/10 mL'),
  sd('IV Tylenol dose adult', 30, 'Acetaminophen 1,000 mg IV over 15 min'),
  sd('Is aspirin indicated in peds?', 35, 'Not indicated for use in pediatrics', 'Aspirin 324 mg'),
  sd('Lidocaine before IO infusion in a conscious patient', 48, 'lidocaine 40 mg IO'),
  sd('Morphine IV dose', 50, 'Up to 0.1 mg/kg IV'),
  sd('Pediatric weight-based adenosine dose', 56, 'Adenosine IV 1st 0.1 mg/kg'),
  sd('Sepsis criteria and fluid bolus', 93, 'Temperature ≥100.4', '500 mL fluid bolus IV/IO'),
  sd('Stroke screening scale and last known well', 94, 'BE-FAST', 'last known well'),
  sd('Jellyfish sting treatment', 75, 'Liberally rinse with seawater'),
  sd('Pediatric CPR compression rate', 106, 'Compression rate 100-120/min'),
  sd('Defibrillation energy for a 5 kg infant', 133, 'Defib: 10 J 20 J 20 J'),

  // Los Angeles County: treatment protocols (1200 series) and references
  la('Aspirin dose for cardiac chest pain', '1211-CardiacChestPain', 1, 'Aspirin 325mg chewable tablets PO'),
  la('Nitroglycerin dose for chest pain', '1211-CardiacChestPain', 1, 'Nitroglycerin 0.4mg SL'),
  la('Atropine dose for symptomatic bradycardia', '1212-CardiacBradycardia', 1, 'Atropine 1mg (10mL) IV/IO push'),
  la(
    'Calcium chloride dose for bradycardia with suspected hyperkalemia',
    '1212-CardiacBradycardia',
    1,
    'Calcium Chloride 1gm (10mL)',
  ),
  la('Synchronized cardioversion energy for unstable tachycardia', '1213-CardiacTachycardia', 2, '120J, 150J'),
  la('IM epinephrine dose for anaphylaxis', '1219-Allergy', 1, 'administer 0.5mg (0.5mL) IM in the lateral thigh'),
  la('Diphenhydramine dose for allergic reaction', '1219-Allergy', 1, 'Diphenhydramine 50mg (1mL) slow IV push'),
  la('Dextrose dose for hypoglycemia', '1203-DiabeticEmergencies', 1, 'Dextrose 10% 125 mL IV/IO'),
  la('Glucagon if no IV access in hypoglycemia', '1203-DiabeticEmergencies', 1, 'Glucagon 1mg (1mL) IM'),
  la('Oral glucose dose for an alert diabetic', '1203-DiabeticEmergencies', 1, 'Glucopaste 15gm PO'),
  la('Midazolam IM dose for status seizure', '1231-Seizure', 1, 'Midazolam 10mg (2mL) IM/IN'),
  la('Narcan intranasal dose for overdose', '1241-OverdosePoisoning', 1, 'Naloxone 2-4 mg IN'),
  la(
    'Tricyclic overdose sodium bicarbonate',
    '1241-OverdosePoisoning',
    2,
    'Sodium bicarbonate 50mEq (50mL) IV push over 60 seconds',
  ),
  la('Epinephrine dose in cardiac arrest', '1210-CardiacArrest', 1, 'administer 1mg (10mL) IV/IO'),
  la('Amiodarone dose for VF', '1210-CardiacArrest', 1, 'Amiodarone 300mg (6mL) IV/IO'),
  la(
    'Nitroglycerin for pulmonary edema when SBP is 200 or higher',
    '1214-PulmonaryEdema',
    1,
    '1.2mg SL, for SBP ≥ 200mmHg',
  ),
  la(
    'Albuterol dose for respiratory distress',
    '1237-RespiratoryDistress',
    1,
    'Albuterol 5mg (6mL) via neb or 4 puffs via MDI',
  ),
  la('TXA for traumatic hemorrhage', '1244-TraumaticInjury', 2, 'Tranexamic Acid (TXA) 1 gram'),
  la('Maximum fentanyl dose for trauma pain', '1244-TraumaticInjury', 2, 'Fentanyl 250mcg or Morphine 20mg'),
  la('Pediatric epinephrine IM dose for anaphylaxis', '1219-P-Allergy', 1, 'Epinephrine (1mg/mL) 0.01mg/kg IM'),
  la('Peds seizure midazolam dose', '1231-P-Seizure', 1, 'Midazolam (5mg/mL) 0.2mg/kg IM/IN'),
  la('Pediatric cardiac arrest defibrillation energy', '1210-P-CardiacArrest', 1, 'Defibrillate at 2J/kg'),
  la('Pediatric dextrose dose for hypoglycemia', '1203-P-DiabeticEmergencies', 1, 'Dextrose 10%, 5mL/kg IV/IO'),
  la(
    'Nebulized epinephrine for stridor from upper airway obstruction',
    '1234-AirwayObstruction',
    1,
    'administer 5mg (5mL) via neb',
  ),
  la('Lidocaine for IO placement in an alert patient', '1207-ShockHypotension', 1, 'Lidocaine 2% 40mg'),
  la(
    'Respiratory rate criteria for trauma center triage',
    'Ref506-TraumaTriage',
    1,
    'Respiratory rate greater than 29',
  ),
];

/** Questions neither library covers: the assistant must decline them. */
export const OUT_OF_LIBRARY: { agency: SetAgency; question: string }[] = [
  { agency: 'sd', question: 'What is the dose of remdesivir for COVID pneumonia?' },
  { agency: 'la', question: 'What is the dose of remdesivir for COVID pneumonia?' },
  { agency: 'sd', question: 'How do I update the firmware of the ventilator?' },
  { agency: 'la', question: 'Vancomycin dosing for bacterial meningitis' },
  { agency: 'sd', question: 'How do I treat a horse with colic?' },
];

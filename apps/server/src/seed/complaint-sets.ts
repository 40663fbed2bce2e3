/**
 * The demo complaint sets. Sections and tags follow what EMS pre-arrival reports carry in practice;
 * each complaint names the NEMSIS 3.5 eDisposition.24 pre-arrival alert it maps to, so a case can be
 * exported in the national EMS data standard. Colours are by priority (1 red, 2 amber, 3 green/blue);
 * the light ones get black text under the spec's brightness rule, the dark ones white.
 */
import type { Complaint, NemsisPreArrivalAlert, Section, Tag, TagField } from '@inbound/contract';

export const STANDARD_SET_NAME = 'Standard ALS/BLS 2026';
export const HILLTOP_SET_NAME = 'Hilltop BLS 2026';

const COLOR = {
  p1: '#D32F2F', // red, white text
  p2: '#FFB300', // amber, black text
  p3green: '#81C784', // light green, black text
  p3blue: '#64B5F6', // light blue, black text
} as const;

const ALERT = {
  adultTrauma: '4224003',
  cardiacArrest: '4224005',
  obstetrics: '4224007',
  other: '4224009',
  pediatricTrauma: '4224011',
  stemi: '4224013',
  stroke: '4224015',
  sepsis: '4224019',
} as const satisfies Record<string, NemsisPreArrivalAlert>;

// ---- small builders: ids are derived from names, so the set is the same on every run -------------

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 18);

type TagSpec = (sectionId: string) => Tag;

const num = (key: string, name: string, unit?: string): TagField => ({
  key,
  name,
  type: 'number',
  ...(unit ? { unit } : {}),
});
const text = (key: string, name: string): TagField => ({ key, name, type: 'text' });
const date = (key: string, name: string): TagField => ({ key, name, type: 'date' });
const datetime = (key: string, name: string): TagField => ({ key, name, type: 'datetime' });

const tag =
  (name: string): TagSpec =>
  (sectionId) => ({ id: `${sectionId}.${slug(name)}`, name, groupIdentifier: null, category: null, data: [] });

/** Mutually exclusive tags: choosing one swaps out the other (spec §4). */
const group = (groupId: string, names: string[]): TagSpec[] =>
  names.map((name) => (sectionId) => ({ ...tag(name)(sectionId), groupIdentifier: groupId }));

/** A data-enabled tag: choosing it asks for the values of its fields. */
const data =
  (name: string, fields: TagField[]): TagSpec =>
  (sectionId) => ({ ...tag(name)(sectionId), category: 'data-enabled', data: fields });

function section(complaintId: string, name: string, tags: (TagSpec | TagSpec[])[]): Section {
  const id = `${complaintId}.${slug(name)}`;
  return { id, name, tags: tags.flat().map((make) => make(id)) };
}

function complaint(
  id: string,
  name: string,
  priority: 1 | 2 | 3,
  color: string,
  alert: NemsisPreArrivalAlert | null,
  sections: [string, (TagSpec | TagSpec[])[]][],
): Complaint {
  return {
    id,
    name,
    priority,
    color,
    nemsisPreArrivalAlert: alert,
    sections: sections.map(([sectionName, tags]) => section(id, sectionName, tags)),
  };
}

// ---- shared data tags -------------------------------------------------------------------------

const bloodPressure = data('Blood Pressure', [
  num('systolic', 'Systolic', 'mmHg'),
  num('diastolic', 'Diastolic', 'mmHg'),
]);
const heartRate = data('Heart Rate', [num('heartRate', 'Heart Rate', 'bpm')]);
const spo2 = data('SpO2', [num('spo2', 'SpO2', '%')]);
const respiratoryRate = data('Respiratory Rate', [num('respiratoryRate', 'Respiratory Rate', '/min')]);
const gcs = data('GCS', [num('gcsEye', 'Eye (1-4)'), num('gcsVerbal', 'Verbal (1-5)'), num('gcsMotor', 'Motor (1-6)')]);
const bloodGlucose = data('Blood Glucose', [num('bloodGlucose', 'Blood Glucose', 'mg/dL')]);
const temperature = data('Temperature', [num('temperature', 'Temperature', '°F')]);
const painScore = data('Pain Score', [num('painScore', 'Pain (0-10)')]);
const medicationGiven = data('Medication Given', [
  text('medication', 'Medication'),
  text('dose', 'Dose'),
  datetime('givenAt', 'Given At'),
]);

// ---- the complaints ---------------------------------------------------------------------------

const stroke = complaint('stroke', 'Stroke', 1, COLOR.p1, ALERT.stroke, [
  [
    'Onset',
    [
      data('Last Known Well', [datetime('lastKnownWell', 'Last Known Well')]),
      data('Symptom Discovery', [datetime('discoveredAt', 'Discovered At')]),
      tag('Wake-up Stroke'),
    ],
  ],
  [
    'Stroke Scale',
    [
      tag('BE-FAST Positive'),
      tag('Cincinnati Positive'),
      data('LAMS', [num('lamsScore', 'LAMS Score (0-5)')]),
      tag('Large Vessel Occlusion suspected'),
    ],
  ],
  [
    'Deficits',
    [
      group('stroke-side', ['Left', 'Right']),
      tag('Facial Droop'),
      tag('Arm Drift'),
      tag('Slurred Speech / Aphasia'),
      tag('Gaze Deviation'),
    ],
  ],
  ['Vitals & Labs', [bloodGlucose, bloodPressure, heartRate, tag('On Anticoagulants')]],
]);

const stemi = complaint('stemi', 'STEMI / Chest Pain', 1, COLOR.p1, ALERT.stemi, [
  [
    '12-Lead',
    [
      group('stemi-ecg', ['STEMI on 12-lead', 'No STEMI on 12-lead', '12-lead not done']),
      tag('12-lead transmitted'),
      data('12-Lead Time', [datetime('ecgAt', '12-Lead Acquired')]),
    ],
  ],
  [
    'Symptoms',
    [
      data('Pain Onset', [datetime('onsetTime', 'Onset Time')]),
      painScore,
      tag('Radiating to arm / jaw'),
      tag('Diaphoresis'),
      tag('Shortness of Breath'),
    ],
  ],
  ['Treatment', [tag('Aspirin 324 mg given'), tag('Nitroglycerin given'), medicationGiven]],
  ['Vitals', [bloodPressure, heartRate, spo2]],
]);

const cardiacArrest = complaint('cardiac-arrest', 'Cardiac Arrest', 1, COLOR.p1, ALERT.cardiacArrest, [
  [
    'Arrest',
    [
      group('arrest-witness', ['Witnessed', 'Unwitnessed']),
      tag('Bystander CPR'),
      tag('AED used before EMS'),
      data('Time of Arrest', [datetime('arrestAt', 'Time of Arrest')]),
    ],
  ],
  [
    'Rhythm',
    [group('arrest-rhythm', ['VF / pVT', 'PEA', 'Asystole']), data('Shocks Delivered', [num('shocks', 'Shocks')])],
  ],
  [
    'Resuscitation',
    [
      tag('ROSC achieved'),
      tag('Mechanical CPR device'),
      tag('Advanced airway placed'),
      data('Epinephrine Doses', [num('epinephrineDoses', 'Doses of 1 mg')]),
      data('ETCO2', [num('etco2', 'ETCO2', 'mmHg')]),
    ],
  ],
]);

const majorTrauma = complaint('major-trauma', 'Major Trauma', 1, COLOR.p1, ALERT.adultTrauma, [
  [
    'Mechanism',
    [
      group('trauma-mechanism', ['Blunt', 'Penetrating']),
      tag('MVC high speed'),
      tag('Ejection'),
      tag('Fall > 20 ft'),
      tag('Gunshot wound'),
      tag('Stab wound'),
      data('Injury Time', [datetime('injuryAt', 'Time of Injury')]),
    ],
  ],
  [
    'Injuries',
    [
      tag('Head injury'),
      tag('Chest injury'),
      tag('Abdominal injury'),
      tag('Pelvic instability'),
      tag('Long bone fracture'),
      tag('Amputation'),
    ],
  ],
  ['Assessment', [gcs, bloodPressure, heartRate, tag('Tourniquet applied'), tag('Pelvic binder applied')]],
]);

const pediatricTrauma = complaint('pediatric-trauma', 'Pediatric Trauma', 1, COLOR.p1, ALERT.pediatricTrauma, [
  [
    'Mechanism',
    [
      group('peds-trauma-mechanism', ['Blunt', 'Penetrating']),
      tag('MVC'),
      tag('Child restraint used'),
      tag('Fall from height'),
      tag('Non-accidental trauma suspected'),
    ],
  ],
  [
    'Patient',
    [data('Estimated Weight', [num('weightKg', 'Weight', 'kg')]), data('Broselow Color', [text('broselow', 'Color')])],
  ],
  ['Assessment', [gcs, heartRate, respiratoryRate, spo2]],
]);

const sepsis = complaint('sepsis', 'Sepsis', 1, COLOR.p1, ALERT.sepsis, [
  [
    'Screen',
    [tag('Suspected infection'), tag('Fever or hypothermia'), tag('Hypotension'), tag('Altered mental status')],
  ],
  [
    'Measurements',
    [
      temperature,
      respiratoryRate,
      heartRate,
      bloodPressure,
      spo2,
      data('Lactate (POC)', [num('lactate', 'Lactate', 'mmol/L')]),
    ],
  ],
  [
    'Treatment',
    [tag('IV fluids started'), data('Fluid Volume', [num('fluidMl', 'Volume', 'mL')]), tag('Oxygen applied')],
  ],
]);

const seizure = complaint('seizure', 'Seizure', 2, COLOR.p2, null, [
  [
    'Seizure',
    [
      group('seizure-status', ['Active on arrival', 'Post-ictal']),
      data('Duration', [num('durationMin', 'Duration', 'min')]),
      tag('Known epilepsy'),
      tag('First-time seizure'),
      tag('Status epilepticus'),
    ],
  ],
  ['Treatment', [medicationGiven, bloodGlucose, spo2]],
]);

const overdose = complaint('overdose', 'Overdose / Poisoning', 2, COLOR.p2, null, [
  [
    'Substance',
    [
      tag('Opioid'),
      tag('Alcohol'),
      tag('Stimulant'),
      tag('Unknown substance'),
      data('Substance / Amount', [text('substance', 'Substance'), text('amount', 'Amount')]),
      data('Ingestion Time', [datetime('ingestedAt', 'Ingestion Time')]),
    ],
  ],
  [
    'Treatment',
    [tag('Naloxone given'), data('Naloxone Dose', [num('naloxoneMg', 'Dose', 'mg')]), tag('Responded to naloxone')],
  ],
  ['Vitals', [respiratoryRate, spo2, gcs]],
]);

const respiratory = complaint('respiratory-distress', 'Respiratory Distress', 2, COLOR.p2, ALERT.other, [
  [
    'Presentation',
    [
      group('resp-severity', ['Mild', 'Moderate', 'Severe']),
      tag('Wheezing'),
      tag('Stridor'),
      tag('Accessory muscle use'),
      tag('History of COPD'),
      tag('History of asthma'),
    ],
  ],
  ['Treatment', [tag('CPAP applied'), tag('Nebulizer given'), tag('BVM ventilation')]],
  ['Vitals', [spo2, respiratoryRate, data('ETCO2', [num('etco2', 'ETCO2', 'mmHg')]), heartRate]],
]);

const obstetric = complaint('obstetric', 'Obstetric Emergency', 2, COLOR.p2, ALERT.obstetrics, [
  [
    'Pregnancy',
    [
      data('LMP', [date('lmpDate', 'LMP Date')]),
      data('Gestational Age', [num('gestationalWeeks', 'Gestational Age', 'weeks')]),
      data('Gravida / Para', [text('gravidaPara', 'G/P')]),
      group('ob-membranes', ['Membranes intact', 'Membranes ruptured']),
    ],
  ],
  [
    'Complications',
    [
      tag('Vaginal bleeding'),
      tag('Crowning'),
      tag('Imminent delivery'),
      tag('Pre-eclampsia signs'),
      data('Contractions', [num('contractionMinutes', 'Minutes apart', 'min')]),
      data('Delivered in Field', [datetime('deliveredAt', 'Delivery Time')]),
    ],
  ],
  ['Vitals', [bloodPressure, heartRate]],
]);

const pediatric = complaint('pediatric', 'Pediatric Emergency', 2, COLOR.p2, null, [
  [
    'Patient',
    [
      data('Estimated Weight', [num('weightKg', 'Weight', 'kg')]),
      data('Broselow Color', [text('broselow', 'Color')]),
      tag('Fever'),
      tag('Dehydration'),
      tag('Respiratory distress'),
      tag('Febrile seizure'),
    ],
  ],
  ['Vitals', [heartRate, respiratoryRate, spo2, bloodGlucose, temperature]],
]);

const alteredMental = complaint('altered-mental-status', 'Altered Mental Status', 2, COLOR.p2, null, [
  [
    'Assessment',
    [
      group('ams-avpu', ['Alert', 'Verbal', 'Pain', 'Unresponsive']),
      tag('Hypoglycemia'),
      tag('Intoxication suspected'),
      tag('Head injury'),
      tag('Confusion'),
    ],
  ],
  ['Measurements', [gcs, bloodGlucose, temperature]],
]);

const anaphylaxis = complaint('anaphylaxis', 'Allergic Reaction / Anaphylaxis', 2, COLOR.p2, ALERT.other, [
  [
    'Reaction',
    [
      tag('Hives'),
      tag('Airway swelling'),
      tag('Wheezing'),
      tag('Hypotension'),
      data('Exposure', [text('allergen', 'Allergen'), datetime('exposedAt', 'Exposure Time')]),
    ],
  ],
  [
    'Treatment',
    [data('Epinephrine Given', [num('epinephrineMg', 'Dose', 'mg'), datetime('givenAt', 'Given At')]), medicationGiven],
  ],
  ['Vitals', [bloodPressure, spo2]],
]);

const syncope = complaint('syncope', 'Syncope', 3, COLOR.p3green, null, [
  ['Event', [tag('Witnessed'), tag('Prodrome'), tag('Exertional'), tag('Head strike'), tag('Palpitations')]],
  [
    'Measurements',
    [
      data('Orthostatic BP', [
        num('systolicLying', 'Systolic lying', 'mmHg'),
        num('systolicStanding', 'Systolic standing', 'mmHg'),
      ]),
      heartRate,
      bloodGlucose,
    ],
  ],
]);

const abdominal = complaint('abdominal-pain', 'Abdominal Pain', 3, COLOR.p3green, null, [
  [
    'Pain',
    [
      group('abd-location', ['RUQ', 'LUQ', 'RLQ', 'LLQ', 'Epigastric', 'Diffuse']),
      painScore,
      data('Onset', [datetime('onsetTime', 'Onset Time')]),
    ],
  ],
  ['Associated', [tag('Nausea / Vomiting'), tag('GI bleeding'), tag('Pregnancy possible'), tag('Fever')]],
]);

const fall = complaint('fall', 'Fall / Minor Injury', 3, COLOR.p3blue, null, [
  [
    'Event',
    [
      tag('Ground-level fall'),
      tag('On anticoagulants'),
      tag('Loss of consciousness'),
      data('Fall Time', [datetime('fallAt', 'Time of Fall')]),
    ],
  ],
  [
    'Injuries',
    [tag('Hip pain'), tag('Wrist injury'), tag('Laceration'), group('fall-side', ['Left', 'Right']), painScore],
  ],
]);

const behavioral = complaint('behavioral', 'Behavioral / Psychiatric', 3, COLOR.p3blue, null, [
  [
    'Presentation',
    [
      tag('Suicidal ideation'),
      tag('Agitation'),
      tag('Physical restraint'),
      tag('Police on scene'),
      data('Notes', [text('notes', 'Notes')]),
    ],
  ],
]);

const general = complaint('general-illness', 'General Illness', 3, COLOR.p3green, null, [
  ['Symptoms', [tag('Fever'), tag('Weakness'), tag('Dehydration'), tag('Dizziness'), temperature]],
  ['Vitals', [bloodPressure, heartRate]],
]);

/** The current version: every complaint. */
export const standardComplaints: Complaint[] = [
  stroke,
  stemi,
  cardiacArrest,
  majorTrauma,
  pediatricTrauma,
  sepsis,
  seizure,
  overdose,
  respiratory,
  obstetric,
  pediatric,
  alteredMental,
  anaphylaxis,
  syncope,
  abdominal,
  fall,
  behavioral,
  general,
];

/** The previous version, kept so "newest first" and firstOccurrenceOnly have something to tell apart. */
export const standardComplaintsV1: Complaint[] = standardComplaints.filter(
  (c) => !['pediatric-trauma', 'anaphylaxis', 'behavioral', 'general-illness'].includes(c.id),
);

/** A small BLS set used only by Hilltop. */
export const hilltopComplaints: Complaint[] = [stroke, cardiacArrest, majorTrauma, respiratory, syncope, fall];

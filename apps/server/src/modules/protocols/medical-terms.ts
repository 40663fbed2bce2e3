/**
 * How crews and protocols name the same thing differently: abbreviations, brand names, plain words.
 * Both the library and the question are brought to one canonical word per idea before BM25 sees them,
 * so "ASA" finds "aspirin", "Narcan" finds "naloxone" and "peds" finds the pediatric protocols, and
 * each idea counts once in the scores. Phrases first (they span words), then single words, then the
 * Porter stemmer.
 */
import { stemmer } from 'stemmer';

const PHRASES: [RegExp, string][] = [
  [/\blow blood sugar\b|\blow sugar\b/g, 'hypoglycemia'],
  [/\bhow much\b/g, 'dose'],
  [/\bblood sugar\b/g, 'glucose'],
  [/\bst[- ]?(?:segment[- ])?elevation (?:myocardial infarction|mi)\b/g, 'stemi'],
  [/\bheart attack\b/g, 'stemi'],
  [/\bsupra[- ]?ventricular tachycardia\b/g, 'svt'],
  [/\bventricular fibrillation\b|\bv[- ]fib\b/g, 'vfib'],
  [/\bventricular tachycardia\b|\bv[- ]tach\b/g, 'vtach'],
  [/\bcontinuous positive airway pressure\b/g, 'cpap'],
  [/\bcardiopulmonary resuscitation\b/g, 'cpr'],
  [/\bbag[- ]valve[- ]mask\b/g, 'bvm'],
  [/\btranexamic acid\b/g, 'txa'],
  [/\bsodium bicarbonate\b/g, 'bicarbonate'],
  [/\baltered level of consciousness\b/g, 'aloc'],
  [/\bblood glucose\b/g, 'glucose'],
  [/\bcerebrovascular accident\b/g, 'stroke'],
  [/\bepi[- ]?pen\b/g, 'epinephrine'],
];

const WORDS: Record<string, string> = {
  asa: 'aspirin',
  peds: 'pediatric',
  ped: 'pediatric',
  paediatric: 'pediatric',
  pediatrics: 'pediatric',
  child: 'pediatric',
  children: 'pediatric',
  kid: 'pediatric',
  kids: 'pediatric',
  narcan: 'naloxone',
  versed: 'midazolam',
  zofran: 'ondansetron',
  benadryl: 'diphenhydramine',
  adenocard: 'adenosine',
  cordarone: 'amiodarone',
  nexterone: 'amiodarone',
  epi: 'epinephrine',
  adrenaline: 'epinephrine',
  adrenalin: 'epinephrine',
  toradol: 'ketorolac',
  tylenol: 'acetaminophen',
  paracetamol: 'acetaminophen',
  ofirmev: 'acetaminophen',
  salbutamol: 'albuterol',
  ventolin: 'albuterol',
  proventil: 'albuterol',
  atrovent: 'ipratropium',
  solumedrol: 'methylprednisolone',
  ativan: 'lorazepam',
  valium: 'diazepam',
  sublimaze: 'fentanyl',
  ketalar: 'ketamine',
  glucagen: 'glucagon',
  cardizem: 'diltiazem',
  levophed: 'norepinephrine',
  haldol: 'haloperidol',
  zyprexa: 'olanzapine',
  geodon: 'ziprasidone',
  nitro: 'nitroglycerin',
  ntg: 'nitroglycerin',
  nitrostat: 'nitroglycerin',
  d10: 'dextrose',
  d50: 'dextrose',
  o2: 'oxygen',
  cva: 'stroke',
  vf: 'vfib',
  vt: 'vtach',
  bgl: 'glucose',
  bg: 'glucose',
  convulsion: 'seizure',
  convulsions: 'seizure',
  allergic: 'allergy',
  anaphylactic: 'anaphylaxis',
  hypoglycemic: 'hypoglycemia',
  dosing: 'dose',
  dosage: 'dose',
  contraindicated: 'contraindication',
  indicated: 'indication',
  od: 'overdose',
  infant: 'pediatric',
  infants: 'pediatric',
  defib: 'defibrillation',
  nasal: 'intranasal',
  nebulizer: 'nebulized',
  neb: 'nebulized',
  nebs: 'nebulized',
};

const STOP = new Set(
  (
    'a an and are as at be by can could do does for from how i if in is it its me my of on or our should ' +
    'the this to was we what when where which who whom why will with would you your give given giving ' +
    'many use used patient patients pt pts protocol protocols tell about there their they them any ' +
    'per please need want know'
  ).split(' '),
);

/** Lower case, phrases to their canonical word. */
export function normalizeText(text: string): string {
  // Upper-case "IN" is the intranasal route in protocols ("2 mg IN/IM/IV"), not the stop word.
  let result = text.replace(/\bIN\b/g, 'intranasal').toLowerCase();
  for (const [pattern, word] of PHRASES) result = result.replace(pattern, word);
  return result;
}

/** One word → its canonical form, or null for a word that carries no meaning for search. */
export function canonicalTerm(word: string): string | null {
  const lower = word.toLowerCase();
  if (STOP.has(lower)) return null;
  // Porter stemming after the table: "mixing" finds "mix", "defibrillate" finds "defibrillation".
  return stemmer(WORDS[lower] ?? lower);
}

/** Text → canonical search terms, in order, repeats kept (BM25 counts them). */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of normalizeText(text).matchAll(/[a-z0-9]+/g)) {
    const term = canonicalTerm(match[0]);
    if (term) terms.push(term);
  }
  return terms;
}

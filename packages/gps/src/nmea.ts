/**
 * NMEA 0183 sentences, one at a time: `$GPRMC` / `$GNRMC` give the fix, `$GPGGA` / `$GNGGA` its quality.
 * The checksum is required (an unchecked sentence is counted invalid): the modem's serial or UDP link is
 * where bytes get lost, and a dropped digit in a latitude moves the ambulance by kilometres.
 */
import {
  isPrintableAscii,
  KNOTS_TO_MPS,
  parseHexPair,
  roundSpeed,
  xorChecksum,
  type GpsFix,
  type SentenceOutcome,
} from './fix';

const TALKERS = new Set(['GP', 'GN']);
/** RMC mode indicators (NMEA 2.3+) that describe a real fix; N (not valid), S (simulator), M (manual) do not. */
const USABLE_MODES = new Set(['A', 'D', 'E', 'F', 'P', 'R']);

const TIME = /^(\d{2})(\d{2})(\d{2})(\.\d{1,6})?$/;
const DATE = /^(\d{2})(\d{2})(\d{2})$/;
const LATITUDE = /^(\d{2})(\d{2}(?:\.\d{1,10})?)$/;
const LONGITUDE = /^(\d{3})(\d{2}(?:\.\d{1,10})?)$/;
const DECIMAL = /^\d{1,6}(\.\d{1,6})?$/;

/** Decodes one sentence (without its line ending). Never throws. */
export function decodeNmeaSentence(sentence: string): SentenceOutcome {
  if (sentence.length > 120 || !isPrintableAscii(sentence)) return { kind: 'invalid', reason: 'not a sentence' };
  if (sentence[0] !== '$') return { kind: 'invalid', reason: 'no $ at the start' };
  const star = sentence.lastIndexOf('*');
  if (star === -1) return { kind: 'invalid', reason: 'no checksum' };
  const stated = parseHexPair(sentence.slice(star + 1));
  if (stated === null) return { kind: 'invalid', reason: 'checksum is not two hex digits' };
  if (xorChecksum(sentence, 1, star) !== stated) return { kind: 'badChecksum', reason: 'checksum does not match' };

  const fields = sentence.slice(1, star).split(',');
  const address = fields[0] ?? '';
  const talker = address.slice(0, 2);
  const type = address.slice(2);
  if (address.length !== 5) return { kind: 'invalid', reason: 'malformed address field' };
  if (!TALKERS.has(talker) || (type !== 'RMC' && type !== 'GGA'))
    return { kind: 'ignored', reason: `${address} carries no fix` };
  return type === 'RMC' ? decodeRmc(fields) : decodeGga(fields);
}

function decodeRmc(fields: string[]): SentenceOutcome {
  if (fields.length < 12 || fields.length > 14) return { kind: 'invalid', reason: 'RMC field count' };
  const [, time, status, lat, ns, lon, ew, speed, course, date] = fields;
  if (status !== 'A') return { kind: 'invalid', reason: status === 'V' ? 'status V (no fix)' : 'unknown status' };
  const mode = fields[12];
  if (mode !== undefined && mode !== '' && !USABLE_MODES.has(mode))
    return { kind: 'invalid', reason: `mode ${mode} is not a fix` };
  const when = utcDateTime(date ?? '', time ?? '');
  if (!when) return { kind: 'invalid', reason: 'bad date or time' };
  const position = decodePosition(lat ?? '', ns ?? '', lon ?? '', ew ?? '');
  if (!position) return { kind: 'invalid', reason: 'bad position' };
  const knots = optionalDecimal(speed ?? '');
  const degrees = optionalDecimal(course ?? '');
  if (knots === undefined || degrees === undefined || (degrees !== null && degrees > 360))
    return { kind: 'invalid', reason: 'bad speed or course' };
  const fix: GpsFix = {
    time: when,
    lat: position.lat,
    lon: position.lon,
    speedMps: knots === null ? null : roundSpeed(knots * KNOTS_TO_MPS),
    course: degrees,
    valid: true,
    format: 'NMEA',
    sentence: 'RMC',
  };
  return { kind: 'fix', fix };
}

function decodeGga(fields: string[]): SentenceOutcome {
  if (fields.length < 15) return { kind: 'invalid', reason: 'GGA field count' };
  const time = TIME.exec(fields[1] ?? '');
  const quality = fields[6] ?? '';
  if (!time || !/^\d$/.test(quality)) return { kind: 'invalid', reason: 'bad GGA time or quality' };
  // 0 is "no fix"; 7 (manual input) and 8 (simulator) are not the vehicle's position.
  const code = Number(quality);
  if (code === 0 || code >= 7) return { kind: 'invalid', reason: `fix quality ${code}` };
  return { kind: 'quality', time: fields[1]!, quality: code };
}

/** `ddmmyy` + `hhmmss(.sss)` → ISO 8601, or null when either is not a real date or time. */
function utcDateTime(date: string, time: string): string | null {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t) return null;
  const [day, month, shortYear] = [Number(d[1]), Number(d[2]), Number(d[3])];
  // Two-digit years: NMEA has no century. Receivers from before 1980 do not exist.
  const year = shortYear < 80 ? 2000 + shortYear : 1900 + shortYear;
  const [hours, minutes, seconds] = [Number(t[1]), Number(t[2]), Number(t[3])];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const millis = t[4] ? Math.round(Number(t[4]) * 1000) : 0;
  const stamp = new Date(Date.UTC(year, month - 1, day, hours, minutes, seconds, millis));
  if (stamp.getUTCDate() !== day || stamp.getUTCMonth() !== month - 1) return null;
  return stamp.toISOString();
}

function decodePosition(lat: string, ns: string, lon: string, ew: string): { lat: number; lon: number } | null {
  const la = LATITUDE.exec(lat);
  const lo = LONGITUDE.exec(lon);
  if (!la || !lo || (ns !== 'N' && ns !== 'S') || (ew !== 'E' && ew !== 'W')) return null;
  const latMinutes = Number(la[2]);
  const lonMinutes = Number(lo[2]);
  if (latMinutes >= 60 || lonMinutes >= 60) return null;
  const latitude = Number(la[1]) + latMinutes / 60;
  const longitude = Number(lo[1]) + lonMinutes / 60;
  if (latitude > 90 || longitude > 180) return null;
  return { lat: ns === 'S' ? -latitude : latitude, lon: ew === 'W' ? -longitude : longitude };
}

/** An empty field is null; a malformed one is undefined (the sentence is then invalid). */
function optionalDecimal(field: string): number | null | undefined {
  if (field === '') return null;
  return DECIMAL.test(field) ? Number(field) : undefined;
}

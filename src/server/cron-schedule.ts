// Mirrors github.com/robfig/cron/v3 parser.go (v3.0.1, what kubernetes vendors) ParseStandard as
// CronJob validation calls it: only whether a schedule parses, and its error text when it does
// not (`expected exactly 5 fields, found 1: [foo]`, `end of range (60) above maximum (59): 60`,
// …), with the strconv.Atoi and time.ParseDuration errors it embeds. Deliberate differences: a
// `TZ=` prefix without a following space (a slice panic in Go) is a bad location here, and a
// location is known when the platform's Intl knows it (Go reads the tz database).
import { quote } from '../engine/http-face';

interface Bounds {
  min: number;
  max: number;
  names?: Readonly<Record<string, number>>;
}

const minutes: Bounds = { min: 0, max: 59 };
const hours: Bounds = { min: 0, max: 23 };
const dom: Bounds = { min: 1, max: 31 };
const months: Bounds = {
  min: 1,
  max: 12,
  names: {
    jan: 1,
    feb: 2,
    mar: 3,
    apr: 4,
    may: 5,
    jun: 6,
    jul: 7,
    aug: 8,
    sep: 9,
    oct: 10,
    nov: 11,
    dec: 12,
  },
};
const dow: Bounds = {
  min: 0,
  max: 6,
  names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 },
};

class CronParseError extends Error {}

const fail = (message: string): never => {
  throw new CronParseError(message);
};

/** strconv.Atoi's value, or its error text. */
function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) fail(`strconv.Atoi: parsing ${quote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n)
    fail(`strconv.Atoi: parsing ${quote(s)}: value out of range`);
  return Number(n);
}

function mustParseInt(expr: string): number {
  let num = 0;
  try {
    num = atoi(expr);
  } catch (e) {
    fail(`failed to parse int from ${expr}: ${(e as Error).message}`);
  }
  if (num < 0) fail(`negative number (${num}) not allowed: ${expr}`);
  return num;
}

function parseIntOrName(expr: string, names: Bounds['names']): number {
  const named = names?.[expr.toLowerCase()];
  return named !== undefined && Object.hasOwn(names!, expr.toLowerCase())
    ? named
    : mustParseInt(expr);
}

function getRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0].split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0], r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1], r.names);
    else return fail(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1]);
    // "N/step" means "N-max/step".
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) fail(`too many slashes: ${expr}`);
  if (start < r.min) fail(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) fail(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) fail(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) fail(`step of range should be a positive number: ${expr}`);
}

function getField(field: string, r: Bounds): void {
  for (const expr of field.split(',').filter((e) => e !== '')) getRange(expr, r);
}

const durationUnits = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

/** time.ParseDuration's error for `orig`, or undefined when it parses (overflow not checked). */
function parseDurationError(orig: string): string | undefined {
  const invalid = `time: invalid duration ${quote(orig)}`;
  let s = orig.replace(/^[+-]/, '');
  if (s === '0') return undefined;
  if (s === '') return invalid;
  while (s !== '') {
    const num = /^([0-9]*)(\.([0-9]*))?/.exec(s)!;
    const pre = num[1] !== '';
    const post = (num[3] ?? '') !== '';
    if (!(s[0] === '.' || (s[0] >= '0' && s[0] <= '9')) || (!pre && !post)) return invalid;
    s = s.slice(num[0].length);
    const unit = /^[^.0-9]*/.exec(s)![0];
    if (unit === '') return `time: missing unit in duration ${quote(orig)}`;
    if (!durationUnits.has(unit))
      return `time: unknown unit ${quote(unit)} in duration ${quote(orig)}`;
    s = s.slice(unit.length);
  }
  return undefined;
}

const descriptors = new Set([
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
]);

function parseDescriptor(descriptor: string): void {
  if (descriptors.has(descriptor)) return;
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    const err = parseDurationError(descriptor.slice(every.length));
    if (err) fail(`failed to parse duration ${descriptor}: ${err}`);
    return;
  }
  fail(`unrecognized descriptor: ${descriptor}`);
}

/**
 * time.LoadLocation's error for `name`, or undefined when it loads. Go reads the tz database by
 * file name, so a name differing from the canonical one only in case is unknown there; Intl
 * accepts it, hence the comparison (an alias Intl resolves to another name is taken as known).
 */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\'))
    return 'time: invalid location name';
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions()
      .timeZone;
    if (resolved !== name && resolved.toLowerCase() === name.toLowerCase())
      return `unknown time zone ${name}`;
    return undefined;
  } catch {
    return `unknown time zone ${name}`;
  }
}

function knownLocation(name: string): boolean {
  return loadLocationError(name) === undefined;
}

/** cron.ParseStandard's error for `spec`, or undefined when it parses. */
export function parseStandardError(spec: string): string | undefined {
  try {
    if (spec.length === 0) fail('empty spec string');
    if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
      const i = spec.indexOf(' ');
      const name = spec.slice(spec.indexOf('=') + 1, i < 0 ? undefined : i);
      if (i < 0 || !knownLocation(name))
        fail(`provided bad location ${name}: unknown time zone ${name}`);
      spec = spec.slice(i).trim();
    }
    if (spec.startsWith('@')) {
      parseDescriptor(spec);
      return undefined;
    }
    // strings.Fields: split on white space.
    const fields = spec.split(/\s+/).filter((f) => f !== '');
    if (fields.length !== 5)
      fail(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
    [minutes, hours, dom, months, dow].forEach((r, i) => getField(fields[i], r));
    return undefined;
  } catch (e) {
    if (e instanceof CronParseError) return e.message;
    throw e;
  }
}

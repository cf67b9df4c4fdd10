// Differential fuzzing of decodeContinue (canonical-continue.ts's fast path, then the exact port)
// against the exact port alone (inspectContinue), shared by continue-fuzz.test.ts (the unit suite)
// and test/fuzz/continue-decode.ts (`npm run fuzz:continue`, one million inputs). Seeded and
// deterministic: input i of seed s is always the same token.
import {
  ContinueTokenError,
  decodeContinue,
  encodeContinue,
  inspectContinue,
} from '../../../src/engine/storage/continue';
import { decodeCanonicalContinue } from '../../../src/engine/storage/canonical-continue';
import { SeededRandom } from '../../../src/engine/rand';

/** How an input was made (counted, and named when a comparison fails). */
export type FuzzKind = 'canonical' | 'token-mutation' | 'json-edit' | 'random';

export interface FuzzInput {
  kind: FuzzKind;
  token: string;
  keyPrefix: string;
}

class Gen {
  private readonly r: SeededRandom;
  constructor(seed: number) {
    this.r = new SeededRandom(seed);
  }
  int(n: number): number {
    return this.r.intn(n);
  }
  chance(p: number): boolean {
    return this.r.float64() < p;
  }
  pick<T>(xs: ArrayLike<T>): T {
    return xs[this.r.intn(xs.length)];
  }
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const keyPrefixes = [
  '/registry/pods/',
  '/registry/pods/default/',
  '/registry/configmaps/kube-system/',
  '/test/',
  '',
];
const namespaces = ['default', 'kube-system', 'team-a', 'ns-0042', 'monitoring'];
// Characters a start key can hold, weighted towards what names are made of.
const nameChars = 'abcdefghijklmnopqrstuvwxyz0123456789-'.split('');
const oddChars = [
  '.',
  '/',
  '\x00',
  '\x01',
  '\x1f',
  '\x7f',
  '\t',
  '\n',
  '"',
  '\\',
  '<',
  '>',
  '&',
  '\u2028',
  '\u2029',
  'é',
  'ß',
  '\u017f',
  '\u212a',
  '\ufffd',
  '\u00a0',
  '😀',
  '\ud800',
  '\udc00',
  'Ω',
  '中',
];

function podName(g: Gen): string {
  const base = g.pick(['web', 'api', 'worker', 'nginx-deployment', 'x']);
  let s = `${base}-${g.int(1e9).toString(36)}-${g.int(1e5).toString(36)}`;
  if (g.chance(0.1)) s += '-' + 'a'.repeat(g.int(230));
  return s;
}

/** A start key: mostly realistic (namespace/name + NUL), sometimes hostile. */
function startKey(g: Gen): string {
  switch (g.int(6)) {
    case 0:
    case 1:
      return `${g.pick(namespaces)}/${podName(g)}\x00`;
    case 2:
      return podName(g) + (g.chance(0.7) ? '\x00' : '');
    case 3: {
      // Segments that path.Clean changes, or nearly does.
      const segs = ['..', '.', '', 'a', '...', '.a', 'a.', 'b', '..\x00'];
      const n = 1 + g.int(4);
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(g.pick(segs));
      return (g.chance(0.3) ? '/' : '') + parts.join('/');
    }
    default: {
      let s = '';
      const n = g.int(12);
      for (let i = 0; i < n; i++) s += g.chance(0.6) ? g.pick(nameChars) : g.pick(oddChars);
      return s;
    }
  }
}

function resourceVersion(g: Gen): number | bigint {
  switch (g.int(8)) {
    case 0:
      return 1 + g.int(1000);
    case 1:
      return g.pick([0, -1, -2, 1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]);
    case 2:
      return g.pick([2n ** 53n, 2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), -(2n ** 53n)]);
    case 3:
      return -(1 + g.int(1e6));
    default: {
      // Uniform in digit count, up to 16 digits (around 2^53).
      const digits = 1 + g.int(16);
      let s = String(1 + g.int(9));
      for (let i = 1; i < digits; i++) s += String(g.int(10));
      const n = BigInt(s);
      return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
    }
  }
}

function canonical(g: Gen): { start: string; rv: number | bigint; token: string } {
  const start = startKey(g);
  const rv = resourceVersion(g);
  return { start, rv, token: encodeContinue('/p/' + start, '/p/', rv) };
}

// --- token (base64 text) mutations

const tokenNoise = [...alphabet, '=', '+', '/', '\n', '\r', ' ', '%', '.', 'é', '\x00', '😀'];

function mutateToken(g: Gen, t: string): string {
  const at = (): number => g.int(t.length + 1);
  switch (g.int(11)) {
    case 0: {
      const i = at();
      return t.slice(0, i) + g.pick(tokenNoise) + t.slice(i + 1);
    }
    case 1: {
      const i = at();
      return t.slice(0, i) + g.pick(alphabet) + t.slice(i + 1);
    }
    case 2: {
      const i = at();
      return t.slice(0, i) + t.slice(i + 1);
    }
    case 3: {
      const i = at();
      return t.slice(0, i) + g.pick(tokenNoise) + t.slice(i);
    }
    case 4:
      return t.slice(0, at());
    case 5: {
      let s = t;
      const n = 1 + g.int(4);
      for (let k = 0; k < n; k++) s += g.pick(g.chance(0.5) ? tokenNoise : [...alphabet]);
      return s;
    }
    case 6: {
      const i = Math.min(at(), t.length - 1);
      const c = t[i] ?? '';
      const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
      return g.chance(0.1)
        ? g.pick([t.toUpperCase(), t.toLowerCase()])
        : t.slice(0, i) + flipped + t.slice(i + 1);
    }
    case 7:
      return t + '='.repeat((4 - (t.length % 4)) % 4 || g.int(3));
    case 8:
      return Buffer.from(t, 'base64url').toString('base64');
    case 9: {
      const i = at();
      return t.slice(0, i) + g.pick(['\n', '\r\n', '\r']) + t.slice(i);
    }
    default: {
      const i = at();
      const j = Math.min(t.length, i + g.int(8));
      return t.slice(0, j) + t.slice(i, j) + t.slice(j);
    }
  }
}

// --- JSON edits: the token rebuilt from fields, then edited as bytes

interface JsonField {
  key: string;
  value: string;
}

const keyVariants: Record<string, string[]> = {
  v: ['V', '\\u0076', 'v ', 'vv', ''],
  rv: ['RV', 'Rv', 'rV', 'r\\u0076', 'rv\\u0000', 'r'],
  start: [
    'START',
    'Start',
    'sTaRt',
    '\u017ftart',
    '\u017fTART',
    'star',
    'start\\u0000',
    'st\\u0061rt',
  ],
};
const rvTexts = [
  '0',
  '-0',
  '00',
  '01',
  '-01',
  '1.0',
  '1e3',
  '1E3',
  '1e-3',
  '5.5',
  '-1',
  '+1',
  '--1',
  '0x10',
  '-',
  '9007199254740991',
  '9007199254740992',
  '-9007199254740991',
  '-9007199254740992',
  '9999999999999999',
  '99999999999999999',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '99999999999999999999',
  '"5"',
  'null',
  'true',
  'false',
  '[]',
  '{}',
  '[1]',
  '{"a":1}',
];
const versionTexts = [
  '"meta.k8s.io/v2"',
  '""',
  '"Meta.k8s.io/v1"',
  '"meta.k8s.io\\/v1"',
  '"meta.k8s.io/v\\u0031"',
  'null',
  '1',
  '"meta.k8s.io/v1 "',
];
const whitespace = [' ', '\t', '\n', '\r', '  ', '\u00a0', '\f', '\v'];

/** A JSON string literal for s, each character written plainly or escaped in one of Go's ways. */
function quoteVariously(g: Gen, s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    const hex4 = (n: number): string => {
      const h = n.toString(16).padStart(4, '0');
      return '\\u' + (g.chance(0.5) ? h : h.toUpperCase());
    };
    if (g.chance(0.1)) {
      if (cp >= 0x10000) {
        const hi = 0xd800 + ((cp - 0x10000) >> 10);
        const lo = 0xdc00 + ((cp - 0x10000) & 0x3ff);
        out += hex4(hi) + hex4(lo);
      } else out += hex4(cp);
      continue;
    }
    if (ch === '/' && g.chance(0.5)) {
      out += '\\/';
      continue;
    }
    out += JSON.stringify(ch).slice(1, -1);
  }
  if (g.chance(0.05)) out += g.pick(['\\ud800', '\\udc00', '\\ud83d\\ude00', '\\uD834\\uDD1E']);
  return out + '"';
}

function jsonFields(g: Gen): JsonField[] {
  const c = canonical(g);
  const rvText = typeof c.rv === 'bigint' ? c.rv.toString() : String(c.rv);
  const fields: JsonField[] = [
    { key: 'v', value: '"meta.k8s.io/v1"' },
    { key: 'rv', value: rvText },
    { key: 'start', value: g.chance(0.5) ? quoteVariously(g, c.start) : JSON.stringify(c.start) },
  ];
  // The field named key, or a new one at the end when edits renamed or dropped it.
  const named = (key: string): JsonField =>
    fields.find((x) => x.key === key) ?? (fields[fields.push({ key, value: '' }) - 1] as JsonField);
  const edits = 1 + g.int(3);
  for (let e = 0; e < edits; e++) {
    if (fields.length === 0) fields.push({ key: 'start', value: '"k"' });
    const f = g.pick(fields);
    switch (g.int(9)) {
      case 0:
        if (keyVariants[f.key]) f.key = g.pick(keyVariants[f.key]);
        break;
      case 1:
        fields.splice(g.int(fields.length + 1), 0, { ...f });
        break;
      case 2:
        fields.splice(g.int(fields.length + 1), 0, {
          key: g.pick(['V', 'RV', 'START', '\u017ftart', 'v', 'rv', 'start']),
          value: g.pick([...rvTexts, '"x"', '"meta.k8s.io/v1"', '"a/b"']),
        });
        break;
      case 3:
        fields.push(fields.splice(g.int(fields.length), 1)[0]);
        break;
      case 4:
        fields.splice(g.int(fields.length), 1);
        break;
      case 5:
        named('rv').value = g.pick(rvTexts);
        break;
      case 6:
        named('v').value = g.pick(versionTexts);
        break;
      case 7:
        fields.splice(g.int(fields.length + 1), 0, {
          key: g.pick(['extra', 'kind', '\u212aind']),
          value: g.pick(['[1,{"a":null}]', '{}', '"s"', 'null', '1.5e300']),
        });
        break;
      default:
        f.value = quoteVariously(g, startKey(g));
    }
  }
  return fields;
}

function jsonText(g: Gen, fields: JsonField[]): string {
  const ws = (): string => (g.chance(0.04) ? g.pick(whitespace) : '');
  return (
    ws() +
    '{' +
    fields.map((f) => `${ws()}"${f.key}"${ws()}:${ws()}${f.value}${ws()}`).join(',') +
    '}' +
    ws()
  );
}

function editBytes(g: Gen, b: Buffer): Buffer {
  const at = (): number => g.int(b.length + 1);
  const raw = (xs: number[]): Buffer => Buffer.from(xs);
  switch (g.int(8)) {
    case 0: {
      // One bit flipped.
      const c = Buffer.from(b);
      if (c.length > 0) c[g.int(c.length)] ^= 1 << g.int(8);
      return c;
    }
    case 1:
      return b.subarray(0, at());
    case 2: {
      const i = at();
      const bad = g.pick([
        [0xff],
        [0xc0, 0x80],
        [0xed, 0xa0, 0x80],
        [0xe2, 0x82],
        [0xf4, 0x90, 0x80, 0x80],
        [0xef, 0xbf, 0xbd],
        [0xc3, 0xa9],
        [0xf0, 0x9f, 0x98, 0x80],
        [0x00],
        [0x01],
        [0x7f],
        [0x0a],
        [0x80],
      ]);
      return Buffer.concat([b.subarray(0, i), raw(bad), b.subarray(i)]);
    }
    case 3:
      return Buffer.concat([
        b,
        Buffer.from(g.pick(['x', ' ', '}', ',', '\x00', '\n', '{}', ' \t'])),
      ]);
    case 4:
      return Buffer.concat([Buffer.from(g.pick(['\ufeff', ' ', '[', '\x00'])), b]);
    case 5: {
      const i = at();
      return Buffer.concat([b.subarray(0, i), Buffer.from(g.pick(whitespace)), b.subarray(i)]);
    }
    case 6:
      return Buffer.from(g.pick(['null', '[]', '"x"', '1', 'true', '{}', '', ' ', '{"v":}']));
    default:
      return b;
  }
}

function encodeBytes(g: Gen, b: Buffer): string {
  switch (g.int(12)) {
    case 0:
      return b.toString('base64');
    case 1: {
      const t = b.toString('base64url');
      return t + '='.repeat((4 - (t.length % 4)) % 4);
    }
    default:
      return b.toString('base64url');
  }
}

function randomToken(g: Gen): string {
  if (g.chance(0.5)) {
    const bytes = Buffer.alloc(g.int(100));
    for (let i = 0; i < bytes.length; i++) bytes[i] = g.int(256);
    return encodeBytes(g, bytes);
  }
  let s = g.chance(0.5) ? 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6' : '';
  const n = g.int(100);
  for (let i = 0; i < n; i++) s += g.chance(0.97) ? g.pick(alphabet) : g.pick(tokenNoise);
  return s;
}

/** The next input: a quarter canonical, the rest mutated, edited or random. */
function fuzzInput(g: Gen): FuzzInput {
  const keyPrefix = g.pick(keyPrefixes);
  const roll = g.int(20);
  if (roll < 5) return { kind: 'canonical', token: canonical(g).token, keyPrefix };
  if (roll < 11) {
    let t = canonical(g).token;
    const n = 1 + g.int(g.chance(0.8) ? 1 : 3);
    for (let k = 0; k < n; k++) t = mutateToken(g, t);
    return { kind: 'token-mutation', token: t, keyPrefix };
  }
  if (roll < 18) {
    let b: Buffer = Buffer.from(jsonText(g, jsonFields(g)), 'utf8');
    if (g.chance(0.4)) b = editBytes(g, b);
    return { kind: 'json-edit', token: encodeBytes(g, b), keyPrefix };
  }
  return { kind: 'random', token: randomToken(g), keyPrefix };
}

/** The seeded input stream. */
export function* fuzzInputs(seed: number, count: number): Generator<FuzzInput> {
  const g = new Gen(seed);
  for (let i = 0; i < count; i++) yield fuzzInput(g);
}

/** What a decoder answered: the result, or every field of the error. */
type Outcome =
  | { fromKey: string; resourceVersion: number | bigint }
  | {
      reason: string;
      message: string;
      wrapsGenericInvalidKey: boolean;
      cause: string | undefined;
      stage: string | undefined;
    };

function errorOutcome(e: ContinueTokenError): Outcome {
  return {
    reason: e.reason,
    message: e.message,
    wrapsGenericInvalidKey: e.wrapsGenericInvalidKey,
    cause: e.cause,
    stage: e.stage,
  };
}

function exactOutcome(token: string, keyPrefix: string): Outcome {
  const r = inspectContinue(token, keyPrefix);
  if (r.error) return errorOutcome(r.error);
  const { fromKey, resourceVersion } = r.result!;
  return { fromKey, resourceVersion };
}

function decodeOutcome(token: string, keyPrefix: string): Outcome {
  try {
    const { fromKey, resourceVersion } = decodeContinue(token, keyPrefix);
    return { fromKey, resourceVersion };
  } catch (e) {
    if (e instanceof ContinueTokenError) return errorOutcome(e);
    throw e;
  }
}

function sameOutcome(a: Outcome, b: Outcome): boolean {
  const ka = Object.keys(a) as (keyof Outcome)[];
  return (
    ka.length === Object.keys(b).length &&
    ka.every((k) => (a as Record<string, unknown>)[k] === (b as Record<string, unknown>)[k])
  );
}

export interface FuzzTally {
  inputs: number;
  byKind: Record<FuzzKind, number>;
  /** Inputs the fast path answered (the rest went to the exact port). */
  fastAnswered: number;
  /** Inputs the exact port accepted. */
  exactAccepted: number;
  /** Accepted by the exact port, declined by the fast path (bigints, escapes, key order, ...). */
  acceptedButNotFast: number;
  /** Non-canonical inputs (mutated or edited) the fast path still answered. */
  fastAnsweredEdited: number;
  /** Errors by reason. */
  errors: Record<string, number>;
  /** Inputs where decodeContinue and the exact port disagree; the first ten, to reproduce. */
  mismatchCount: number;
  mismatches: string[];
}

/** Runs `count` inputs of `seed` through both decoders and counts what happened. */
export function runContinueFuzz(seed: number, count: number): FuzzTally {
  const tally: FuzzTally = {
    inputs: 0,
    byKind: { canonical: 0, 'token-mutation': 0, 'json-edit': 0, random: 0 },
    fastAnswered: 0,
    exactAccepted: 0,
    acceptedButNotFast: 0,
    fastAnsweredEdited: 0,
    errors: {},
    mismatchCount: 0,
    mismatches: [],
  };
  // Stack traces are most of an error's cost, most inputs end in errors, and nothing reads them.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    fuzz(seed, count, tally);
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  return tally;
}

function fuzz(seed: number, count: number, tally: FuzzTally): void {
  let i = 0;
  for (const input of fuzzInputs(seed, count)) {
    const { token, keyPrefix, kind } = input;
    tally.inputs++;
    tally.byKind[kind]++;
    const fast = decodeCanonicalContinue(token, keyPrefix) !== undefined;
    if (fast) {
      tally.fastAnswered++;
      if (kind !== 'canonical') tally.fastAnsweredEdited++;
    }
    const want = exactOutcome(token, keyPrefix);
    const got = decodeOutcome(token, keyPrefix);
    if ('fromKey' in want) {
      tally.exactAccepted++;
      if (!fast) tally.acceptedButNotFast++;
    } else tally.errors[want.reason] = (tally.errors[want.reason] ?? 0) + 1;
    if (!sameOutcome(want, got) && tally.mismatchCount++ < 10) {
      tally.mismatches.push(
        `seed ${seed} input ${i} (${kind}) token ${JSON.stringify(token)} prefix ${JSON.stringify(keyPrefix)}: ` +
          `exact ${show(want)}, decodeContinue ${show(got)}`,
      );
    }
    i++;
  }
}

function show(o: Outcome): string {
  return JSON.stringify(o, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

// Benchmark: decodeContinue on canonical continue tokens (what EncodeContinue writes: the tokens
// every paged LIST hands back), next to a baseline measured in the same run on the same tokens:
// Node's Buffer.from(token, 'base64url') and JSON.parse, which check nothing Go checks. Goal: at
// least half the baseline's rate. For information: the exact port alone (inspectContinue, what
// decodeContinue falls back to), and encodeContinue next to JSON.stringify + base64url.
// The tokens are a realistic mix: cluster-wide and namespaced pod lists (start "ns/name\0" and
// "name\0"), generated names, some of them long, resource versions with 1 to 16 digits up to 2^53.
// Rounds alternate ours and the baseline; figures are the median rates over the rounds.
//   node esbuild.js && node --expose-gc out/bench/continue-decode.js [tokens]
import { SeededRandom } from '../src/engine/rand';
import { decodeContinue, encodeContinue, inspectContinue } from '../src/engine/storage/continue';
import { decodeCanonicalContinue } from '../src/engine/storage/canonical-continue';
import {
  atLeast,
  fmtInt,
  fmtRate,
  gc,
  median,
  runAsScript,
  scriptArgs,
  timeSync,
  type BenchRow,
} from './bench-util';

const podPrefix = '/registry/pods/';
const rounds = 15;

interface Page {
  token: string;
  keyPrefix: string;
  start: string;
  rv: number;
}

function pages(count: number): Page[] {
  const r = new SeededRandom(9);
  const namespaces = Array.from({ length: 50 }, (_, i) => `team-${i}-${r.intn(1e6).toString(36)}`);
  const out: Page[] = [];
  for (let i = 0; i < count; i++) {
    const ns = namespaces[r.intn(namespaces.length)];
    const app = ['web', 'api', 'worker', 'nginx-deployment', 'prometheus-node-exporter'][r.intn(5)];
    let name = `${app}-${r.intn(1e10).toString(36)}-${r.intn(1e5).toString(36)}`;
    // Now and then a long generated name (names run up to 253 characters).
    if (r.intn(10) === 0) name += '-' + 'x'.repeat(50 + r.intn(170));
    const digits = 1 + r.intn(16);
    const rv = Math.max(1, Math.floor(r.float64() * Math.min(10 ** digits, 2 ** 53)));
    const namespaced = r.intn(2) === 0;
    const keyPrefix = namespaced ? `${podPrefix}${ns}/` : podPrefix;
    const key = `${podPrefix}${ns}/${name}\x00`;
    out.push({ token: encodeContinue(key, keyPrefix, rv), keyPrefix, start: key, rv });
  }
  return out;
}

/** Calls per second of `ours` over all pages, median over rounds interleaved with `baseline`. */
function race(
  ps: readonly Page[],
  ours: (p: Page) => number,
  baseline: (p: Page) => number,
): { ours: number; baseline: number; ratio: number; sink: number } {
  let sink = 0;
  const oursRates: number[] = [];
  const baseRates: number[] = [];
  const ratios: number[] = [];
  const pass = (f: (p: Page) => number): number => {
    gc();
    return timeSync(() => {
      for (const p of ps) sink += f(p);
    });
  };
  // Warm-up: both shaped and optimised before the first measured round.
  pass(ours);
  pass(baseline);
  for (let k = 0; k < rounds; k++) {
    const o = ps.length / (pass(ours) / 1000);
    const b = ps.length / (pass(baseline) / 1000);
    oursRates.push(o);
    baseRates.push(b);
    ratios.push(o / b);
  }
  return { ours: median(oursRates), baseline: median(baseRates), ratio: median(ratios), sink };
}

export async function runContinueDecode(
  o: { tokens?: number; log?: (line: string) => void } = {},
): Promise<BenchRow[]> {
  const log = o.log ?? console.log;
  const ps = pages(o.tokens ?? 20_000);

  // The figures are only comparable if all three answer the same, and ours takes the fast path.
  let fast = 0;
  for (const p of ps) {
    const d = decodeContinue(p.token, p.keyPrefix);
    const j = JSON.parse(Buffer.from(p.token, 'base64url').toString('utf8')) as { start: string };
    if (d.fromKey !== p.start || d.resourceVersion !== p.rv || p.keyPrefix + j.start !== p.start)
      throw new Error(`token ${p.token} decodes to ${JSON.stringify(d)}`);
    if (decodeCanonicalContinue(p.token, p.keyPrefix)) fast++;
  }
  const bytes = ps.reduce((s, p) => s + p.token.length, 0) / ps.length;
  log(
    `${fmtInt(ps.length)} canonical tokens, ${bytes.toFixed(0)} characters on average, ` +
      `${fmtInt(fast)} on the fast path`,
  );

  const nodeDecode = (p: Page): number =>
    (JSON.parse(Buffer.from(p.token, 'base64url').toString('utf8')) as { start: string }).start
      .length;
  const decode = race(ps, (p) => decodeContinue(p.token, p.keyPrefix).fromKey.length, nodeDecode);
  log(
    `decodeContinue ${fmtRate(decode.ours)}, Buffer+JSON.parse ${fmtRate(decode.baseline)}: ` +
      `${decode.ratio.toFixed(2)}`,
  );
  const exact = race(
    ps,
    (p) => inspectContinue(p.token, p.keyPrefix).result!.fromKey.length,
    nodeDecode,
  );
  log(
    `exact port ${fmtRate(exact.ours)}, Buffer+JSON.parse ${fmtRate(exact.baseline)}: ` +
      `${exact.ratio.toFixed(2)}`,
  );
  const encode = race(
    ps,
    (p) => encodeContinue(p.start, p.keyPrefix, p.rv).length,
    (p) =>
      Buffer.from(
        JSON.stringify({ v: 'meta.k8s.io/v1', rv: p.rv, start: p.start.slice(p.keyPrefix.length) }),
      ).toString('base64url').length,
  );
  log(
    `encodeContinue ${fmtRate(encode.ours)}, JSON.stringify+base64url ${fmtRate(encode.baseline)}: ` +
      `${encode.ratio.toFixed(2)}`,
  );
  if (decode.sink + exact.sink + encode.sink === 0) log('(nothing decoded)');

  const note = `${fmtInt(ps.length)} tokens x ${rounds} rounds`;
  return [
    {
      bench: 'continue-decode',
      measure: 'decodeContinue, canonical tokens, decodes/s',
      figure: fmtRate(decode.ours),
      baseline: fmtRate(decode.baseline),
      ratio: decode.ratio,
      goal: atLeast(decode.ratio, 0.5),
      note: `${note}, baseline Buffer.from(base64url)+JSON.parse`,
    },
    {
      bench: 'continue-decode',
      measure: '  the exact port alone (the fallback)',
      figure: fmtRate(exact.ours),
      baseline: fmtRate(exact.baseline),
      ratio: exact.ratio,
      note,
    },
    {
      bench: 'continue-decode',
      measure: 'encodeContinue, encodes/s',
      figure: fmtRate(encode.ours),
      baseline: fmtRate(encode.baseline),
      ratio: encode.ratio,
      note: `${note}, baseline JSON.stringify+Buffer base64url`,
    },
  ];
}

runAsScript('continue-decode', () =>
  runContinueDecode({ tokens: scriptArgs()[0] ? Number(scriptArgs()[0]) : undefined }),
);

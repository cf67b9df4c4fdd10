// No upstream counterpart: one URL explained under every release profile (1.33 … 1.37), side by
// side: the list/watch gates each release has at its defaults, then what each explanation decided.
// A cell that differs from the release-1.36 column (the engine's own code) is marked.
import {
  featureNames,
  profiles,
  profileVersions,
  withGates,
  type FeatureName,
  type ProfileVersion,
} from '../engine';
import { explainRequest, type ExplainOptions, type RequestExplanation } from './explain-request';

/** The column every other column is compared with. */
export const matrixBaseline: ProfileVersion = '1.36';

export interface MatrixRow {
  label: string;
  /** One cell per profile, in `profiles` order. */
  cells: string[];
  /** The cell differs from the baseline column's. */
  differs: boolean[];
}

export interface ExplanationMatrix {
  url: string;
  profiles: readonly ProfileVersion[];
  gates?: Partial<Record<FeatureName, boolean>>;
  /** One row per gate: value and stage (`set` when --gates set it). */
  gateRows: MatrixRow[];
  /** The explanations' verdicts. */
  verdictRows: MatrixRow[];
  explanations: RequestExplanation[];
}

/** A profile where --gates cannot be applied: the message names it. */
export class MatrixGateError extends Error {
  constructor(
    readonly profile: ProfileVersion,
    message: string,
  ) {
    super(message);
    this.name = 'MatrixGateError';
  }
}

function row(label: string, cells: string[], baseline: number): MatrixRow {
  return { label, cells, differs: cells.map((c) => c !== cells[baseline]) };
}

const servedByCell: Record<RequestExplanation['servedBy'], string> = {
  cache: 'watch cache',
  'cache-snapshot': 'snapshot',
  etcd: 'etcd',
  error: 'fails',
};

function decidedByCell(e: RequestExplanation): string {
  if (e.servedResource === 'none') return 'no route (404)';
  if (e.rule.startsWith('rejected by the handler')) return 'get.go listOpts';
  if (!e.watchCache) return 'no watch cache';
  if (e.ruleId) return e.ruleId;
  return e.kind === 'watch' ? 'cacher.Watch' : '';
}

function answerCell(e: RequestExplanation): string {
  if (e.errorCode === undefined) return 'OK';
  return `${e.errorCode}${e.reason ? ` ${e.reason}` : ''}`;
}

function yesNo(v: boolean): string {
  return v ? 'yes' : 'no';
}

function limitCell(e: RequestExplanation): string {
  if (e.limit === null) return 'none sent';
  return `${e.limit} ${e.limitHonoured === true ? 'honoured' : e.limitHonoured === false ? 'ignored' : 'not reached'}`;
}

function initialEventsCell(e: RequestExplanation): string {
  const w = e.watch;
  if (!w || w.startsFrom === 'none') return '-';
  return `${w.initialEvents}${w.initialEventsEndBookmark ? ' + end bookmark' : ''}`;
}

/**
 * Explains `url` under every profile (the gates, if any, set on each; `options.profile` is each
 * column's own) and lays the answers side by side.
 */
export async function explainAcrossProfiles(
  url: string,
  options: ExplainOptions = {},
): Promise<ExplanationMatrix> {
  const overrides = options.gates ?? {};
  // Refuse before running anything: a gate locked in one release is refused for the whole table.
  for (const v of profileVersions) {
    try {
      withGates(profiles[v], overrides);
    } catch (e) {
      throw new MatrixGateError(v, (e as Error).message);
    }
  }
  const explanations: RequestExplanation[] = [];
  for (const v of profileVersions)
    explanations.push(await explainRequest(url, { ...options, profile: v }));
  const base = profileVersions.indexOf(matrixBaseline);
  const gateRows = featureNames.map((name) =>
    row(
      name,
      profileVersions.map((v) => {
        const s = profiles[v].specs[name];
        const set = overrides[name];
        const value = set ?? s.default;
        return `${value} ${s.stage}${set !== undefined ? ' set' : s.lockToDefault && s.stage !== 'Absent' ? ' locked' : ''}`;
      }),
      base,
    ),
  );
  const kind = explanations[0].kind;
  const cells = (f: (e: RequestExplanation) => string): string[] => explanations.map(f);
  const verdictRows = [
    row(
      'request',
      cells((e) => (e.kind === 'list' ? 'LIST' : 'WATCH')),
      base,
    ),
    row(
      'served by',
      cells((e) => servedByCell[e.servedBy]),
      base,
    ),
    row('decided by', cells(decidedByCell), base),
    row('answer', cells(answerCell), base),
    row(
      'consistent read',
      cells((e) => yesNo(e.consistentRead)),
      base,
    ),
    row(
      'may wait 3 s',
      cells((e) => yesNo(e.mayWait)),
      base,
    ),
    kind === 'list'
      ? row('limit', cells(limitCell), base)
      : row('initial events', cells(initialEventsCell), base),
    row(
      'etcd calls',
      cells((e) => String(e.etcdCalls.length)),
      base,
    ),
  ];
  return {
    url: explanations[0].url,
    profiles: profileVersions,
    ...(Object.keys(overrides).length > 0 ? { gates: { ...overrides } } : {}),
    gateRows,
    verdictRows,
    explanations,
  };
}

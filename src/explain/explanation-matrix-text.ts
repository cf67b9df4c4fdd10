// No upstream counterpart: the --matrix table as text. A cell that differs from the 1.36 column
// ends in ` *`; on a terminal it is bold as well (no colour, so it reads on any background).
import { formatGates } from './explanation-text';
import { matrixBaseline, type ExplanationMatrix, type MatrixRow } from './explanation-matrix';
import type { RequestExplanation } from './explain-request';

export const differsMarker = ' *';
const bold = (s: string): string => `\u001b[1m${s}\u001b[22m`;

export interface MatrixTextOptions {
  /** Bold the differing cells (a TTY). */
  bold?: boolean;
}

/** Profiles that share one text, in profile order: `1.34, 1.35: text`. */
function grouped(
  m: ExplanationMatrix,
  texts: (e: RequestExplanation) => readonly string[] | undefined,
): string[] {
  const groups = new Map<string, string[]>();
  m.explanations.forEach((e, i) => {
    for (const t of texts(e) ?? []) {
      const g = groups.get(t) ?? [];
      g.push(m.profiles[i]);
      groups.set(t, g);
    }
  });
  return [...groups].map(([t, vs]) => `  ${vs.join(', ')}: ${t}`);
}

/** The table, then the texts too long for a cell (why, error, assumptions), grouped by profile. */
export function matrixLines(m: ExplanationMatrix, o: MatrixTextOptions = {}): string[] {
  const rows = [...m.gateRows, ...m.verdictRows];
  const labelWidth = Math.max(...rows.map((r) => r.label.length)) + 4;
  const widths = m.profiles.map(
    (v, i) =>
      Math.max(
        v.length,
        ...rows.map((r) => r.cells[i].length + (r.differs[i] ? differsMarker.length : 0)),
      ) + 2,
  );
  const line = (label: string, cells: string[], differs?: boolean[]): string =>
    (
      label.padEnd(labelWidth) +
      cells
        .map((c, i) => {
          const text = (c + (differs?.[i] ? differsMarker : '')).padEnd(widths[i]);
          return differs?.[i] && o.bold ? bold(text) : text;
        })
        .join('')
    ).trimEnd();
  const table = (r: MatrixRow): string => line(`  ${r.label}`, r.cells, r.differs);
  const lines = [
    `GET ${m.url} across releases${m.gates ? `, gates ${formatGates(m.gates)}` : ''} (* differs from ${matrixBaseline})`,
    line('', [...m.profiles]),
    'gates (value, stage)',
    ...m.gateRows.map(table),
    'explanation',
    ...m.verdictRows.map(table),
    'why:',
    ...grouped(m, (e) => [e.rule]),
  ];
  const errors = grouped(m, (e) =>
    e.errorCode !== undefined
      ? [`${e.errorCode}${e.reason ? ` ${e.reason}` : ''}: ${e.message ?? ''}`]
      : undefined,
  );
  if (errors.length > 0) lines.push('error:', ...errors);
  const assumptions = grouped(m, (e) => e.assumptions);
  if (assumptions.length > 0) lines.push('assumptions:', ...assumptions);
  return lines;
}

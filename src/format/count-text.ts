// No upstream counterpart: how a count reads, `1,200` and `1 page` / `2 pages`, in every face (the
// CLI, the side bar, the webview, the scenarios' summaries), written once so they cannot drift.

/** A count with thousands separators, rounded: `1,200`; `—` for a count that is not finite. */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—';
}

export interface PluralOptions {
  /** The plural when it is not the noun + s (`watches`, `WATCHes`). */
  many?: string;
  /** The count's digits as they are, `1200 lines`, where a line has always printed them so. */
  plain?: boolean;
}

/** A count with its noun, singular or plural: `1 page`, `2 pages`, `1,200 watches`. */
export function plural(n: number, one: string, o: PluralOptions = {}): string {
  return `${o.plain ? String(n) : formatCount(n)} ${n === 1 ? one : (o.many ?? `${one}s`)}`;
}

// No upstream counterpart: the summary every face shows of a run, a scenario's (scenarios/*.ts
// summarize it from the RunModel) or a recorded run's (recorded-run-summary.ts): its story, its key
// facts, tables and charts, all read from the model.
/** A table a person reads: one header row, rows of cells. */
export interface SummaryTable {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
  /** Right-align these columns (numbers). Default: every column whose cells are all numbers. */
  note?: string;
}

/** A small bar chart: one bar per point. */
export interface SummaryChart {
  title: string;
  /** What the values count (e.g. 'keys', 'watchers', 'ms'). */
  unit: string;
  points: Array<{ label: string; value: number }>;
}

export interface ScenarioSummary {
  scenario: string;
  title: string;
  /** What happened, in a few sentences, with the run's numbers. */
  story: string[];
  /** The key numbers by name (what tests and hidden checks read). */
  facts: Record<string, number | string | boolean>;
  tables: SummaryTable[];
  charts: SummaryChart[];
}

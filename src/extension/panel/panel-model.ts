// The run as the inspector panel is sent it (protocol.ts PanelModel): the model without its
// watchers and watch requests (the panel asks for those a page at a time), plus what the timeline
// draws, computed here once so that the panel's first frame costs the same for 1,000 watchers as
// for 100,000. No upstream counterpart; no vscode here (unit-tested in plain Node).
import {
  activityColumns,
  maxMoments,
  type PanelModel,
  type RunModel,
  type TimelineSummary,
} from '../../protocol';

/** Every time something happened in the run that the timeline steps through. */
function eventTimes(m: RunModel): Float64Array {
  const times: number[] = [];
  for (const w of m.watchers) {
    for (const c of w.states) times.push(c.at);
    if (w.closedAt !== undefined) times.push(w.closedAt);
  }
  for (const q of m.watchRequests ?? [])
    if (q.outcome === 'error' && q.answeredAt !== undefined) times.push(q.answeredAt);
  for (const c of m.capacity) times.push(c.at);
  for (const l of m.lists) times.push(l.at);
  for (const e of m.serialization.perEvent) times.push(e.at);
  for (const p of m.phases ?? []) times.push(p.at);
  for (const t of m.bookmarkTicks ?? []) times.push(t.at);
  for (const w of m.freshnessWaits ?? []) times.push(w.at);
  for (const b of m.dispatch?.blocked ?? []) times.push(b.at);
  return Float64Array.from(
    times.filter((t) => Number.isFinite(t) && t >= 0 && t <= m.durationMs),
  ).sort();
}

export function timelineSummary(m: RunModel): TimelineSummary {
  const sorted = eventTimes(m);
  const distinct: number[] = [];
  for (const t of sorted)
    if (distinct.length === 0 || distinct[distinct.length - 1] !== t) distinct.push(t);
  const activity = new Array<number>(activityColumns).fill(0);
  const span = m.durationMs || 1;
  for (const t of sorted)
    activity[Math.min(activityColumns - 1, Math.floor((t / span) * activityColumns))]++;
  if (distinct.length <= maxMoments) return { moments: distinct, activity };
  // An even spread, the phases always among them (they are what a person steps to).
  const keep = new Set((m.phases ?? []).map((p) => p.at));
  const stride = distinct.length / maxMoments;
  for (let i = 0; i < maxMoments; i++) keep.add(distinct[Math.floor(i * stride)]);
  const moments = [...keep].sort((a, b) => a - b);
  return { moments, activity, momentsDropped: distinct.length - moments.length };
}

export function panelModel(model: RunModel): PanelModel {
  const rest: Partial<RunModel> = { ...model };
  delete rest.watchers;
  delete rest.watchRequests;
  return {
    ...(rest as Omit<RunModel, 'watchers' | 'watchRequests'>),
    watcherCount: model.watchers.length,
    failedWatchCount: (model.watchRequests ?? []).filter((q) => q.outcome === 'error').length,
    timeline: timelineSummary(model),
  };
}

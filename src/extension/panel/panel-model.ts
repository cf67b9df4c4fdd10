// The run as the inspector panel is sent it (protocol.ts PanelModel): the model without its
// watchers, watch requests and clients (the panel asks for those a page at a time), plus what the timeline
// draws, computed here once so that the panel's first frame costs the same for 1,000 watchers as
// for 100,000. No upstream counterpart; no vscode here (unit-tested in plain Node).
import { replayPanel } from './replay-panel';
import type { ReplayPanel } from '../../protocol';
import {
  activityColumns,
  maxMoments,
  type PanelModel,
  type RunModel,
  type TimelineSummary,
} from '../../protocol';

/** Every time something happened in the run that the timeline steps through, ascending (models folded before `moments`). */
function eventTimes(m: RunModel): Float64Array {
  // Two passes (count, then fill) over typed memory: 100,000 watchers make 200,000 times.
  let n = 0;
  for (const w of m.watchers) n += w.states.length + (w.closedAt !== undefined ? 1 : 0);
  const others: number[] = [];
  for (const q of m.watchRequests ?? [])
    if (q.outcome === 'error' && q.answeredAt !== undefined) others.push(q.answeredAt);
  for (const c of m.capacity) others.push(c.at);
  for (const l of m.lists) others.push(l.at);
  for (const e of m.serialization.perEvent) others.push(e.at);
  for (const p of m.phases ?? []) others.push(p.at);
  for (const t of m.bookmarkTicks ?? []) others.push(t.at);
  for (const w of m.freshnessWaits ?? []) others.push(w.at);
  for (const b of m.dispatch?.blocked ?? []) others.push(b.at);
  const times = new Float64Array(n + others.length);
  let i = 0;
  const end = m.durationMs;
  const add = (t: number) => {
    if (t >= 0 && t <= end) times[i++] = t;
  };
  for (const w of m.watchers) {
    for (const c of w.states) add(c.at);
    if (w.closedAt !== undefined) add(w.closedAt);
  }
  for (const t of others) add(t);
  return times.subarray(0, i).sort();
}

export function timelineSummary(m: RunModel): TimelineSummary {
  const activity = new Array<number>(activityColumns).fill(0);
  const span = m.durationMs || 1;
  const column = (t: number) =>
    Math.min(activityColumns - 1, Math.floor((t / span) * activityColumns));
  let distinct: number[];
  if (m.moments) {
    // Folded with the run: one entry per instant, in time order, already counted.
    distinct = [];
    let ascending = true;
    for (const [i, t] of m.moments.at.entries()) {
      if (!(t >= 0 && t <= m.durationMs)) continue;
      activity[column(t)] += m.moments.count[i];
      if (distinct.length > 0 && distinct[distinct.length - 1] >= t) ascending = false;
      distinct.push(t);
    }
    if (!ascending) distinct = [...new Set(distinct)].sort((a, b) => a - b);
  } else {
    const sorted = eventTimes(m);
    distinct = [];
    for (const t of sorted) {
      activity[column(t)]++;
      if (distinct.length === 0 || distinct[distinct.length - 1] !== t) distinct.push(t);
    }
  }
  if (distinct.length <= maxMoments) return { moments: distinct, activity };
  // An even spread, the phases always among them (they are what a person steps to).
  const keep = new Set((m.phases ?? []).map((p) => p.at));
  const stride = distinct.length / maxMoments;
  for (let i = 0; i < maxMoments; i++) keep.add(distinct[Math.floor(i * stride)]);
  const moments = [...keep].sort((a, b) => a - b);
  return { moments, activity, momentsDropped: distinct.length - moments.length };
}

/** Each run's panel model, kept while its model lives: reopening a run posts it at once. */
const panelModels = new WeakMap<RunModel, PanelModel>();

export function panelModel(model: RunModel): PanelModel {
  const known = panelModels.get(model);
  if (known) return known;
  const made = makePanelModel(model);
  panelModels.set(model, made);
  return made;
}

function makePanelModel(model: RunModel): PanelModel {
  const rest: Partial<RunModel> = { ...model };
  delete rest.watchers;
  delete rest.watchRequests;
  delete rest.clients;
  return {
    ...(rest as Omit<RunModel, 'watchers' | 'watchRequests' | 'clients'>),
    watcherCount: model.watchers.length,
    clientCount: model.clients?.length ?? 0,
    failedWatchCount: (model.watchRequests ?? []).filter((q) => q.outcome === 'error').length,
    timeline: timelineSummary(model),
    ...replayOf(model),
  };
}

function replayOf(model: RunModel): { replay?: ReplayPanel } {
  const replay = replayPanel(model);
  return replay ? { replay } : {};
}

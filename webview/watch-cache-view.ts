// The Watch cache tab: the history ring's capacity over time with each grow and shrink marked and
// explained (watch_cache.go resizeCacheLocked), the oldest event's age against eventFreshDuration,
// the cache's resourceVersion against etcd's, and the history window (the oldest RV a watch can
// start from) with its jumps, each at the scrubber's time; or, when the scenario never starts a
// watch cache, that it does not. A live server has a watch cache per resource: a picker chooses
// which one is drawn (pods first), and every chart, marker and line is that resource's. Charts are
// ours (chart.ts).
import type {
  CapacityPoint,
  HistoryWindowPoint,
  PanelModel,
  ResourceVersionPoint,
} from '../src/protocol';
import { formatVirtualTime, lastIndexAtOrBefore } from '../src/run/views/watcher-states';
import { watchCacheAbsentText } from '../src/run/views/watch-cache-absent';
import { secondsText } from '../src/run/views/chart-value-axis';
import { Chart } from './chart';
import { formatCount } from '../src/format/count-text';
import { h, replaceChildren } from './dom';
import { dropdown, type DropdownHandle } from './toolkit';

/** One watch cache's series, as drawn: the model's followed one, or one of its others. */
interface ShownCache {
  resource?: string;
  started: boolean;
  startedAt?: number;
  readyAt?: number;
  capacity: CapacityPoint[];
  resourceVersions: ResourceVersionPoint[];
  historyWindow: HistoryWindowPoint[];
}

/** The watch cache of `resource` in the run (the followed one when absent or unknown). */
function shownCache(model: PanelModel, resource: string | undefined): ShownCache {
  const other = model.otherWatchCaches?.find((c) => c.resource === resource);
  if (other) return other;
  const cache = model.watchCache;
  return {
    resource: cache?.resource,
    started: cache?.started ?? (model.capacity.length > 0 || !!model.cacherLists?.length),
    startedAt: cache?.startedAt,
    readyAt: cache?.readyAt,
    capacity: model.capacity,
    resourceVersions: model.resourceVersions,
    historyWindow: model.historyWindow ?? [],
  };
}

export class WatchCacheView {
  readonly element: HTMLElement;
  private readonly capacityChart = new Chart('Capacity of the watch cache history');
  private readonly ageChart = new Chart(
    'Oldest event age against the fresh window (eventFreshDuration)',
  );
  private readonly rvChart = new Chart('Cache resourceVersion against etcd');
  private readonly windowChart = new Chart(
    'History window: the oldest resourceVersion a watch can start from',
  );
  private readonly resourceLine: HTMLElement;
  private readonly now: HTMLElement;
  private readonly changes: HTMLElement;
  private readonly notStarted: HTMLElement;
  private readonly started: HTMLElement;
  private readonly picker: DropdownHandle;
  private readonly pickerRow: HTMLElement;
  /** The resources the picker offers, joined: its choices are replaced only when they change. */
  private pickerKey = '';
  /** The resource picked (undefined: the followed one, pods in a live run). */
  private picked: string | undefined;
  private model: PanelModel | undefined;
  private shown: ShownCache | undefined;
  private at = 0;
  private rows: HTMLElement[] = [];

  constructor() {
    this.now = h('div', { class: 'now-line', attrs: { 'aria-live': 'polite' } });
    this.resourceLine = h('p', { class: 'muted' });
    this.picker = dropdown({
      label: 'Which watch cache to draw',
      choices: [],
      onChange: (v) => {
        this.picked = v;
        if (this.model) this.setRun(this.model, this.at);
      },
    });
    this.pickerRow = h(
      'div',
      { class: 'toolbar' },
      h('span', { text: 'Watch cache of' }),
      this.picker.element,
    );
    this.changes = h('table', { class: 'plain', attrs: { 'aria-label': 'Capacity changes' } });
    this.notStarted = h('p', { class: 'empty-tab', attrs: { role: 'status' } });
    this.started = h(
      'div',
      {},
      this.pickerRow,
      this.resourceLine,
      this.now,
      h(
        'div',
        { class: 'chart-grid' },
        this.capacityChart.element,
        this.ageChart.element,
        this.rvChart.element,
        this.windowChart.element,
      ),
      h('h3', { text: 'Capacity changes' }),
      this.changes,
    );
    this.element = h(
      'div',
      { class: 'scroll-view watch-cache-view' },
      this.notStarted,
      this.started,
    );
  }

  setRun(model: PanelModel, at: number): void {
    this.model = model;
    this.at = at;
    this.setPicker(model);
    const shown = shownCache(model, this.picked);
    this.shown = shown;
    const followed = model.watchCache?.resource;
    const started = shown.started;
    this.notStarted.hidden = started;
    this.started.hidden = !started;
    this.notStarted.textContent = started
      ? ''
      : watchCacheAbsentText(model.header.scenario, model.lists.length);
    if (!started) return;
    const d = model.durationMs;
    const cap = shown.capacity;
    const win = shown.historyWindow;
    const others = [followed, ...(model.watchCache?.otherResources ?? [])].filter(
      (r) => r !== undefined && r !== shown.resource,
    );
    this.resourceLine.hidden = shown.resource === undefined;
    this.resourceLine.textContent =
      shown.resource === undefined
        ? ''
        : `The watch cache of ${shown.resource}` +
          (others.length
            ? ` (the run also heard from the watch caches of ${others.join(', ')}: pick one above).`
            : '.');
    // A run with more resizes than the model keeps has none after the last one kept.
    const capacityEnd = model.truncated?.capacity ? cap[cap.length - 1]?.at : undefined;
    this.capacityChart.setSpec({
      label: `Capacity over ${formatVirtualTime(d)}: ${cap.filter((c) => c.change === 'grow').length} grows, ${cap.filter((c) => c.change === 'shrink').length} shrinks${capacityEnd !== undefined ? `; no resize recorded after ${formatVirtualTime(capacityEnd)}` : ''}`,
      durationMs: d,
      ...(capacityEnd !== undefined ? { dataEndMs: capacityEnd } : {}),
      formatValue: (v) => formatCount(v),
      integer: true,
      series: [
        {
          name: 'capacity',
          color: 'var(--vscode-charts-blue)',
          step: true,
          points: cap.map((c) => ({ at: c.at, value: c.capacity })),
        },
      ],
      markers: cap
        .filter((c) => c.change === 'grow' || c.change === 'shrink')
        .map((c) => ({
          at: c.at,
          value: c.capacity,
          shape: c.change === 'grow' ? 'up' : 'down',
          color: c.change === 'grow' ? 'var(--vscode-charts-green)' : 'var(--vscode-charts-orange)',
          label: `${formatVirtualTime(c.at)}: ${c.change} to ${c.capacity}: ${c.reason}`,
        })),
    });
    // The window's points give the oldest event's age at every event, and between two points the
    // window (so its oldest event) holds still and ages; an empty ring has no oldest event (0).
    // Runs recorded before the window was reported have the age only at each capacity decision.
    const ages = win.length
      ? agesOverTime(win, d)
      : cap.map((c) => ({ at: c.at, value: c.oldestAgeMs }));
    this.ageChart.setSpec({
      label: win.length
        ? 'Age of the oldest event in the cache over time (0 while it holds none), compared with eventFreshDuration'
        : 'Age of the oldest event in the cache compared with eventFreshDuration, at each capacity decision',
      durationMs: d,
      formatValue: (v) => secondsText(v),
      // Ages in ms: an axis of at least 1 s (every age 0 reads 0 s, 0.5 s, 1 s).
      minRange: 1000,
      series: [
        {
          name: 'oldest event age',
          color: 'var(--vscode-charts-purple)',
          points: ages,
          ...(win.length ? { valueAt: (t: number) => oldestAgeAt(win, t) } : {}),
        },
        {
          name: 'fresh window',
          color: 'var(--vscode-charts-yellow)',
          step: true,
          dashed: true,
          points: cap.map((c) => ({ at: c.at, value: c.eventFreshDurationMs })),
        },
      ],
    });
    this.rvChart.setSpec({
      label: "The watch cache's resourceVersion and etcd's current revision over time",
      durationMs: d,
      // Revisions start far from zero: an axis from 0 would flatten the gap between the lines.
      yMin: shown.resourceVersions.length
        ? Math.min(...shown.resourceVersions.map((p) => Math.min(p.cacheRv, p.etcdRv)))
        : 0,
      formatValue: (v) => formatCount(v),
      integer: true,
      series: [
        {
          name: 'etcd RV',
          color: 'var(--vscode-charts-orange)',
          step: true,
          points: shown.resourceVersions.map((p) => ({ at: p.at, value: p.etcdRv })),
        },
        {
          name: 'cache RV',
          color: 'var(--vscode-charts-blue)',
          step: true,
          points: shown.resourceVersions.map((p) => ({ at: p.at, value: p.cacheRv })),
        },
      ],
      markers: this.faultMarkers(model, shown),
    });
    this.setWindowSpec(model, shown);
    this.renderChanges(cap);
    this.setTime(at);
  }

  setTime(at: number): void {
    this.at = at;
    const cache = this.shown;
    if (!cache || this.started.hidden) return;
    for (const c of [this.capacityChart, this.ageChart, this.rvChart, this.windowChart])
      c.setCursor(at);
    const ci = lastIndexAtOrBefore(cache.capacity, at);
    const ri = lastIndexAtOrBefore(cache.resourceVersions, at);
    const parts: string[] = [];
    if (cache?.startedAt !== undefined && at < cache.startedAt)
      parts.push(`the watch cache starts at ${formatVirtualTime(cache.startedAt)}`);
    else if (cache?.readyAt !== undefined && at < cache.readyAt)
      parts.push(`the watch cache is filling (ready at ${formatVirtualTime(cache.readyAt)})`);
    if (ci >= 0) parts.push(`capacity ${formatCount(cache.capacity[ci].capacity)}`);
    if (ri >= 0) {
      const p = cache.resourceVersions[ri];
      const behind = p.etcdRv - p.cacheRv;
      const cacheKnown = p.cacheRv > 0 && (cache.startedAt === undefined || at >= cache.startedAt);
      parts.push(
        cacheKnown
          ? `cache RV ${p.cacheRv}, etcd RV ${p.etcdRv}${behind > 0 ? ` (${formatCount(behind)} behind)` : ' (caught up)'}`
          : `etcd RV ${p.etcdRv}, no cache RV yet`,
      );
    }
    const wi = lastIndexAtOrBefore(cache.historyWindow, at);
    if (wi >= 0) parts.push(windowText(cache.historyWindow[wi], at));
    this.now.textContent = `At ${formatVirtualTime(at)}: ${parts.join(' · ') || 'nothing recorded yet'}`;
    for (const [i, row] of this.rows.entries()) {
      row.classList.toggle('future', cache.capacity[i].at > at);
      row.classList.toggle('now', i === ci);
    }
  }

  /**
   * The faults injected into a live run that reached this cache (aimed at its resource, or at
   * none: every resource), on the RV chart at the cache RV they met.
   */
  private faultMarkers(model: PanelModel, shown: ShownCache) {
    const rvs = shown.resourceVersions;
    const reached = (model.faults ?? []).filter(
      (f) => f.resource === undefined || f.resource === shown.resource,
    );
    return reached.map((f) => {
      const i = lastIndexAtOrBefore(rvs, f.at);
      return {
        at: f.at,
        value: i >= 0 ? rvs[i].cacheRv : (rvs[0]?.cacheRv ?? 0),
        shape: 'dot' as const,
        color: 'var(--vscode-charts-red)',
        label: `${formatVirtualTime(f.at)}: fault ${f.name}: ${f.text}`,
      };
    });
  }

  /** The picker offers the followed cache and the others; hidden when the run has one. */
  private setPicker(model: PanelModel): void {
    const followed = model.watchCache?.resource;
    const resources = [
      ...(followed !== undefined ? [followed] : []),
      ...(model.otherWatchCaches ?? []).map((c) => c.resource),
    ];
    this.pickerRow.hidden = resources.length < 2;
    if (this.picked !== undefined && !resources.includes(this.picked)) this.picked = undefined;
    const key = resources.join('\n');
    if (key !== this.pickerKey) {
      this.pickerKey = key;
      this.picker.setChoices(resources.map((r) => ({ value: r, label: r })));
    }
    this.picker.setValue(this.picked ?? followed ?? '');
  }

  private setWindowSpec(model: PanelModel, shown: ShownCache): void {
    const win = shown.historyWindow;
    const jumps = win.filter((p) => p.change === 'expired' || p.change === 'listed');
    this.windowChart.element.hidden = win.length === 0;
    this.windowChart.setSpec({
      label: `The oldest resourceVersion a watch can start from (older: 410 too old resource version) against the cache's: ${jumps.length} ${jumps.length === 1 ? 'jump' : 'jumps'}`,
      durationMs: model.durationMs,
      yMin: win.length ? Math.min(...win.map((p) => p.oldestRv)) : 0,
      formatValue: (v) => formatCount(v),
      integer: true,
      series: [
        {
          name: 'oldest RV',
          color: 'var(--vscode-charts-purple)',
          step: true,
          points: win.map((p) => ({ at: p.at, value: p.oldestRv })),
        },
        {
          name: 'cache RV',
          color: 'var(--vscode-charts-blue)',
          step: true,
          points: shown.resourceVersions.map((p) => ({ at: p.at, value: p.cacheRv })),
        },
      ],
      markers: jumps.map((p) => ({
        at: p.at,
        value: p.oldestRv,
        shape: 'up',
        color: 'var(--vscode-charts-red)',
        label: `${formatVirtualTime(p.at)}: ${jumpText(p)}`,
      })),
    });
  }

  private renderChanges(cap: CapacityPoint[]): void {
    this.rows = cap.map((c) =>
      h(
        'tr',
        { class: `change-${c.change}` },
        h('td', { class: 'num', text: formatVirtualTime(c.at) }),
        h('td', { text: c.change }),
        h('td', { class: 'num', text: formatCount(c.capacity) }),
        h('td', { class: 'num', text: secondsText(c.oldestAgeMs) }),
        h('td', { text: c.reason }),
      ),
    );
    replaceChildren(
      this.changes,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...(
            [
              ['Time', true],
              ['Change', false],
              ['Capacity', true],
              ['Oldest event', true],
              ['Why', false],
            ] as const
          ).map(([t, num]) =>
            h('th', { text: t, class: num ? 'num' : '', attrs: { scope: 'col' } }),
          ),
        ),
      ),
      h('tbody', {}, ...this.rows),
    );
    if (cap.length === 0)
      this.changes.appendChild(
        h('caption', { text: 'The watch cache never changed its capacity in this run.' }),
      );
  }
}

/** What a jump of the history window did, in words. */
function jumpText(p: HistoryWindowPoint): string {
  const why =
    p.change === 'expired'
      ? 'the history was dropped (expire-history)'
      : 'the cache listed (Replace) and emptied its history';
  return `${why}: ${formatCount(p.dropped ?? 0)} events gone; a watch from before RV ${p.oldestRv} gets 410 too old resource version`;
}

/** The oldest event's age at `at` (0 while the ring holds none; undefined before the first point). */
function oldestAgeAt(win: HistoryWindowPoint[], at: number): number | undefined {
  const i = lastIndexAtOrBefore(win, at);
  if (i < 0) return undefined;
  const p = win[i];
  return p.oldestAgeMs === undefined ? 0 : p.oldestAgeMs + at - p.at;
}

/**
 * The history window at the scrubber's time, in words. It holds still until the next point, so its
 * oldest event has aged by the time since.
 */
function windowText(p: HistoryWindowPoint, at: number): string {
  const held = `history ${formatCount(p.size)} of ${formatCount(p.capacity)} events, watches from RV ${p.oldestRv} on`;
  const age =
    p.oldestAgeMs !== undefined ? ` (oldest ${secondsText(p.oldestAgeMs + at - p.at)} old)` : '';
  return held + age;
}

/** The oldest event's age over time: at each point, then grown by the time to the next (or the end). */
function agesOverTime(
  win: HistoryWindowPoint[],
  end: number,
): Array<{ at: number; value: number }> {
  const out: Array<{ at: number; value: number }> = [];
  for (const [i, p] of win.entries()) {
    const until = i + 1 < win.length ? win[i + 1].at : Math.max(end, p.at);
    const age = p.oldestAgeMs;
    out.push({ at: p.at, value: age ?? 0 });
    if (until > p.at) out.push({ at: until, value: age === undefined ? 0 : age + until - p.at });
  }
  return out;
}

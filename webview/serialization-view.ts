// The Serialization tab: how often each watch event's object was encoded and how often a cached
// encoding was reused, per serializer identifier (caching_object.go CacheEncode: one encode per
// identifier, hits after that), lazy deep copies and cache invalidations, up to the scrubber and
// for the whole run. Bookmarks are not counted: each watcher's bookmark is an object of its own
// (cacher.go dispatchEvent wraps only non-bookmark events in a cachingObject).
import type {
  PanelModel,
  SerializationEventRecord,
  SerializationIdentifierTotals,
} from '../src/protocol';
import { formatVirtualTime, lastIndexAtOrBefore } from '../src/run/views/watcher-states';
import { identifierLabel } from '../src/run/views/serializer-identifier-text';
import { Chart } from './chart';
import { formatBytes } from '../src/format/byte-size-text';
import { formatCount, plural } from '../src/format/count-text';
import { h, replaceChildren } from './dom';
import { VirtualTable, type TableColumn } from './virtual-table';

function emptyTotals(): SerializationIdentifierTotals {
  return { encodes: 0, hits: 0, bytes: 0 };
}

function hitRatio(t: { encodes: number; hits: number }): string {
  const all = t.encodes + t.hits;
  return all === 0 ? '—' : `${((t.hits / all) * 100).toFixed(1)}%`;
}

export class SerializationView {
  readonly element: HTMLElement;
  private readonly cards: HTMLElement;
  private readonly identifiers: HTMLElement;
  private readonly identifiersTitle = h('h3', { text: 'Per serializer identifier' });
  private readonly chart = new Chart('Encodes and cache hits, cumulative');
  private readonly tableSlot: HTMLElement;
  private table: VirtualTable<SerializationEventRecord> | undefined;
  private model: PanelModel | undefined;
  private identifierNames: string[] = [];
  /** Cumulative per-identifier totals after each per-event record (prefix sums for the scrubber). */
  private cumulative: Array<Record<string, SerializationIdentifierTotals>> = [];
  private at = 0;

  private readonly empty = h('p', { class: 'empty-tab', attrs: { role: 'status' } });
  private readonly counts = h('p', {
    class: 'hint',
    text: "What this counts: encodings of each dispatched watch event's object per serializer (content type and group-version). The first watcher with a serializer encodes it; every further one with the same serializer reuses it (a hit). Bookmarks are not counted: each watcher's bookmark is its own object, never shared.",
  });
  private readonly body: HTMLElement;

  constructor() {
    this.cards = h('div', { class: 'cards' });
    this.identifiers = h('table', { class: 'plain', attrs: { 'aria-label': 'Per identifier' } });
    this.tableSlot = h('div', { class: 'table-slot' });
    this.body = h(
      'div',
      {},
      this.cards,
      h(
        'div',
        { class: 'two-columns' },
        h('div', {}, this.identifiersTitle, this.identifiers),
        this.chart.element,
      ),
      h('h3', { text: 'Per watch event' }),
      this.tableSlot,
    );
    this.element = h(
      'div',
      { class: 'scroll-view serialization-view' },
      this.counts,
      this.empty,
      this.body,
    );
  }

  setRun(model: PanelModel, at: number): void {
    this.model = model;
    const ser = model.serialization;
    const any = ser.encodes + ser.hits + ser.perEvent.length > 0;
    this.empty.hidden = any;
    this.body.hidden = !any;
    if (!any) {
      const events = model.dispatch?.events ?? 0;
      const deliveries = model.dispatch?.deliveries ?? 0;
      const bookmarks = (model.bookmarkTicks ?? []).reduce((a, t) => a + t.queued, 0);
      this.empty.textContent =
        deliveries === 0
          ? `Nothing was serialized: no watcher received a watch event in this run${events ? ` (the cacher dispatched ${plural(events, 'event')}, with no watcher to take them)` : ''}${bookmarks ? `; the watchers got bookmarks only (${plural(bookmarks, 'bookmark')}, each its own object)` : ''}. serialization-fanout is the scenario that shows the sharing.`
          : `Nothing was serialized: watchers received ${plural(deliveries, 'watch event')}, but none named a content type, and the model encodes only for clients that do.`;
      this.model = model;
      return;
    }
    const names = new Set(Object.keys(ser.perIdentifier));
    for (const e of ser.perEvent) for (const k of Object.keys(e.perIdentifier)) names.add(k);
    this.identifierNames = [...names].sort();
    const running: Record<string, SerializationIdentifierTotals> = {};
    this.cumulative = ser.perEvent.map((e) => {
      for (const [k, t] of Object.entries(e.perIdentifier)) {
        const r = running[k] ?? (running[k] = emptyTotals());
        r.encodes += t.encodes;
        r.hits += t.hits;
        r.bytes += t.bytes;
      }
      return Object.fromEntries(Object.entries(running).map(([k, t]) => [k, { ...t }]));
    });
    const cumulativeSeries = (pick: (t: SerializationIdentifierTotals) => number) =>
      this.cumulative.map((c, i) => ({
        at: ser.perEvent[i].at,
        value: Object.values(c).reduce((sum, t) => sum + pick(t), 0),
      }));
    this.chart.setSpec({
      label: `Cumulative encodes (${formatCount(ser.encodes)}) and hits (${formatCount(ser.hits)}) over the run`,
      durationMs: model.durationMs,
      formatValue: (v) => formatCount(v),
      integer: true,
      series: [
        {
          name: 'encodes',
          color: 'var(--vscode-charts-orange)',
          step: true,
          points: cumulativeSeries((t) => t.encodes),
        },
        {
          name: 'hits',
          color: 'var(--vscode-charts-green)',
          step: true,
          points: cumulativeSeries((t) => t.hits),
        },
      ],
    });
    const columns: Array<TableColumn<SerializationEventRecord>> = [
      {
        id: 'at',
        title: 'Time',
        width: '7em',
        align: 'end',
        render: (e, c) => {
          c.textContent = formatVirtualTime(e.at);
        },
        sortKey: (e) => e.at,
      },
      {
        id: 'rv',
        title: 'RV',
        width: '6em',
        align: 'end',
        render: (e, c) => {
          c.textContent = String(e.rv);
        },
        sortKey: (e) => e.rv,
      },
      {
        id: 'type',
        title: 'Event',
        width: '7em',
        render: (e, c) => {
          c.textContent = e.eventType;
        },
        sortKey: (e) => e.eventType,
      },
      ...this.identifierNames.map((name): TableColumn<SerializationEventRecord> => ({
        id: `id:${name}`,
        title: identifierLabel(name),
        width: 'minmax(9em, 1fr)',
        description: `${name}: encodes / hits for this event`,
        render: (e, c) => {
          const t = e.perIdentifier[name];
          c.textContent = t
            ? `${t.encodes} enc · ${t.hits} hits${t.bytes ? ` · ${formatBytes(t.bytes)}` : ''}`
            : '—';
        },
        sortKey: (e) => e.perIdentifier[name]?.encodes ?? -1,
      })),
    ];
    this.table = new VirtualTable<SerializationEventRecord>({
      label: 'Serialization per event',
      columns,
      rowKey: (e) => `${e.at}:${e.rv}:${e.eventType}`,
      rowClass: (e) => (e.at > this.at ? 'future' : ''),
      onSelect: () => undefined,
      emptyText: 'No watch event was serialized.',
    });
    replaceChildren(this.tableSlot, this.table.element);
    this.table.setRows(ser.perEvent);
    this.setTime(at);
  }

  /** A live run's end moved with nothing new: the chart's axis spans to it. */
  setDurationMs(durationMs: number): void {
    if (this.model) this.model = { ...this.model, durationMs };
    this.chart.setDurationMs(durationMs);
  }

  setTime(at: number): void {
    const model = this.model;
    if (!model || this.body.hidden) return;
    this.at = at;
    const ser = model.serialization;
    const i = lastIndexAtOrBefore(ser.perEvent, at);
    const now = i >= 0 ? this.cumulative[i] : {};
    const copies = ser.copies;
    const ci = copies ? lastIndexAtOrBefore(copies, at) : -1;
    const copiesAt = copies
      ? ci >= 0
        ? copies[ci]
        : { lazyDeepCopies: 0, invalidations: 0 }
      : { lazyDeepCopies: ser.lazyDeepCopies, invalidations: ser.invalidations };
    const sum = (pick: (t: SerializationIdentifierTotals) => number) =>
      Object.values(now).reduce((a, t) => a + pick(t), 0);
    const card = (title: string, value: string, detail: string) =>
      h(
        'div',
        { class: 'card' },
        h('div', { class: 'card-title', text: title }),
        h('div', { class: 'card-value', text: value }),
        h('div', { class: 'card-detail', text: detail }),
      );
    replaceChildren(
      this.cards,
      card(
        'Encodes',
        formatCount(sum((t) => t.encodes)),
        `of ${formatCount(ser.encodes)} in the run`,
      ),
      card('Cache hits', formatCount(sum((t) => t.hits)), `of ${formatCount(ser.hits)} in the run`),
      card(
        'Hit ratio',
        hitRatio({ encodes: sum((t) => t.encodes), hits: sum((t) => t.hits) }),
        `run: ${hitRatio(ser)}`,
      ),
      card(
        'Lazy deep copies',
        formatCount(copiesAt.lazyDeepCopies),
        `of ${formatCount(ser.lazyDeepCopies)} in the run`,
      ),
      card(
        'Invalidations',
        formatCount(copiesAt.invalidations),
        `of ${formatCount(ser.invalidations)} in the run`,
      ),
    );
    this.identifiersTitle.textContent = `Per serializer identifier, up to ${formatVirtualTime(at)}`;
    replaceChildren(
      this.identifiers,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { text: 'Identifier', attrs: { scope: 'col' } }),
          ...['Encodes', 'Hits', 'Hit ratio', 'Run encodes', 'Run hits', 'Run bytes'].map((t) =>
            h('th', { class: 'num', text: t, attrs: { scope: 'col' } }),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        ...this.identifierNames.map((name) => {
          const t = now[name] ?? emptyTotals();
          const run = ser.perIdentifier[name] ?? emptyTotals();
          return h(
            'tr',
            {},
            h('td', { text: identifierLabel(name), attrs: { title: name } }),
            h('td', { class: 'num', text: formatCount(t.encodes) }),
            h('td', { class: 'num', text: formatCount(t.hits) }),
            h('td', { class: 'num', text: hitRatio(t) }),
            h('td', { class: 'num', text: formatCount(run.encodes) }),
            h('td', { class: 'num', text: formatCount(run.hits) }),
            h('td', { class: 'num', text: formatBytes(run.bytes) }),
          );
        }),
      ),
    );
    this.chart.setCursor(at);
    this.table?.refresh();
  }
}

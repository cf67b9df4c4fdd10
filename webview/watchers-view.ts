// The Watchers tab: every cache watcher of the run in a virtualised table (state at the scrubber's
// time, bookmark floor, last RV sent, buffer fill, next bookmark second, how it ended), filtered and
// searched; the selected one's state machine and event log beside it. No upstream counterpart.
import type { RunModel, WatcherLogEntry, WatcherTrack } from '../src/protocol';
import {
  formatVirtualTime,
  lastIndexAtOrBefore,
  watcherPhaseAt,
  watcherPhaseLabels,
  watcherStateNames,
  type WatcherPhase,
} from '../src/inspector/watcher-states';
import { formatCount, h, replaceChildren, visibleText } from './dom';
import { stateMachineDiagram } from './state-machine-diagram';
import { dropdown, textField, type DropdownHandle, type TextFieldHandle } from './toolkit';
import { VirtualTable } from './virtual-table';

export interface WatchersViewOptions {
  onSelect(id: string): void;
  /** The run's logs are not in the model (see panelModel): ask the host for one watcher's log. */
  requestLog(id: string): void;
  onFilterChange(search: string, state: string): void;
}

const phaseOrder: Record<WatcherPhase, number> = {
  notStarted: 0,
  WaitingForBookmark: 1,
  BookmarkReceived: 2,
  BookmarkSent: 3,
  closed: 4,
};

/** A dot in the state's colour, then its name. */
export function phaseBadge(phase: WatcherPhase): HTMLElement {
  return h(
    'span',
    { class: `phase phase-${phase}` },
    h('span', { class: 'phase-dot', attrs: { 'aria-hidden': 'true' } }),
    watcherPhaseLabels[phase],
  );
}

function matches(track: WatcherTrack, needle: string): boolean {
  if (!needle) return true;
  return (
    track.id.toLowerCase().includes(needle) ||
    track.selector.toLowerCase().includes(needle) ||
    track.contentType.toLowerCase().includes(needle) ||
    track.closeReason.toLowerCase().includes(needle)
  );
}

export class WatchersView {
  readonly element: HTMLElement;
  private readonly options: WatchersViewOptions;
  private readonly table: VirtualTable<WatcherTrack>;
  private readonly search: TextFieldHandle;
  private readonly stateFilter: DropdownHandle;
  private readonly count: HTMLElement;
  private readonly detail: HTMLElement;
  private model: RunModel | undefined;
  private at = 0;
  private selected: WatcherTrack | undefined;
  private needle = '';
  private phase = '';
  /** The state filter depends on time: remember which phases were filtered to refilter only on change. */
  private lastFilterKey = '';
  /** Logs received from the host, by watcher id (for the current run). */
  private readonly logs = new Map<string, { log: WatcherLogEntry[]; logDropped: number }>();
  private readonly logsAsked = new Set<string>();

  constructor(options: WatchersViewOptions) {
    this.options = options;
    this.search = textField({
      label: 'Search watchers by id, selector, content type or close reason',
      placeholder: 'Search id, selector, content type…',
      onInput: (v) => {
        this.needle = v.trim().toLowerCase();
        this.applyFilter();
        this.options.onFilterChange(v, this.phase);
      },
    });
    this.stateFilter = dropdown({
      label: 'Show watchers in state',
      choices: [
        { value: '', label: 'Every state' },
        ...(['notStarted', ...watcherStateNames, 'closed'] as WatcherPhase[]).map((p) => ({
          value: p,
          label: watcherPhaseLabels[p],
        })),
      ],
      value: '',
      onChange: (v) => {
        this.phase = v;
        this.applyFilter();
        this.options.onFilterChange(this.search.value(), v);
      },
    });
    this.count = h('span', { class: 'count', attrs: { 'aria-live': 'polite' } });
    this.table = new VirtualTable<WatcherTrack>({
      label: 'Watchers',
      rowKey: (w) => w.id,
      rowClass: (w) => (watcherPhaseAt(w, this.at, this.end()) === 'notStarted' ? 'future' : ''),
      onSelect: (w) => {
        this.showDetail(w);
        this.options.onSelect(w.id);
      },
      emptyText: 'No watcher matches.',
      columns: [
        {
          id: 'id',
          title: 'ID',
          width: '4em',
          render: (w, c) => {
            c.textContent = w.id;
          },
          sortKey: (w) => numericKey(w.id),
        },
        {
          id: 'selector',
          title: 'Selector',
          width: 'minmax(6em, 1.6fr)',
          render: (w, c) => {
            c.textContent = visibleText(w.selector) || '(everything)';
            c.title = w.selector;
          },
          sortKey: (w) => w.selector,
        },
        {
          id: 'contentType',
          title: 'Content type',
          width: '6em',
          render: (w, c) => {
            c.textContent = shortContentType(w.contentType);
            c.title = w.contentType;
          },
          sortKey: (w) => w.contentType,
        },
        {
          id: 'state',
          title: 'State',
          width: '11em',
          description: "The watcher's state at the scrubber's time",
          render: (w, c) => {
            c.appendChild(phaseBadge(watcherPhaseAt(w, this.at, this.end())));
          },
          sortKey: (w) => phaseOrder[watcherPhaseAt(w, this.at, this.end())],
        },
        {
          id: 'floor',
          title: 'Floor RV',
          width: '6em',
          align: 'end',
          description: 'bookmarkAfterResourceVersion: bookmarks below it are not delivered',
          render: (w, c) => {
            c.textContent = w.bookmarkFloorRv ? String(w.bookmarkFloorRv) : '—';
          },
          sortKey: (w) => w.bookmarkFloorRv,
        },
        {
          id: 'lastRv',
          title: 'Last RV',
          width: '6em',
          align: 'end',
          description: 'Last resourceVersion sent to the client, at the end of the run',
          render: (w, c) => {
            c.textContent = w.lastRvSent ? String(w.lastRvSent) : '—';
          },
          sortKey: (w) => w.lastRvSent,
        },
        {
          id: 'buffer',
          title: 'Buffer',
          width: '8em',
          description: 'Input buffer fill / capacity at the end of the run',
          render: (w, c) => {
            c.appendChild(bufferGauge(w));
          },
          sortKey: (w) => (w.bufferCapacity ? w.bufferFill / w.bufferCapacity : 0),
        },
        {
          id: 'nextBookmark',
          title: 'Bookmark',
          width: '7em',
          align: 'end',
          description:
            'The virtual second of the next bookmark: the bookmark time bucket the watcher sits in',
          render: (w, c) => {
            c.textContent = w.nextBookmarkSecond === undefined ? '—' : `${w.nextBookmarkSecond} s`;
          },
          sortKey: (w) => w.nextBookmarkSecond ?? Number.MAX_SAFE_INTEGER,
        },
        {
          id: 'closed',
          title: 'Closed / why',
          width: 'minmax(6em, 1.2fr)',
          render: (w, c) => {
            c.textContent = closedText(w, this.at);
            c.title = w.closeReason;
          },
          sortKey: (w) => w.closeReason,
        },
      ],
    });
    this.detail = h(
      'div',
      { class: 'detail', attrs: { role: 'region', 'aria-label': 'Selected watcher' } },
      h('p', {
        class: 'hint',
        text: 'Select a watcher (click, or arrow keys and Enter) to see its state machine and event log.',
      }),
    );
    this.element = h(
      'div',
      { class: 'watchers-view' },
      h('div', { class: 'toolbar' }, this.search.element, this.stateFilter.element, this.count),
      h(
        'div',
        { class: 'split' },
        h('div', { class: 'split-main' }, this.table.element),
        this.detail,
      ),
    );
  }

  private end(): number {
    return this.model?.durationMs ?? 0;
  }

  setRun(
    model: RunModel,
    at: number,
    search: string,
    phase: string,
    selectedId: string | undefined,
  ): void {
    this.model = model;
    this.logs.clear();
    this.logsAsked.clear();
    this.at = at;
    this.needle = search.trim().toLowerCase();
    this.phase = phase;
    this.search.setValue(search);
    this.stateFilter.setValue(phase);
    this.lastFilterKey = '';
    this.applyFilter();
    const selected =
      selectedId === undefined ? undefined : model.watchers.find((w) => w.id === selectedId);
    if (selected) this.select(selected.id);
    else this.showDetail(undefined);
  }

  setTime(at: number): void {
    this.at = at;
    if (this.phase) this.applyFilter();
    else this.table.refresh();
    if (this.selected) this.renderDetail(this.selected);
  }

  select(id: string): void {
    const track = this.model?.watchers.find((w) => w.id === id);
    if (!track) return;
    this.table.select(id);
    this.showDetail(track);
  }

  /** A watcher's log arrived from the host. */
  setLog(id: string, log: WatcherLogEntry[], logDropped: number): void {
    this.logs.set(id, { log, logDropped });
    if (this.selected?.id === id) this.renderDetail(this.selected);
  }

  /** For tests and the status line: how many rows the table holds and how many are in the DOM. */
  stats(): { rows: number; rendered: number } {
    return { rows: this.table.displayed().length, rendered: this.table.renderedRowCount() };
  }

  focusTable(): void {
    this.table.element.focus();
  }

  private applyFilter(): void {
    const model = this.model;
    if (!model) return;
    const rows = model.watchers.filter(
      (w) =>
        matches(w, this.needle) &&
        (!this.phase || watcherPhaseAt(w, this.at, this.end()) === this.phase),
    );
    // While playing, the phase filter is re-evaluated every frame; skip the table update when the
    // same rows remain.
    const key = `${rows.length}:${rows[0]?.id}:${rows[rows.length - 1]?.id}:${this.needle}:${this.phase}`;
    if (key !== this.lastFilterKey || !this.phase) this.table.setRows(rows);
    else this.table.refresh();
    this.lastFilterKey = key;
    this.count.textContent = `${formatCount(rows.length)} of ${formatCount(model.watchers.length)} watchers`;
  }

  private showDetail(track: WatcherTrack | undefined): void {
    this.selected = track;
    if (!track) {
      replaceChildren(
        this.detail,
        h('p', {
          class: 'hint',
          text: 'Select a watcher (click, or arrow keys and Enter) to see its state machine and event log.',
        }),
      );
      return;
    }
    this.renderDetail(track);
  }

  private renderDetail(track: WatcherTrack): void {
    const phase = watcherPhaseAt(track, this.at, this.end());
    const dropped =
      Object.entries(track.bookmarksDropped)
        .filter(([, n]) => n > 0)
        .map(([why, n]) => `${n} ${why}`)
        .join(', ') || 'none';
    const facts: Array<[string, string]> = [
      ['Selector', track.selector || '(everything)'],
      ['Content type', track.contentType || '— (not recorded)'],
      [
        'Bookmark floor RV',
        track.bookmarkFloorRv ? String(track.bookmarkFloorRv) : '— (none awaited)',
      ],
      ['Last RV sent', track.lastRvSent ? String(track.lastRvSent) : '—'],
      ['Buffer at the end', `${track.bufferFill} of ${track.bufferCapacity}`],
      [
        'Next bookmark',
        track.nextBookmarkSecond === undefined ? '—' : `second ${track.nextBookmarkSecond}`,
      ],
      ['Events received', formatCount(track.eventsReceived)],
      ['Bookmarks received', formatCount(track.bookmarksReceived)],
      ['Bookmarks dropped', dropped],
      [
        'Ended',
        track.closeReason
          ? `${track.closedAt !== undefined ? formatVirtualTime(track.closedAt) : 'yes'}: ${track.closeReason}${track.terminated && !/terminated/.test(track.closeReason) ? ' (terminated)' : ''}`
          : 'open',
      ],
    ];
    // The log is in the model when it came whole, else it is asked for once.
    const known =
      track.log.length > 0
        ? { log: track.log, logDropped: track.logDropped }
        : this.logs.get(track.id);
    if (!known && track.logDropped > 0 && !this.logsAsked.has(track.id)) {
      this.logsAsked.add(track.id);
      this.options.requestLog(track.id);
    }
    const entries = known?.log ?? [];
    const logDropped = known ? known.logDropped : 0;
    const logIndex = lastIndexAtOrBefore(entries, this.at);
    const log = h(
      'ol',
      { class: 'event-log', attrs: { 'aria-label': `Event log of watcher ${track.id}` } },
      ...entries.map((entry, i) =>
        h(
          'li',
          {
            class: `log-${entry.kind.replace(/[^a-z-]/gi, '')}${i > logIndex ? ' future' : ''}${i === logIndex ? ' now' : ''}`,
          },
          h('span', { class: 'log-time', text: formatVirtualTime(entry.at) }),
          h('span', { class: 'log-kind', text: entry.kind }),
          h('span', { class: 'log-text', text: visibleText(entry.text) }),
        ),
      ),
    );
    if (entries.length === 0)
      log.appendChild(
        h('li', {
          class: 'hint',
          text:
            known || track.logDropped === 0
              ? 'No events recorded for this watcher.'
              : 'Loading the event log…',
        }),
      );
    replaceChildren(
      this.detail,
      h('h2', {}, `Watcher ${track.id} `, phaseBadge(phase)),
      h(
        'dl',
        { class: 'facts' },
        ...facts.flatMap(([k, v]) => [
          h('dt', { text: k }),
          h('dd', { text: visibleText(v), attrs: { title: v } }),
        ]),
      ),
      h('h3', { text: 'State machine' }),
      stateMachineDiagram(track, this.at, this.end()),
      h('h3', {
        text: `Event log${logDropped ? ` (${formatCount(logDropped)} entries in the middle not kept)` : ''}`,
      }),
      log,
    );
    // Keep the entry at the scrubber in view, scrolling the log only (not the pane around it).
    const now = log.querySelector<HTMLElement>('.now');
    if (now) log.scrollTop = Math.max(0, now.offsetTop - log.clientHeight / 2);
  }
}

function numericKey(id: string): number | string {
  return /^\d+$/.test(id) ? Number(id) : id;
}

/** The serializer's short name (json, protobuf, cbor…) for the table; the full type is the cell's tooltip. */
function shortContentType(contentType: string): string {
  if (!contentType) return '—';
  const m = /^application\/(?:vnd\.kubernetes\.)?([a-z0-9.+-]+)/i.exec(contentType);
  return m ? m[1] : contentType;
}

function closedText(w: WatcherTrack, at: number): string {
  if (!w.closeReason && !w.terminated) return '';
  if (w.closedAt !== undefined && w.closedAt > at)
    return `later (${formatVirtualTime(w.closedAt)})`;
  return `${w.terminated ? 'terminated: ' : ''}${w.closeReason || 'closed'}`;
}

function bufferGauge(w: WatcherTrack): HTMLElement {
  const fraction = w.bufferCapacity > 0 ? Math.min(1, w.bufferFill / w.bufferCapacity) : 0;
  const bar = h('span', { class: `gauge-fill${fraction >= 1 ? ' full' : ''}` });
  bar.style.width = `${(fraction * 100).toFixed(0)}%`;
  return h(
    'span',
    { class: 'gauge', attrs: { title: `${w.bufferFill} of ${w.bufferCapacity}` } },
    h('span', { class: 'gauge-bar', attrs: { 'aria-hidden': 'true' } }, bar),
    `${w.bufferFill}/${w.bufferCapacity}`,
  );
}

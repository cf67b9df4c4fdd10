// The Watchers tab: every cache watcher of the run, and every WATCH request the server refused
// (410, 429, 504…), in a virtualised table whose rows the host sends a page at a time, each figure
// as it stood at the scrubber's time (state, bookmark floor, last RV read, what the client read,
// buffer fill, next bookmark second, how it ended); the selected one's state machine, figures and
// event log beside it. No upstream counterpart.
import type {
  PanelModel,
  WatchRequestRecord,
  WatcherLogEntry,
  WatcherQuery,
  WatcherRow,
  WatcherRowPhase,
  WatcherSortColumn,
  WatcherTrack,
  WatchersAtTime,
} from '../src/protocol';
import { shortClientName } from '../src/run/views/client-name';
import { nextBookmarkCellText, nextBookmarkFactText } from '../src/run/views/bookmark-bucket-text';
import { statusText } from '../src/run/views/status-text';
import { watcherFiguresAt, watcherOpenedAt } from '../src/run/views/watcher-at-time';
import {
  formatVirtualTime,
  lastIndexAtOrBefore,
  watcherPhaseLabels,
  watcherPhaseText,
  watcherStateNames,
  type WatcherPhase,
} from '../src/run/views/watcher-states';
import { formatCount, plural } from '../src/format/count-text';
import { appendBreakable, h, replaceChildren, visibleText } from './dom';
import { stateMachineDiagram } from './state-machine-diagram';
import { dropdown, textField, type DropdownHandle, type TextFieldHandle } from './toolkit';
import { VirtualTable } from './virtual-table';

export interface WatchersViewOptions {
  onSelect(id: string): void;
  onFilterChange(search: string, state: string): void;
  /** Asks the host for rows; the answer comes to setRows. Returns the request's id. */
  query(at: number, query: WatcherQuery, from: number, count: number, reveal?: string): number;
  /** Asks the host for one row in full; the answer comes to setDetail. */
  requestDetail(id: string): void;
}

const rowPhaseLabels: Record<WatcherRowPhase, string> = {
  ...watcherPhaseLabels,
  failed: 'Failed',
};

/** Upstream's name of a phase that is one of cache_watcher.go's three states. */
function upstreamName(phase: WatcherRowPhase): string | undefined {
  return (watcherStateNames as readonly string[]).includes(phase) ? phase : undefined;
}

/**
 * A dot in the state's colour, then its name as the user reads it (`text`, e.g. "Streaming (no
 * bookmarks asked)") with upstream's name beside it (BookmarkSent).
 */
export function phaseBadge(phase: WatcherRowPhase, text = rowPhaseLabels[phase]): HTMLElement {
  const upstream = upstreamName(phase);
  return h(
    'span',
    {
      class: `phase phase-${phase}`,
      attrs: { title: upstream ? `${text}: upstream's cacheWatcher state ${upstream}` : text },
    },
    h('span', { class: 'phase-dot', attrs: { 'aria-hidden': 'true' } }),
    h('span', { class: 'phase-text', text }),
    ...(upstream ? [h('span', { class: 'phase-upstream', text: upstream })] : []),
  );
}

/** Rows fetched beyond the visible ones, so scrolling a little needs no new query. */
const fetchMargin = 40;

interface Answer {
  requestId: number;
  at: number;
  total: number;
  matching: number;
  from: number;
  rows: WatcherRow[];
  revealIndex?: number;
  watchersAt: WatchersAtTime;
}

export class WatchersView {
  readonly element: HTMLElement;
  private readonly options: WatchersViewOptions;
  private readonly table: VirtualTable<WatcherRow>;
  private readonly search: TextFieldHandle;
  private readonly stateFilter: DropdownHandle;
  private readonly count: HTMLElement;
  /** Which columns the table folded for its width (into the detail pane). */
  private readonly folded = h('span', { class: 'folded-columns', attrs: { hidden: true } });
  private readonly detail: HTMLElement;
  private model: PanelModel | undefined;
  private runId = '';
  private at = 0;
  private needle = '';
  private phase = '';
  private sort: WatcherQuery['sort'];
  /** Rows by index for the current query and time (kept while newer ones are on their way). */
  private rows = new Map<number, WatcherRow>();
  private matching = 0;
  private total = 0;
  /** The query in flight (one at a time) and whether another is wanted after it. */
  private inFlight: { requestId: number; key: string } | undefined;
  private wanted: { from: number; to: number; reveal?: string } | undefined;
  /** The query and time the rows in `rows` answer. */
  private rowsKey = '';
  private selectedId: string | undefined;
  /** The run's watchers at the rows' time (the host's answer, from the rows' own source). */
  private watchersAt: (WatchersAtTime & { at: number }) | undefined;
  private detailSource: { track?: WatcherTrack; request?: WatchRequestRecord } | undefined;
  /** For tests: answers received, and the largest page. */
  private answers = 0;
  private largestPage = 0;

  constructor(options: WatchersViewOptions) {
    this.options = options;
    this.search = textField({
      label: 'Search watchers by id, client, selector, content type or outcome',
      placeholder: 'Search id, client, selector…',
      onInput: (v) => {
        this.needle = v;
        this.requery();
        this.options.onFilterChange(v, this.phase);
      },
    });
    this.stateFilter = dropdown({
      label: 'Show watchers in state',
      choices: [
        { value: '', label: 'Every state' },
        ...(['notStarted', ...watcherStateNames, 'closed', 'failed'] as WatcherRowPhase[]).map(
          (p) => ({
            value: p,
            label: upstreamName(p) ? `${rowPhaseLabels[p]} (${p})` : rowPhaseLabels[p],
          }),
        ),
      ],
      value: '',
      onChange: (v) => {
        this.phase = v;
        this.requery();
        this.options.onFilterChange(this.search.value(), v);
      },
    });
    this.count = h('span', { class: 'count', attrs: { 'aria-live': 'polite' } });
    // In a narrow table (1100 px with the side bar open) these fold into the detail pane, which
    // says each of them, first to last: a user reads the client and selector, the state, the
    // outcome (the 410) and the last RV first.
    const foldRank: Partial<Record<WatcherSortColumn, number>> = {
      contentType: 1,
      floor: 2,
      buffer: 3,
      nextBookmark: 4,
      received: 5,
      id: 6,
    };
    const column = (
      id: WatcherSortColumn,
      title: string,
      width: string,
      render: (w: WatcherRow, c: HTMLElement) => void,
      description: string,
      align?: 'end',
      wrap?: boolean,
    ) => ({ id, title, width, render, description, align, wrap, fold: foldRank[id] });
    this.table = new VirtualTable<WatcherRow>({
      label: 'Watchers',
      rowKey: (w) => w.id,
      rowClass: (w) => `${w.phase === 'notStarted' ? 'future' : ''}${w.failed ? ' failed' : ''}`,
      onSelect: (w) => {
        this.showDetail(w.id);
        this.options.onSelect(w.id);
      },
      onSort: (id, descending) => {
        this.sort = { column: id as WatcherSortColumn, descending };
        this.requery();
      },
      emptyText: 'This run has no watchers.',
      onFold: (titles) => {
        this.folded.hidden = titles.length === 0;
        this.folded.textContent = titles.length
          ? `Narrow table: ${titles.join(', ')} in the selected watcher's detail`
          : '';
        this.folded.title = titles.length
          ? `The table is too narrow for every column: ${titles.join(', ')} are not drawn; select a watcher to read them in its detail.`
          : '';
      },
      // Three lines: Client, Selector, State (with upstream's name) and Outcome (the 410) read
      // whole in a narrow table (1100 px, or 1400 px beside the detail pane).
      lines: 3,
      columns: [
        column(
          'id',
          'ID',
          '4.2em',
          (w, c) => {
            c.textContent = w.failed ? '—' : w.id;
            if (w.failed) c.title = 'No watcher: the server answered the request with an error';
          },
          "The cacher's watcher id (— for a request the server refused)",
        ),
        column(
          'client',
          'Client',
          'minmax(5.5em, 0.8fr)',
          (w, c) => {
            appendBreakable(c, shortClientName(w.client) || '—');
            c.title = w.client;
          },
          "The client that sent the WATCH request: its User-Agent's product/version (the whole in the tooltip)",
          undefined,
          true,
        ),
        column(
          'selector',
          'Selector',
          // 6.8em: "(everything)" on one line (6em broke it inside the word).
          'minmax(6.8em, 1.3fr)',
          (w, c) => {
            appendBreakable(c, w.selector || '(everything)');
            c.title = w.selector;
          },
          'Label and field selectors of the watch',
          undefined,
          true,
        ),
        column(
          'state',
          'State',
          // 11em: "Streaming (no bookmarks asked)" and BookmarkSent in the row's three lines.
          'minmax(11em, 2.2fr)',
          (w, c) => {
            c.appendChild(phaseBadge(w.phase, w.stateText));
          },
          "The watcher's state at the scrubber's time as its client sees it, with upstream's cacheWatcher state beside",
          undefined,
          true,
        ),
        // Outcome right after State: at narrow widths the table scrolls sideways, and how a watch
        // ended (its 410) must be in view without it, whole: 12em holds "410 Expired: too old
        // resource version: 101 (8901)" in the row's three lines (9em clamped its end).
        column(
          'outcome',
          'Outcome',
          'minmax(12em, 1.8fr)',
          (w, c) => {
            c.classList.add('outcome');
            c.textContent = outcomeText(w);
            c.title = w.outcome || outcomeTitle(w);
          },
          'How the watch ended by the scrubber: its close reason, or the error the request got',
          undefined,
          true,
        ),
        column(
          'lastRv',
          'Last RV',
          '3.6em',
          (w, c) => {
            c.textContent = w.lastRv ? String(w.lastRv) : '—';
            if (w.lastRv === undefined && !w.failed && w.phase !== 'notStarted')
              c.title = 'Not known at this time: the run has only its figures at the end';
          },
          'The newest resourceVersion the client had read by the scrubber',
          'end',
        ),
        column(
          'received',
          'Read',
          '3.8em',
          (w, c) => {
            c.textContent = readText(w);
            if (w.received !== undefined)
              c.title = `${w.received} events and bookmarks read by the client, ${w.bookmarks ?? 0} of them bookmarks`;
          },
          'Events and bookmarks the client had read by the scrubber (bookmarks in brackets)',
          'end',
          true,
        ),
        column(
          'buffer',
          'Buffer',
          // The gauge's bar above its figures (the row has three lines): narrow enough that the
          // columns after Outcome cost a 1100 px window with the side bar little sideways scroll.
          '5em',
          (w, c) => {
            if (w.bufferFill === undefined) c.textContent = '—';
            else c.appendChild(bufferGauge(w, w.bufferFill));
          },
          "The watcher's input buffer at the scrubber: events waiting / capacity",
        ),
        column(
          'nextBookmark',
          'Next bookmark',
          '6.8em',
          (w, c) => {
            c.textContent = nextBookmarkCellText(w.nextBookmarkSecond, this.at);
          },
          "When the watcher's bookmark bucket is due (run time); due: its second has begun, the next bookmark tick offers it a bookmark",
          'end',
        ),
        column(
          'floor',
          'Floor RV',
          '3.6em',
          (w, c) => {
            c.textContent = w.floorRv ? String(w.floorRv) : '—';
          },
          'bookmarkAfterResourceVersion at the scrubber: bookmarks below it are not delivered',
          'end',
        ),
        column(
          'contentType',
          'Type',
          '4em',
          (w, c) => {
            c.textContent = shortContentType(w.contentType);
            c.title = w.contentType;
          },
          'The content type the client asked for (json, protobuf, cbor)',
        ),
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
      h(
        'div',
        { class: 'toolbar' },
        this.search.element,
        this.stateFilter.element,
        this.count,
        this.folded,
      ),
      h(
        'div',
        { class: 'split' },
        h('div', { class: 'split-main' }, this.table.element),
        this.detail,
      ),
    );
  }

  setRun(
    model: PanelModel,
    runId: string,
    at: number,
    search: string,
    phase: string,
    selectedId: string | undefined,
  ): void {
    this.model = model;
    this.runId = runId;
    this.at = at;
    this.needle = search;
    this.phase = phase;
    this.sort = undefined;
    this.search.setValue(search);
    this.stateFilter.setValue(phase);
    this.rows = new Map();
    this.rowsKey = '';
    this.inFlight = undefined;
    this.wanted = undefined;
    this.total = model.watcherCount + model.failedWatchCount;
    this.matching = search || phase ? 0 : this.total;
    this.selectedId = undefined;
    this.watchersAt = undefined;
    this.detailSource = undefined;
    this.updateCount();
    this.table.select(undefined, false);
    this.table.setRemote(this.remoteRows());
    this.fetch(selectedId);
    if (selectedId !== undefined) this.showDetail(selectedId);
    else this.showHint();
  }

  /** The same run grew (a live run's batch): rows asked again; sort, filter and selection kept. */
  updateRun(model: PanelModel, at: number): void {
    this.model = model;
    this.at = at;
    this.rowsKey = '';
    this.fetch();
    if (this.selectedId !== undefined) this.options.requestDetail(this.selectedId);
  }

  setTime(at: number): void {
    this.at = at;
    this.fetch();
    if (this.selectedId !== undefined) this.renderDetail();
  }

  /** Selects a row by id (from the side view or a restored state) and scrolls to it. */
  select(id: string): void {
    this.table.select(id, false);
    this.showDetail(id);
    this.fetch(id);
  }

  /** The host's answer to a query. */
  setRows(runId: string, answer: Answer): void {
    if (runId !== this.runId) return;
    this.answers++;
    this.largestPage = Math.max(this.largestPage, answer.rows.length);
    const mine = this.inFlight?.requestId === answer.requestId;
    if (!mine) return;
    const key = this.inFlight?.key ?? '';
    this.inFlight = undefined;
    if (key !== this.rowsKey) {
      this.rows = new Map();
      this.rowsKey = key;
    }
    this.total = answer.total;
    this.matching = answer.matching;
    this.watchersAt = { ...answer.watchersAt, at: answer.at };
    if (this.selectedId === undefined) this.showHint();
    for (const [i, row] of answer.rows.entries()) this.rows.set(answer.from + i, row);
    this.table.setEmptyText(
      this.total === 0
        ? 'This run has no watchers: it made no WATCH request.'
        : 'No watcher matches the search and state.',
    );
    this.table.setRemote(this.remoteRows());
    if (answer.revealIndex !== undefined && answer.revealIndex >= 0)
      this.table.revealIndex(answer.revealIndex);
    this.updateCount();
    const wanted = this.wanted;
    this.wanted = undefined;
    if (wanted) this.fetch(wanted.reveal, wanted);
  }

  /** The host's answer to a detail request. */
  setDetail(
    runId: string,
    id: string,
    source: { track?: WatcherTrack; request?: WatchRequestRecord },
  ): void {
    if (runId !== this.runId || id !== this.selectedId) return;
    this.detailSource = source;
    this.renderDetail();
  }

  /** For tests and the status line: rows in the run, rows fetched and rows in the DOM. */
  stats(): {
    rows: number;
    matching: number;
    fetched: number;
    rendered: number;
    answers: number;
    largestPage: number;
  } {
    return {
      rows: this.total,
      matching: this.matching,
      fetched: this.rows.size,
      rendered: this.table.renderedRowCount(),
      answers: this.answers,
      largestPage: this.largestPage,
    };
  }

  focusTable(): void {
    this.table.element.focus();
  }

  private query(): WatcherQuery {
    const q: WatcherQuery = { search: this.needle, state: this.phase };
    if (this.sort) q.sort = this.sort;
    return q;
  }

  private queryKey(): string {
    return JSON.stringify([this.query(), this.at]);
  }

  private remoteRows() {
    return {
      length: this.matching,
      row: (i: number) => this.rows.get(i),
      need: (from: number, to: number) => this.fetch(undefined, { from, to }),
    };
  }

  /** The filter or sort changed: the rows fetched so far are another query's. */
  private requery(): void {
    this.fetch();
  }

  /**
   * Asks for the rows in view (and a margin) at the current time and query, unless exactly those
   * are here or on their way; with a query in flight, remembers to ask when it is answered.
   */
  private fetch(reveal?: string, range?: { from: number; to: number }): void {
    if (!this.model) return;
    const visible = range ?? this.table.visibleRange();
    const key = this.queryKey();
    if (this.inFlight) {
      this.wanted = { from: visible.from, to: Math.max(visible.to, visible.from + 1), reveal };
      return;
    }
    let complete = key === this.rowsKey && reveal === undefined;
    for (let i = visible.from; complete && i < visible.to; i++)
      if (!this.rows.has(i)) complete = false;
    if (complete && visible.to > visible.from) return;
    const from = Math.max(0, visible.from - fetchMargin);
    const to = Math.max(visible.to, visible.from + 1) + fetchMargin;
    const requestId = this.options.query(this.at, this.query(), from, to - from, reveal);
    this.inFlight = { requestId, key };
  }

  private updateCount(): void {
    const failed = this.model?.failedWatchCount ?? 0;
    const watchers = this.model?.watcherCount ?? 0;
    const what = `: ${plural(watchers, 'watcher')}, ${plural(failed, 'refused watch request')}`;
    this.count.textContent =
      this.total === 0
        ? 'No watchers in this run'
        : failed > 0
          ? `${formatCount(this.matching)} of ${plural(this.total, 'row')}${what}`
          : `${formatCount(this.matching)} of ${plural(this.total, 'watcher')}`;
  }

  private showHint(): void {
    this.selectedId = undefined;
    replaceChildren(this.detail, h('p', { class: 'hint', text: this.hintText() }));
  }

  /** What the pane says with nothing selected: the same watchers the table counts, at its time. */
  private hintText(): string {
    const select =
      'Select a watcher (click, or arrow keys and Enter) to see its state machine and event log.';
    const at = this.watchersAt;
    // Not answered yet: say nothing about the watchers rather than guess.
    if (!at) return this.total === 0 ? '' : select;
    const refused = this.model?.failedWatchCount ?? 0;
    if (at.open + at.later + at.ended === 0)
      return refused > 0
        ? `This run opened no watch: the server refused ${plural(refused, 'watch request')}. ${select}`
        : 'This run opened no watch: its story is in another tab.';
    const when = `at ${formatVirtualTime(at.at)}`;
    const parts: string[] = [];
    if (at.ended > 0) parts.push(`${formatCount(at.ended)} ended before`);
    if (at.later > 0) parts.push(`${formatCount(at.later)} open later`);
    const rest = parts.length ? `; ${parts.join(', ')}` : '';
    const open =
      at.open === 0
        ? `No watch is open ${when}${rest}.`
        : `${plural(at.open, 'watch', { many: 'watches' })} open ${when}${rest}.`;
    return `${open} ${select}`;
  }

  private showDetail(id: string): void {
    if (this.selectedId !== id) {
      this.selectedId = id;
      this.detailSource = undefined;
      this.options.requestDetail(id);
    }
    this.renderDetail();
  }

  private renderDetail(): void {
    const id = this.selectedId;
    if (id === undefined) return;
    const source = this.detailSource;
    if (!source) {
      replaceChildren(
        this.detail,
        h('h2', { text: `Watcher ${id}` }),
        h('p', { class: 'hint', text: 'Loading…' }),
      );
      return;
    }
    if (source.request) this.renderRequest(id, source.request);
    else if (source.track) this.renderTrack(source.track);
  }

  private renderRequest(id: string, q: WatchRequestRecord): void {
    const answered = (q.answeredAt ?? q.at) <= this.at;
    const phase: WatcherRowPhase = answered ? 'failed' : 'notStarted';
    const facts: Array<[string, string]> = [
      ['Client', q.client],
      ['Request', `WATCH ${q.request}`],
      ['Sent', formatVirtualTime(q.at)],
      [
        'Answer',
        !answered
          ? `not yet (at ${formatVirtualTime(q.answeredAt ?? q.at)})`
          : q.error
            ? statusText(q.error)
            : 'an error',
      ],
      ['Watcher', 'none: the server refused the request, so the cacher made no watcher'],
    ];
    replaceChildren(
      this.detail,
      h('h2', {}, `Watch request ${id.replace(/^request-/, '#')} `, phaseBadge(phase)),
      factList(facts),
    );
  }

  private renderTrack(track: WatcherTrack): void {
    const runEnd = this.model?.durationMs ?? 0;
    const f = watcherFiguresAt(track, this.at, runEnd);
    const phase: WatcherPhase = f.phase;
    const opened = watcherOpenedAt(track);
    const dropped =
      Object.entries(track.bookmarksDropped)
        .filter(([, n]) => n > 0)
        .map(([why, n]) => `${n} ${why}`)
        .join(', ') || 'none';
    const closedBy = track.closedAt !== undefined && track.closedAt <= this.at;
    const reason = track.closeReason || (track.terminated ? 'terminated' : 'closed');
    const facts: Array<[string, string]> = [
      ['Client', track.client || '— (not recorded)'],
      ['Selector', track.selector || '(everything)'],
      ['Content type', track.contentType || '— (not recorded)'],
      ['Opened', formatVirtualTime(opened)],
    ];
    if (f.known) {
      const received = f.received ?? 0;
      facts.push(
        ['Bookmark floor RV', f.floorRv ? String(f.floorRv) : '— (none awaited)'],
        ['Last RV read', f.lastRv ? String(f.lastRv) : '— (nothing read yet)'],
        [
          'Read by the client',
          `${formatCount(received)} (events and bookmarks; ${plural(f.bookmarks ?? 0, 'bookmark')} sent)`,
        ],
        ['Input buffer', `${f.bufferFill ?? 0} of ${f.bufferCapacity}`],
        ['Next bookmark', nextBookmarkFactText(f.nextBookmarkSecond, this.at)],
      );
    } else if (f.opened && f.knownFrom !== undefined) {
      facts.push([
        'Figures',
        `— not known at this time: the run has only the last ones, true from ${formatVirtualTime(f.knownFrom)}`,
      ]);
    }
    if (f.opened)
      facts.push(
        ['Bookmarks asked', bookmarksAskedText(track)],
        ['Bookmarks dropped', `${dropped} (in the whole run)`],
        [
          'Ended',
          closedBy || (f.phase === 'closed' && track.closedAt === undefined)
            ? `${track.closedAt !== undefined ? formatVirtualTime(track.closedAt) : 'by the end of the run'}: ${reason}`
            : track.closedAt !== undefined
              ? `not yet (it ends later, at ${formatVirtualTime(track.closedAt)})`
              : 'no: open at the end of the run',
        ],
      );
    const entries: WatcherLogEntry[] = track.log;
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
      log.appendChild(h('li', { class: 'hint', text: 'No events recorded for this watcher.' }));
    replaceChildren(
      this.detail,
      h('h2', {}, `Watcher ${track.id} `, phaseBadge(phase, watcherPhaseText(phase, track))),
      f.endOfRun && f.opened
        ? h('p', {
            class: 'banner warning',
            // Traces from before watcher samples existed.
            text: f.known
              ? `This run has no figures over time (a trace recorded before they existed): the figures below are its last, true from ${formatVirtualTime(f.knownFrom ?? runEnd)}.`
              : `This run has no figures over time (a trace recorded before they existed): at ${formatVirtualTime(this.at)} this watcher's figures are not known.`,
          })
        : h('p', {
            class: 'hint at-time',
            text: f.opened
              ? `At ${formatVirtualTime(this.at)}:`
              : `Not opened yet at ${formatVirtualTime(this.at)}: it opens at ${formatVirtualTime(opened)}.`,
          }),
      factList(facts),
      h('h3', { text: 'State machine' }),
      stateMachineDiagram(track, this.at, runEnd),
      h('h3', {
        text: `Event log${track.logDropped ? ` (${formatCount(track.logDropped)} entries in the middle not kept)` : ''}`,
      }),
      log,
    );
    // Keep the entry at the scrubber in view, scrolling the log only (not the pane around it).
    const now = log.querySelector<HTMLElement>('.now');
    if (now) log.scrollTop = Math.max(0, now.offsetTop - log.clientHeight / 2);
  }
}

function factList(facts: Array<[string, string]>): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    ...facts.flatMap(([k, v]) => [
      h('dt', { text: k }),
      h('dd', { text: visibleText(v), attrs: { title: v } }),
    ]),
  );
}

/** What the watch asked for, in its own terms. */
function bookmarksAskedText(track: WatcherTrack): string {
  const initial = track.bookmarkFloorRv > 0 ? '; initial events, ended by a bookmark' : '';
  if (track.allowWatchBookmarks === undefined) return `— (the trace does not say)${initial}`;
  return track.allowWatchBookmarks
    ? `yes (allowWatchBookmarks=true)${initial}`
    : 'no (allowWatchBookmarks=false): no bookmark is ever sent to it';
}

function readText(w: WatcherRow): string {
  if (w.received === undefined) return '—';
  return w.bookmarks
    ? `${formatCount(w.received)} (${formatCount(w.bookmarks)})`
    : formatCount(w.received);
}

/**
 * How the watch stands at the row's time: its ending once it has ended, "open" while open (when
 * it ends is later's, in the tooltip), nothing before it opened.
 */
function outcomeText(w: WatcherRow): string {
  if (w.outcome) return visibleText(w.outcome);
  if (w.phase === 'notStarted') return w.failed && w.endsAt !== undefined ? 'no answer yet' : '';
  return 'open';
}

function outcomeTitle(w: WatcherRow): string {
  if (w.endsAt === undefined) return '';
  return w.failed
    ? `answered at ${formatVirtualTime(w.endsAt)}`
    : `open at this time; it ends later, at ${formatVirtualTime(w.endsAt)}`;
}

/** The serializer's short name (json, protobuf, cbor…) for the table; the full type is the cell's tooltip. */
function shortContentType(contentType: string): string {
  if (!contentType) return '—';
  const m = /^application\/(?:vnd\.kubernetes\.)?([a-z0-9.+-]+)/i.exec(contentType);
  return m ? m[1] : contentType;
}

function bufferGauge(w: WatcherRow, fill: number): HTMLElement {
  const fraction = w.bufferCapacity > 0 ? Math.min(1, fill / w.bufferCapacity) : 0;
  const bar = h('span', { class: `gauge-fill${fraction >= 1 ? ' full' : ''}` });
  bar.style.width = `${(fraction * 100).toFixed(0)}%`;
  return h(
    'span',
    { class: 'gauge', attrs: { title: `${fill} of ${w.bufferCapacity}` } },
    h('span', { class: 'gauge-bar', attrs: { 'aria-hidden': 'true' } }, bar),
    `${fill}/${w.bufferCapacity}`,
  );
}

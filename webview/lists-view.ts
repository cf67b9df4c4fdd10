// The Lists tab: every LIST the run served, from the watch cache or etcd and the delegation rule
// that decided (delegator.go shouldDelegateList), the etcd calls one LIST made with the limit asked
// (store.go GetList doubles it while filtering leaves a call short), fetched/evaluated/returned,
// RangeStream, fallbacks and freshness waits, the continue token issued (decoded by the host on
// request) and remainingItemCount; rows and the detail at the scrubber's time (not sent yet, in
// progress, answered), with only the figures true by then (src/run/views/list-at-time.ts).
import type { ContinueTokenExplanation, ListRecord, PanelModel } from '../src/protocol';
import { formatVirtualTime } from '../src/run/views/watcher-states';
import { listFiguresAt, listProgressAt, type ListFigures } from '../src/run/views/list-at-time';
import { listEtcdRequests, listEtcdRequestsText } from '../src/run/views/list-etcd-requests';
import { formatCount, plural } from '../src/format/count-text';
import { shortClientName } from '../src/run/views/client-name';
import { appendBreakable, columnLegend, h, replaceChildren, s, svgText, visibleText } from './dom';
import { button } from './toolkit';
import { VirtualTable } from './virtual-table';

export interface ListsViewOptions {
  onSelect(id: string): void;
  /** Ask the host to explain a token; the answer arrives through showExplanation. */
  /** Asks the host to decode the continue token the LIST `listId` returned. */
  onDecode(listId: string, token: string): number;
}

/** A continue token's first 8 and last 6 characters: enough to tell a run's tokens apart. */
function shortToken(token: string): string {
  return token.length > 16 ? `${token.slice(0, 8)}…${token.slice(-6)}` : token;
}

/**
 * The request as its client wrote it, but its continue token (opaque, and 100+ characters) shown
 * as the Continue column shows a token, decoded from the URL: a page's request reads against the
 * previous page's Continue. The whole request is in the cell's tooltip and the detail pane.
 */
export function requestCellText(request: string): string {
  return request.replace(/([?&]continue=)([^&]*)/, (_, key: string, value: string) => {
    let token = value;
    try {
      token = decodeURIComponent(value);
    } catch {
      // Not URL-encoded as it should be: shown as sent.
    }
    return key + shortToken(token);
  });
}

/**
 * The Rule cell: the delegation rule; a fallback's words, which the rule repeats after it, are
 * left to the Fallback column beside it (the whole rule is in the tooltip and the detail pane).
 */
function ruleCellText(rule: string, fallbacks: readonly string[]): string {
  const then = rule.indexOf(' (then ');
  return then >= 0 && fallbacks.length > 0 ? `${rule.slice(0, then)} → Fallback` : rule;
}

interface PageBar {
  limit: number;
  got: number;
  title: string;
  error?: boolean;
}

function waitText(f: ListFigures): string {
  if (f.progress === 'future') return '';
  if (f.waiting) return `waiting since ${formatVirtualTime(f.waiting.since)}`;
  if (f.waits.length === 0) return '—';
  const ms = f.waits.reduce((a, w) => a + w.waitedMs, 0);
  const timedOut = f.waits.some((w) => w.outcome === 'timeout');
  return `${formatCount(ms)} ms${timedOut ? ' (timed out)' : ''}`;
}

/** What each column means: the legend under the table's toolbar. */
const legend: Array<[string, string]> = [
  [
    'Served by',
    'cache: the watch cache answered; etcd: the etcd3 store read etcd; error: a Status',
  ],
  [
    'Rule',
    "the delegation rule that chose (delegator.go's shouldDelegateList, in upstream's words)",
  ],
  ['etcd requests', listEtcdRequestsText],
  [
    'Fetched / evaluated / returned',
    'keys read from etcd or the cache / objects the selector was tried on / items in the answer',
  ],
  ['Stream', '1.37 EtcdRangeStream: one RangeStream answered the LIST instead of paged ranges'],
  ['Fallback', 'the cache could not serve it in the end: etcd answered, or a 429 without fallback'],
  [
    'Wait',
    'time spent waiting for the watch cache to be fresh enough (waitUntilFreshAndBlock, up to 3 s)',
  ],
  ['Continue', 'the continue token the answer carried: the next page starts from it'],
];

/** The pages of a LIST as bars: the limit asked (outline) and what came back (filled). */
function pageBars(list: ListFigures): PageBar[] {
  if (list.pages.length > 0) {
    return list.pages.map((p, i) => ({
      limit: p.limitAsked,
      got: p.fetched,
      title: `etcd call ${i + 1}: limit ${p.limitAsked}, ${p.fetched} fetched, ${p.evaluated} evaluated, ${p.matched} matched (${p.itemsSoFar} so far), count ${p.count}${p.hasMore ? ', more to read' : ''}${p.limitReached ? ', limit reached' : ''}`,
    }));
  }
  return list.etcdRequests.map((p, i) => ({
    limit: p.limit,
    got: p.answered ? p.kvs : 0,
    error: !!p.error,
    title: `request ${i + 1}: ${p.operation} ${p.key} limit ${p.limit || 'none'}, ${p.kvs} keys returned, count ${p.count}, revision ${p.revision}${p.error ? `, error ${p.error}` : ''}`,
  }));
}

/** Bars of the limit asked per page: the doubling made visible. */
function limitBars(bars: PageBar[]): SVGSVGElement {
  const max = Math.max(1, ...bars.map((p) => Math.max(p.limit, p.got)));
  const barW = bars.length > 12 ? 22 : 40;
  const gap = bars.length > 12 ? 6 : 12;
  const height = 130;
  const plot = height - 44;
  const width = Math.max(200, bars.length * (barW + gap) + gap);
  const svg = s('svg', {
    class: 'limit-bars',
    viewBox: `0 0 ${width} ${height}`,
    width,
    height,
    role: 'img',
    'aria-label': `Limit asked per etcd call: ${bars.map((p) => p.limit || 'none').join(', ')}`,
  });
  for (const [i, p] of bars.entries()) {
    const x = gap + i * (barW + gap);
    const barH = p.limit > 0 ? Math.max(3, (p.limit / max) * plot) : 3;
    const filled = Math.min(plot, (p.got / max) * plot);
    svg.appendChild(
      s(
        'g',
        { class: `limit-bar${p.error ? ' error' : ''}` },
        s('title', {}, p.title),
        s('rect', { class: 'asked', x, y: height - 22 - barH, width: barW, height: barH }),
        s('rect', {
          class: 'got',
          x: x + barW / 4,
          y: height - 22 - filled,
          width: barW / 2,
          height: filled,
        }),
        svgText(x + barW / 2, height - 27 - barH, p.limit ? String(p.limit) : '∞', {
          'text-anchor': 'middle',
          class: 'bar-label',
        }),
        svgText(x + barW / 2, height - 6, String(i + 1), {
          'text-anchor': 'middle',
          class: 'bar-axis',
        }),
      ),
    );
  }
  return svg;
}

/**
 * Fetched / evaluated / returned: the engine's counts; a real cluster's are not seen (a probe);
 * blank before the storage answered.
 */
function fetchedText(l: ListRecord, f: ListFigures): string {
  if (f.progress === 'future') return '';
  if (l.servedBy === 'cluster')
    return `— / — / ${f.returned === undefined ? '…' : formatCount(f.returned)}`;
  if (f.fetched === undefined || f.evaluated === undefined || f.returned === undefined) return '…';
  return `${formatCount(f.fetched)} / ${formatCount(f.evaluated)} / ${formatCount(f.returned)}`;
}

/** What the detail draws of a LIST at a moment: it is drawn again when this changes. */
function figuresKey(f: ListFigures): string {
  return [
    f.progress,
    f.servedBy,
    f.rule,
    f.fetched,
    f.etcdRequests.length,
    f.etcdRequests.filter((r) => r.answered).length,
    f.pages.length,
    f.waits.length,
    f.waiting?.since,
    f.fallbacks.length,
  ].join('|');
}

/** The Served by column: the answer's, or where the LIST stands. */
function servedText(f: ListFigures): string | undefined {
  if (f.progress === 'future') return 'not sent yet';
  if (f.progress === 'running') return 'in progress';
  return undefined;
}

export class ListsView {
  readonly element: HTMLElement;
  private readonly options: ListsViewOptions;
  private readonly table: VirtualTable<ListRecord>;
  private readonly detail: HTMLElement;
  private readonly count: HTMLElement;
  private readonly legendBlock: HTMLElement;
  private model: PanelModel | undefined;
  private at = 0;
  private selectedId: string | undefined;
  /** Where the selected LIST stands at the scrubber (its figures below are its answer's). */
  private readonly progressLine = h('p', {
    class: 'hint at-time',
    attrs: { 'aria-live': 'polite' },
  });
  private pendingDecode: { requestId: number; slot: HTMLElement } | undefined;
  /** figuresKey of the detail drawn. */
  private shownKey = '';

  constructor(options: ListsViewOptions) {
    this.options = options;
    this.count = h('span', { class: 'count' });
    this.table = new VirtualTable<ListRecord>({
      label: 'LIST requests',
      rowKey: (l) => l.id,
      rowClass: (l) => (listProgressAt(l, this.at) === 'future' ? 'future' : ''),
      onSelect: (l) => {
        this.show(l);
        this.options.onSelect(l.id);
      },
      emptyText: 'This run made no LIST request.',
      // Four lines: Request and Rule (up to about 120 characters each) read whole in a narrow
      // table (1100 px, or 1400 px beside the detail pane).
      lines: 4,
      columns: [
        {
          id: 'at',
          title: 'Time',
          width: '5.2em',
          align: 'end',
          render: (l, c) => {
            c.textContent = formatVirtualTime(l.at);
          },
          sortKey: (l) => l.at,
        },
        {
          id: 'client',
          title: 'Client',
          width: '5.5em',
          wrap: true,
          render: (l, c) => {
            // The short name, as the Clients tab shows it; the whole User-Agent in the tooltip.
            appendBreakable(c, shortClientName(l.client ?? '') || 'the cacher');
            c.title = l.client ?? "the watch cache's own reflector";
          },
          sortKey: (l) => l.client ?? '',
        },
        {
          id: 'request',
          title: 'Request',
          width: 'minmax(9em, 2.8fr)',
          wrap: true,
          render: (l, c) => {
            appendBreakable(c, requestCellText(l.request));
            c.title = l.request;
          },
          sortKey: (l) => l.request,
        },
        {
          id: 'servedBy',
          title: 'Served by',
          width: '4.8em',
          wrap: true,
          render: (l, c) => {
            const text = servedText(listFiguresAt(l, this.at));
            if (text !== undefined) c.textContent = text;
            else
              c.appendChild(h('span', { class: `served served-${l.servedBy}`, text: l.servedBy }));
          },
          sortKey: (l) => l.servedBy,
        },
        {
          id: 'rule',
          title: 'Rule',
          width: 'minmax(9em, 3fr)',
          wrap: true,
          render: (l, c) => {
            const f = listFiguresAt(l, this.at);
            const rule = f.rule ?? '';
            c.textContent = ruleCellText(rule, f.fallbacks);
            c.title = rule;
          },
          sortKey: (l) => l.rule,
        },
        {
          id: 'etcdCalls',
          title: 'etcd requests',
          width: '5.6em',
          align: 'end',
          description: listEtcdRequestsText,
          render: (l, c) => {
            const f = listFiguresAt(l, this.at);
            const n = f.etcdRequests.length;
            c.textContent = f.progress === 'future' ? '' : n ? String(n) : '—';
          },
          sortKey: (l) => listEtcdRequests(l),
        },
        {
          id: 'returned',
          title: 'Fetched / evaluated / returned',
          width: '6.6em',
          align: 'end',
          wrap: true,
          render: (l, c) => {
            c.textContent = fetchedText(l, listFiguresAt(l, this.at));
          },
          sortKey: (l) => l.returned,
        },
        {
          id: 'stream',
          title: 'Stream',
          width: '4em',
          wrap: true,
          description: 'Answered with one RangeStream (1.37 EtcdRangeStream)',
          render: (l, c) => {
            const f = listFiguresAt(l, this.at);
            // The store's stream decision is known with its answer.
            const known = f.fetched !== undefined || f.answered;
            c.textContent =
              f.progress === 'future'
                ? ''
                : !known
                  ? '…'
                  : l.streamed
                    ? 'yes'
                    : l.stream
                      ? l.stream.decision
                      : '—';
            c.title = known ? (l.stream?.reason ?? '') : '';
          },
          sortKey: (l) => (l.streamed ? 1 : 0),
        },
        {
          id: 'fallback',
          title: 'Fallback',
          width: 'minmax(7em, 2fr)',
          wrap: true,
          description: 'Fallbacks while serving it (to etcd, or none: 429)',
          render: (l, c) => {
            const f = listFiguresAt(l, this.at);
            c.textContent =
              f.progress === 'future' ? '' : f.fallbacks.length ? f.fallbacks.join('; ') : '—';
            c.title = f.fallbacks.join('\n');
          },
          sortKey: (l) => l.fallbacks.length,
        },
        {
          id: 'wait',
          title: 'Wait',
          width: '4.6em',
          align: 'end',
          wrap: true,
          description: 'Time waiting for the watch cache to be fresh (waitUntilFreshAndBlock)',
          render: (l, c) => {
            c.textContent = waitText(listFiguresAt(l, this.at));
          },
          sortKey: (l) => l.waits.reduce((a, w) => a + w.waitedMs, 0),
        },
        {
          id: 'continue',
          title: 'Continue',
          width: '9em',
          render: (l, c) => {
            const f = listFiguresAt(l, this.at);
            c.textContent = !f.answered ? '' : l.continue ? shortToken(l.continue) : '—';
            c.title = f.answered ? l.continue : '';
          },
          sortKey: (l) => l.continue,
        },
      ],
    });
    this.detail = h(
      'div',
      { class: 'detail', attrs: { role: 'region', 'aria-label': 'Selected LIST' } },
      h('p', {
        class: 'hint',
        text: 'Select a LIST to see its pages, its continue token and how it was served.',
      }),
    );
    this.legendBlock = columnLegend(legend);
    this.element = h(
      'div',
      { class: 'lists-view' },
      h('div', { class: 'toolbar' }, this.count),
      this.legendBlock,
      h(
        'div',
        { class: 'split even' },
        h('div', { class: 'split-main' }, this.table.element),
        this.detail,
      ),
    );
  }

  setRun(model: PanelModel, at: number, selectedId: string | undefined): void {
    this.model = model;
    this.at = at;
    this.pendingDecode = undefined;
    // Stream (the 1.37 profile's RangeStream), Fallback and Wait are drawn once a LIST has one:
    // a column of dashes takes the room Request and Rule need in a narrow table.
    this.table.setHiddenColumns(
      (
        [
          ['stream', (l: ListRecord) => l.streamed || l.stream !== undefined],
          ['fallback', (l: ListRecord) => l.fallbacks.length > 0],
          ['wait', (l: ListRecord) => l.waits.length > 0],
        ] as const
      )
        .filter(([, has]) => !model.lists.some(has))
        .map(([id]) => id),
    );
    this.table.setRows(model.lists);
    this.legendBlock.hidden = model.lists.length === 0;
    this.table.setEmptyText(
      model.watchCache?.started === false
        ? 'This run made no LIST request.'
        : 'This run made no LIST request of its own (the watch cache listed etcd to fill itself: see Watch cache).',
    );
    const selected =
      selectedId === undefined ? undefined : model.lists.find((l) => l.id === selectedId);
    // Another run's selection means nothing here: the detail starts over.
    this.table.select(selected?.id);
    if (selected) this.show(selected);
    else this.showHint();
    this.updateCount();
  }

  setTime(at: number): void {
    this.at = at;
    this.table.refresh();
    this.updateCount();
    this.updateProgress();
    const list = this.model?.lists.find((l) => l.id === this.selectedId);
    // The detail is drawn again only when a figure in it changed at the new time.
    if (list && figuresKey(listFiguresAt(list, at)) !== this.shownKey) this.show(list);
  }

  private updateProgress(): void {
    const list = this.model?.lists.find((l) => l.id === this.selectedId);
    if (!list) return;
    const p = listProgressAt(list, this.at);
    const answered =
      list.endedAt !== undefined
        ? ` at ${formatVirtualTime(list.endedAt)}`
        : ' by the end of the run';
    this.progressLine.textContent =
      p === 'future'
        ? `At ${formatVirtualTime(this.at)}: not sent yet (it is sent at ${formatVirtualTime(list.at)}).`
        : p === 'running'
          ? `At ${formatVirtualTime(this.at)}: in progress (answered${answered}); below, what was known by then.`
          : `At ${formatVirtualTime(this.at)}: answered${answered}.`;
  }

  select(id: string): void {
    const list = this.model?.lists.find((l) => l.id === id);
    if (!list) return;
    this.table.select(id);
    this.show(list);
  }

  /** The selected LIST's id (for tests and the saved state). */
  selected(): string | undefined {
    return this.selectedId;
  }

  private updateCount(): void {
    const lists = this.model?.lists ?? [];
    const cache = lists.filter((l) => l.servedBy === 'cache').length;
    const etcd = lists.filter((l) => l.servedBy === 'etcd').length;
    const cluster = lists.filter((l) => l.servedBy === 'cluster').length;
    const sent = lists.filter((l) => l.at <= this.at).length;
    this.count.textContent =
      lists.length === 0
        ? 'No LIST requests in this run'
        : `${plural(lists.length, 'LIST')} in the run: ${cluster ? `${formatCount(cluster)} answered by a real cluster (its cache or etcd: not seen), ` : ''}${formatCount(cache)} from the watch cache, ${formatCount(etcd)} from etcd, ${formatCount(lists.length - cache - etcd - cluster)} failed · ${formatCount(sent)} sent by ${formatVirtualTime(this.at)}`;
  }

  private showHint(): void {
    this.selectedId = undefined;
    replaceChildren(
      this.detail,
      h('p', {
        class: 'hint',
        text: this.model?.lists.length
          ? 'Select a LIST to see its etcd calls, its continue token and how it was served.'
          : 'Nothing to show: this run made no LIST request.',
      }),
    );
  }

  /** The host's answer to a decode request. */
  showExplanation(requestId: number, e: ContinueTokenExplanation): void {
    if (!this.pendingDecode || this.pendingDecode.requestId !== requestId) return;
    const rows: Array<[string, string]> = [['valid', e.valid ? 'yes' : 'no']];
    if (e.fields)
      rows.push(
        ['version (v)', e.fields.v],
        ['resourceVersion (rv)', e.fields.rv],
        ['start', e.fields.start],
      );
    if (e.rvMeaning) rows.push(['rv means', e.rvMeaning]);
    if (e.startKey) rows.push(['start key', e.startKey.absolute]);
    if (e.resumePoint) rows.push(['next page', e.resumePoint.description]);
    if (e.error) rows.push(['error', e.error.message]);
    for (const w of e.warnings) rows.push(['warning', w.message]);
    rows.push(['apiserver', e.apiserverSays]);
    replaceChildren(
      this.pendingDecode.slot,
      h(
        'dl',
        {
          class: `facts explanation${e.valid ? '' : ' invalid'}`,
          attrs: { 'aria-label': 'Continue token explanation' },
        },
        ...rows.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: visibleText(v) })]),
      ),
    );
    this.pendingDecode = undefined;
  }

  private show(list: ListRecord): void {
    this.selectedId = list.id;
    this.updateProgress();
    const f = listFiguresAt(list, this.at);
    this.shownKey = figuresKey(f);
    // Not true yet at the scrubber's time: the answer's figures wait for the answer.
    const notYet = f.progress === 'future' ? '— (not sent yet)' : '… (not answered yet)';
    const facts: Array<[string, string]> = [
      ['Request', list.request],
      [
        'Served by',
        f.answered
          ? list.servedBy
          : f.progress === 'running' && f.servedBy !== undefined
            ? `in progress (${f.servedBy === 'cache' ? 'sent to the watch cache' : f.servedBy === 'etcd' ? (f.fallbacks.length ? 'fell back to etcd' : 'sent to etcd') : f.servedBy})`
            : (servedText(f) ?? ''),
      ],
      ['Rule', f.rule ?? (f.progress === 'future' ? '— (not sent yet)' : '… (not decided yet)')],
      [
        'Fetched / evaluated / returned',
        f.fetched !== undefined || f.answered ? fetchedText(list, f) : notYet,
      ],
      ['resourceVersion', f.answered ? list.resourceVersion || '—' : notYet],
      [
        'remainingItemCount',
        !f.answered
          ? notYet
          : list.remainingItemCount === undefined
            ? '— (not set)'
            : formatCount(list.remainingItemCount),
      ],
    ];
    facts.splice(1, 0, ['Client', list.client ?? "the watch cache's own reflector"]);
    if (f.answered && list.endedAt !== undefined)
      facts.push([
        'Answered',
        `${formatVirtualTime(list.endedAt)} (${formatVirtualTime(list.endedAt - list.at)} later)`,
      ]);
    const storageAnswered = f.answered || f.fetched !== undefined;
    if (storageAnswered && list.stream)
      facts.push([
        'RangeStream',
        `${list.stream.decision}: ${list.stream.reason}${list.stream.recheckAt !== undefined ? ` (re-checked at ${formatVirtualTime(list.stream.recheckAt)})` : ''}`,
      ]);
    else if (storageAnswered && list.streamed)
      facts.push(['RangeStream', 'answered with one RangeStream']);
    if (f.answered && list.error)
      facts.push(['Error', `${list.error.code} ${list.error.reason}: ${list.error.message}`]);
    const tokenSlot = h('div', { class: 'token-slot' });
    const tokenBlock = !f.answered
      ? h('p', {
          class: 'hint',
          text: `Not answered at ${formatVirtualTime(this.at)}: the continue token comes with the answer.`,
        })
      : list.continue
        ? h(
            'div',
            { class: 'token' },
            h('code', { class: 'token-text', text: list.continue }),
            button(
              {
                label: 'Decode this continue token',
                appearance: 'secondary',
                onClick: () => {
                  this.pendingDecode = {
                    requestId: this.options.onDecode(list.id, list.continue),
                    slot: tokenSlot,
                  };
                  replaceChildren(tokenSlot, h('p', { class: 'hint', text: 'Decoding…' }));
                },
              },
              'Decode',
            ),
            tokenSlot,
          )
        : h('p', {
            class: 'hint',
            text: 'No continue token: this was the last page (or the LIST was not paged).',
          });
    const th = (t: string, num = false) =>
      h('th', { text: t, class: num ? 'num' : '', attrs: { scope: 'col' } });
    const td = (t: string, num = false) => h('td', { text: t, class: num ? 'num' : '' });
    const pagesTable =
      f.pages.length > 0
        ? h(
            'table',
            { class: 'plain', attrs: { 'aria-label': 'etcd calls of the LIST' } },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                th('Call', true),
                th('Limit asked', true),
                th('Fetched', true),
                th('Evaluated', true),
                th('Matched', true),
                th('Items so far', true),
                th('Count', true),
                th('More'),
              ),
            ),
            h(
              'tbody',
              {},
              ...f.pages.map((p, i) =>
                h(
                  'tr',
                  {},
                  td(String(i + 1), true),
                  td(formatCount(p.limitAsked), true),
                  td(formatCount(p.fetched), true),
                  td(formatCount(p.evaluated), true),
                  td(formatCount(p.matched), true),
                  td(formatCount(p.itemsSoFar), true),
                  td(formatCount(p.count), true),
                  td(p.limitReached ? 'limit reached' : p.hasMore ? 'yes' : 'no'),
                ),
              ),
            ),
          )
        : undefined;
    const requestsTable =
      f.etcdRequests.length > 0
        ? h(
            'table',
            { class: 'plain', attrs: { 'aria-label': 'etcd requests' } },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                th('#', true),
                th('Time', true),
                th('Operation'),
                th('Key'),
                th('Limit', true),
                th('Keys', true),
                th('Count', true),
                th('Revision', true),
                th('Latency', true),
              ),
            ),
            h(
              'tbody',
              {},
              ...f.etcdRequests.map((p, i) =>
                h(
                  'tr',
                  { class: p.error && p.answered ? 'error' : '' },
                  td(String(i + 1), true),
                  td(formatVirtualTime(p.at), true),
                  td(p.operation),
                  td(`${visibleText(p.key)}${p.rangeEnd ? ` … ${visibleText(p.rangeEnd)}` : ''}`),
                  td(p.limit ? formatCount(p.limit) : 'none', true),
                  // Sent, its answer still to come at the scrubber's time.
                  td(p.answered ? formatCount(p.kvs) : '…', true),
                  td(p.answered ? formatCount(p.count) : '…', true),
                  td(String(p.revision), true),
                  td(p.answered ? `${p.latencyMs} ms` : '…', true),
                ),
              ),
            ),
          )
        : undefined;
    // Bars for reads of the collection (the paging loop, or a RangeStream); a consistent read's
    // getCurrentResourceVersion alone has no limit or keys to draw.
    const bars =
      f.pages.length ||
      f.etcdRequests.some((r) => r.operation === 'list' || r.operation === 'listStream')
        ? pageBars(f)
        : [];
    const etcdCount = f.etcdRequests.length;
    const waits =
      list.servedBy === 'cluster'
        ? h('p', {
            class: 'hint',
            text: 'Not seen: a real cluster’s waits and fallbacks happen inside it.',
          })
        : f.progress === 'future'
          ? h('p', { class: 'hint', text: 'Not sent yet.' })
          : f.waits.length === 0 && f.fallbacks.length === 0 && !f.waiting
            ? h('p', {
                class: 'hint',
                text: f.answered
                  ? 'No freshness wait and no fallback.'
                  : `No freshness wait and no fallback by ${formatVirtualTime(this.at)}.`,
              })
            : h(
                'ul',
                { class: 'waits' },
                ...f.waits.map((w) =>
                  h('li', {
                    text: `${formatVirtualTime(w.at)}: waited ${w.waitedMs} ms for RV ${w.rv}: ${w.outcome}`,
                  }),
                ),
                ...(f.waiting
                  ? [
                      h('li', {
                        text: `${formatVirtualTime(f.waiting.since)}: waiting for RV ${f.waiting.rv} (up to 3 s)`,
                      }),
                    ]
                  : []),
                ...f.fallbacks.map((t) => h('li', { text: `fallback: ${t}` })),
              );
    replaceChildren(
      this.detail,
      h(
        'h2',
        {},
        `LIST at ${formatVirtualTime(list.at)} `,
        f.answered
          ? h('span', { class: `served served-${list.servedBy}`, text: list.servedBy })
          : h('span', { class: 'served', text: servedText(f) ?? '' }),
      ),
      this.progressLine,
      h(
        'dl',
        { class: 'facts' },
        ...facts.flatMap(([k, v]) => [
          h('dt', { text: k }),
          h('dd', { text: visibleText(v), attrs: { title: v } }),
        ]),
      ),
      h('h3', {
        text: bars.length
          ? f.pages.length && etcdCount > bars.length
            ? `${plural(bars.length, 'range read')} of the storage GetList that answered (of ${plural(etcdCount, 'etcd request')} for this LIST: the table below has them all): the limit asked, and what came back`
            : `${plural(bars.length, 'etcd call')} within this LIST: the limit asked, and what came back`
          : 'etcd calls',
      }),
      bars.length
        ? h(
            'figure',
            { class: 'limit-figure' },
            limitBars(bars),
            h(
              'figcaption',
              { class: 'chart-legend' },
              h(
                'span',
                { class: 'chart-legend-item' },
                h('span', { class: 'key asked', attrs: { 'aria-hidden': 'true' } }),
                'limit asked (the number above)',
              ),
              h(
                'span',
                { class: 'chart-legend-item' },
                h('span', { class: 'key got', attrs: { 'aria-hidden': 'true' } }),
                'keys etcd returned',
              ),
              h('span', { class: 'chart-legend-item', text: 'under each bar: the call, in order' }),
            ),
          )
        : h('p', {
            class: 'hint',
            text: etcdCount
              ? `No collection read from etcd${f.answered ? '' : ` by ${formatVirtualTime(this.at)}`}; ${plural(etcdCount, 'etcd call')} (${[...new Set(f.etcdRequests.map((r) => r.operation))].join(', ')}): see the table below.`
              : list.servedBy === 'cluster'
                ? 'Not seen: the cluster’s etcd calls happen inside it (its apiserver_storage_list_* and etcd_request_* metrics count them: Scrape Cluster Metrics…).'
                : f.answered
                  ? 'Served without reading etcd.'
                  : `No etcd call by ${formatVirtualTime(this.at)}.`,
          }),
      h('h3', { text: 'Continue token issued' }),
      tokenBlock,
      pagesTable
        ? h(
            'details',
            { class: 'pages-table', attrs: { open: true } },
            h('summary', { text: 'etcd calls in numbers' }),
            pagesTable,
          )
        : false,
      requestsTable
        ? h(
            'details',
            { class: 'etcd-requests', attrs: f.pages.length ? {} : { open: true } },
            h('summary', { text: `etcd requests (${etcdCount})` }),
            requestsTable,
          )
        : false,
      h('h3', { text: 'Waits and fallbacks' }),
      waits,
    );
  }
}

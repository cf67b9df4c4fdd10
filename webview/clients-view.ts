// The Clients tab: the run's requests grouped by client (user agent and, in live runs, its TCP
// connection), as a controller author reads their informer's life: LIST pages chained by continue
// tokens and how each was served, watches with their cacheWatcher states and how they ended,
// restarts, 410s and relists with what each relist cost. Everything at the scrubber's time: only
// what had been sent, answered or ended by then. The host sends the clients (clients/query);
// selecting a watch selects it in Watchers, a LIST in Lists. No upstream counterpart.
import type {
  ClientListChain,
  ClientListCost,
  ClientListRequest,
  ClientRecord,
  ClientReported,
  ClientWatchEnd,
  ClientWatchRequest,
  PanelModel,
} from '../src/protocol';
import {
  chainCostAt,
  clientFiguresAt,
  clientWatchPhaseAt,
  type ClientFigures,
} from '../src/run/views/client-at-time';
import { connectionText, shortClientName } from '../src/run/views/client-name';
import { relistRule, relistViaText } from '../src/run/relist-rule';
import { statusText } from '../src/run/views/status-text';
import { listRetryText } from '../src/run/views/chain-text';
import {
  formatVirtualTime,
  openingStateLabel,
  watcherStateLabels,
} from '../src/run/views/watcher-states';
import { formatCount, plural } from '../src/format/count-text';
import { columnLegend, h, replaceChildren, visibleText } from './dom';
import { button, textField } from './toolkit';
import { VirtualTable } from './virtual-table';

export interface ClientsViewOptions {
  /** Ask the host for the clients matching `search`; the answer arrives through setClients. */
  query(search: string): number;
  onSelectWatcher(watcherId: string): void;
  onSelectList(listId: string): void;
}

const endLabels: Record<ClientWatchEnd, string> = {
  timeout: 'timeout',
  expired: '410 Expired',
  terminated: 'terminated',
  'client-closed': 'client closed',
  'server-closed': 'closed by the server',
  error: 'refused',
};

const legend: Array<[string, string]> = [
  ['Client', 'the User-Agent the requests carried (its first word; the whole in the tooltip)'],
  ['Connection', 'the TCP connection (live runs); scenario clients have none'],
  ['410s', 'LIST pages and WATCHes answered or ended with 410 Gone/Expired'],
  ['Restarts', "a WATCH sent after the client's previous one ended, with no LIST between"],
  ['Relists', relistRule],
  [
    'Relist cost',
    "the relists' answered pages: items returned, requests etcd received for them (as the Lists tab counts them: a consistent read's current-RV lookup included), keys etcd returned, and the time from the first page sent to the last answered",
  ],
];

function costText(c: ClientListCost): string {
  const etcd = c.etcdRequests
    ? `${plural(c.etcdRequests, 'etcd request')} (${plural(c.keysFetched, 'key')})`
    : 'no etcd request';
  return `${plural(c.items, 'item')}, ${etcd}, ${formatCount(c.ms)} ms`;
}

interface Row {
  client: ClientRecord;
  figures: ClientFigures;
  /** A live run's clients report figures (answers, bytes, faults with their recovery). */
  reported?: ClientReported;
}

/**
 * The faults that had touched the client by `at`: `⚡ #1 http-error 1004 ms (retry)`, or a server
 * fault that did not end its open watch: `⚡ #2 expire-history watch not cut`.
 */
function faultMarkers(r: ClientReported | undefined, at: number): string[] {
  return (r?.faults ?? [])
    .filter((f) => f.at <= at)
    .map(
      (f) =>
        `⚡ ${f.id === null ? '' : `#${f.id} `}${f.name} ${f.recoveryMs === null ? 'not recovered' : f.recoveredBy === 'answered' && f.hits === 0 ? 'watch not cut' : `${formatCount(Math.round(f.recoveryMs))} ms (${f.recoveredBy})`}`,
    );
}

export class ClientsView {
  readonly element: HTMLElement;
  private readonly options: ClientsViewOptions;
  private readonly table: VirtualTable<Row>;
  private readonly detail: HTMLElement;
  private readonly count: HTMLElement;
  /** Which columns the table folded for its width (into the detail pane). */
  private readonly folded = h('span', { class: 'folded-columns', attrs: { hidden: true } });
  private model: PanelModel | undefined;
  private runId: string | undefined;
  private clients: ClientRecord[] = [];
  private reported: Record<string, ClientReported> = {};
  private total = 0;
  private matching = 0;
  private at = 0;
  private selectedId: string | undefined;
  private search = '';
  private pending: number | undefined;

  constructor(options: ClientsViewOptions) {
    this.options = options;
    this.count = h('span', {
      class: 'count',
      attrs: {
        'aria-live': 'polite',
        // The one face that says "clients": the status bar counts connections (any request), the
        // Server view user agents.
        title:
          "A client is a User-Agent on one TCP connection that sent a LIST or WATCH. Connections are joined only where one Kubectl-Session header proves one kubectl process, or by an inference the client's Connection line names. The status bar counts every connection, discovery too; the Server view counts user agents.",
      },
    });
    const search = textField({
      label: 'Search clients by user agent or connection',
      placeholder: 'Search user agent, connection…',
      onInput: (value) => {
        this.search = value;
        this.requery();
      },
    });
    // In a narrow table (1100 px with the side bar open, 1400 px beside the detail pane) these fold
    // into the detail pane, which says each of them, first to last: a user reads the client, its
    // faults, relists and 410s first.
    const foldRank: Record<string, number> = {
      lists: 1,
      watches: 2,
      restarts: 3,
      connection: 4,
      expired: 5,
      relistCost: 6,
    };
    const num = (
      id: string,
      title: string,
      width: string,
      value: (f: ClientFigures) => number,
      description: string,
    ) => ({
      id,
      title,
      width,
      align: 'end' as const,
      description,
      fold: foldRank[id],
      render: (r: Row, c: HTMLElement) => {
        const n = value(r.figures);
        c.textContent = n ? formatCount(n) : '—';
      },
      sortKey: (r: Row) => value(r.figures),
    });
    this.table = new VirtualTable<Row>({
      label: 'Clients',
      rowKey: (r) => r.client.id,
      rowClass: (r) => (r.client.firstAt > this.at ? 'future' : ''),
      onSelect: (r) => {
        this.selectedId = r.client.id;
        this.renderDetail();
      },
      emptyText: 'This run has no client requests.',
      onFold: (titles) => {
        this.folded.hidden = titles.length === 0;
        this.folded.textContent = titles.length
          ? `Narrow table: ${titles.join(', ')} in the selected client's detail`
          : '';
        this.folded.title = titles.length
          ? `The table is too narrow for every column: ${titles.join(', ')} are not drawn; select a client to read them in its detail.`
          : '';
      },
      // Two lines: a long user agent, relist cost or fault list reads whole in a narrow table.
      lines: 2,
      columns: [
        {
          id: 'client',
          title: 'Client',
          width: 'minmax(10em, 1.2fr)',
          wrap: true,
          description: 'The User-Agent (its product/version; the whole in the tooltip)',
          render: (r, c) => {
            c.textContent = visibleText(shortClientName(r.client.client)) || '—';
            c.title = r.client.client;
          },
          sortKey: (r) => r.client.client,
        },
        {
          id: 'connection',
          title: 'Connection',
          width: '7.5em',
          fold: foldRank.connection,
          description: 'The TCP connection (live runs)',
          render: (r, c) => {
            c.textContent = connectionText(r.client) || '—';
            c.title = r.client.grouping ?? '';
          },
          sortKey: (r) => r.client.connection ?? '',
        },
        num(
          'lists',
          'LISTs',
          '4.5em',
          (f) => f.lists,
          'LIST requests (pages) sent by the scrubber',
        ),
        num('watches', 'WATCHes', '6.5em', (f) => f.watches, 'WATCH requests sent by the scrubber'),
        num(
          'expired',
          '410s',
          '4em',
          (f) => f.expired,
          'LIST pages and WATCHes answered or ended with 410',
        ),
        num(
          'restarts',
          'Restarts',
          '6.5em',
          (f) => f.restarts,
          'WATCHes sent again after one ended',
        ),
        num('relists', 'Relists', '5.5em', (f) => f.relists, relistRule),
        {
          id: 'relistCost',
          title: 'Relist cost',
          width: 'minmax(11em, 2.2fr)',
          wrap: true,
          fold: foldRank.relistCost,
          description: "The relists' answered pages by the scrubber",
          render: (r, c) => {
            const cost = r.figures.relistCost;
            const wl = r.figures.watchListRelists;
            // A WatchList relist's initial events are not told apart from its watch's: no cost.
            const wlText = wl ? `${formatCount(wl)} WatchList, not costed` : '';
            c.textContent =
              r.figures.relists > wl
                ? `${formatCount(cost.items)} items, ${formatCount(cost.etcdRequests)} etcd, ${formatCount(cost.ms)} ms${wl ? ` + ${wlText}` : ''}`
                : wl
                  ? `— (${wlText})`
                  : '—';
            c.title = r.figures.relists > wl ? costText(cost) : '';
          },
          sortKey: (r) => r.figures.relistCost.keysFetched,
        },
        {
          id: 'faults',
          title: 'Faults',
          width: 'minmax(10em, 1.8fr)',
          wrap: true,
          description:
            'Live runs: each fault that touched the client by the scrubber, and the time from it to the first successful retry, re-watch or relist',
          render: (r, c) => {
            const markers = faultMarkers(r.reported, this.at);
            c.textContent = markers.length ? markers.join(' · ') : '—';
            c.title = (r.reported?.faults ?? [])
              .filter((f) => f.at <= this.at)
              .map((f) => `#${f.id ?? '?'} ${f.name}: ${f.hits} hit(s), ${f.recovery}`)
              .join('\n');
          },
          sortKey: (r) => faultMarkers(r.reported, this.at).length,
        },
      ],
    });
    this.detail = h('div', {
      class: 'detail',
      attrs: { role: 'region', 'aria-label': 'Selected client' },
    });
    const legendBlock = columnLegend(legend);
    this.element = h(
      'div',
      { class: 'clients-view' },
      h('div', { class: 'toolbar' }, search.element, this.count, this.folded),
      legendBlock,
      h(
        'div',
        { class: 'split even' },
        h('div', { class: 'split-main' }, this.table.element),
        this.detail,
      ),
    );
  }

  setRun(model: PanelModel, runId: string, at: number): void {
    this.model = model;
    this.runId = runId;
    this.at = at;
    this.clients = [];
    this.total = model.clientCount;
    this.matching = 0;
    this.selectedId = undefined;
    this.rebuild();
    this.requery();
  }

  /** The same run grew (a live run's batch): the clients are asked again, search and selection kept. */
  updateRun(model: PanelModel, at: number): void {
    this.model = model;
    this.at = at;
    this.total = model.clientCount;
    this.requery();
  }

  /** The host's answer to a query (a stale one, for another run or search, is dropped). */
  setClients(
    runId: string,
    answer: {
      requestId: number;
      total: number;
      matching: number;
      clients: ClientRecord[];
      reported?: Record<string, ClientReported>;
    },
  ): void {
    if (runId !== this.runId || answer.requestId !== this.pending) return;
    this.pending = undefined;
    this.clients = answer.clients;
    this.reported = answer.reported ?? {};
    this.total = answer.total;
    this.matching = answer.matching;
    this.rebuild();
  }

  setTime(at: number): void {
    this.at = at;
    this.rebuild();
  }

  select(id: string): void {
    this.selectedId = id;
    this.table.select(id);
    this.renderDetail();
  }

  private requery(): void {
    if (!this.model) return;
    this.pending = this.options.query(this.search);
  }

  private rebuild(): void {
    this.table.setRows(
      this.clients.map((client) => ({
        client,
        figures: clientFiguresAt(client, this.at),
        reported: this.reported[client.id],
      })),
    );
    if (this.selectedId) this.table.select(this.selectedId, false);
    this.updateCount();
    this.renderDetail();
  }

  private updateCount(): void {
    const by = formatVirtualTime(this.at);
    const active = this.clients.filter((c) => c.firstAt <= this.at).length;
    const shown =
      this.matching > this.clients.length
        ? ` · the ${formatCount(this.clients.length)} most eventful of ${formatCount(this.matching)} shown (search to find others)`
        : '';
    this.count.textContent =
      this.total === 0
        ? 'No client requests in this run'
        : `${plural(this.total, 'client')} in the run · ${formatCount(active)} had sent a request by ${by}${shown}`;
  }

  private renderDetail(): void {
    const c = this.clients.find((x) => x.id === this.selectedId);
    if (!c) {
      replaceChildren(
        this.detail,
        h('p', {
          class: 'hint',
          text: this.total
            ? 'Select a client to see its requests in time order: LIST pages with their continue chains, watches with their states, restarts and relists.'
            : 'Nothing to show: no client sent a request in this run.',
        }),
      );
      return;
    }
    const f = clientFiguresAt(c, this.at);
    const facts: Array<[string, string]> = [
      ['User-Agent', visibleText(c.client)],
      ...(c.connection
        ? [
            ['Connection', c.grouping ? `${c.connection} (${c.grouping})` : c.connection] as [
              string,
              string,
            ],
          ]
        : []),
      [
        `By ${formatVirtualTime(this.at)}`,
        `${plural(f.lists, 'LIST')}, ${plural(f.watches, 'WATCH', { many: 'WATCHes' })} · 410s: ${formatCount(f.expired)} · restarts: ${formatCount(f.restarts)} · relists: ${formatCount(f.relists)}`,
      ],
    ];
    if (f.relists > f.watchListRelists) facts.push(['Relist cost', costText(f.relistCost)]);
    if (f.watchListRelists)
      facts.push([
        'WatchList relists',
        `${formatCount(f.watchListRelists)}: by a WATCH with sendInitialEvents=true; their initial events are not told apart from their watch's, so not costed`,
      ]);
    const reported = this.reported[c.id];
    if (reported) {
      const answers = Object.entries(reported.answers)
        .map(([code, n]) => `${code}×${formatCount(n)}`)
        .join(' ');
      if (answers)
        facts.push([
          'Answers (the run)',
          `${answers} · ${plural(reported.bytesSent, 'byte')} sent`,
        ]);
      const syncs = reported.watchListSyncs.filter((w) => w.at <= this.at);
      if (syncs.length)
        facts.push([
          'WatchList syncs',
          `${formatCount(syncs.filter((w) => w.ended && (w.endedAt ?? 0) <= this.at).length)} ended with the initial-events-end bookmark, of ${formatCount(syncs.length)}`,
        ]);
      for (const f of reported.faults.filter((x) => x.at <= this.at))
        facts.push([
          `⚡ Fault ${f.id === null ? '' : `#${f.id} `}${f.name}`,
          `${f.hits ? plural(f.hits, 'request') + ' hit' : 'its watch was open'} at ${formatVirtualTime(f.at)}; ${f.recovery}`,
        ]);
    }
    const sent = c.requests.filter((r) => r.at <= this.at);
    const items = sent.map((r) => (r.kind === 'list' ? this.listItem(c, r) : this.watchItem(c, r)));
    const later = c.requests.length - sent.length;
    replaceChildren(
      this.detail,
      h('h2', { text: visibleText(shortClientName(c.client)) || '—', attrs: { title: c.client } }),
      h(
        'dl',
        { class: 'facts' },
        ...facts.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })]),
      ),
      h('h3', { text: 'Requests in time order' }),
      items.length
        ? h('ol', { class: 'client-requests' }, ...items)
        : h('p', { class: 'hint', text: `No request sent by ${formatVirtualTime(this.at)}.` }),
      later > 0 &&
        h('p', {
          class: 'hint',
          text: `${plural(later, 'more request')} later in the run (move the scrubber on).`,
        }),
    );
  }

  private chainText(c: ClientRecord, chain: ClientListChain, index: number): string {
    const sent = chain.pages
      .map((i) => c.requests[i] as ClientListRequest)
      .filter((r) => r.at <= this.at);
    const pagesSent = sent.filter((r) => r.retryOf === undefined).length;
    const retries = sent.length - pagesSent;
    const last = c.requests[chain.pages[chain.pages.length - 1]] as ClientListRequest;
    const done =
      last.endedAt !== undefined && last.endedAt <= this.at && sent.length === chain.pages.length;
    const outcome = !done
      ? 'in progress'
      : chain.outcome === 'complete'
        ? 'complete'
        : chain.outcome === 'expired'
          ? `broken by 410 Expired${chain.restartedBy !== undefined && this.chainStarted(c, chain.restartedBy) ? `, restarted from scratch as chain ${chain.restartedBy + 1}` : ''}`
          : chain.outcome === 'error'
            ? 'failed'
            : 'more to read, no page followed';
    return `chain ${index + 1}: ${plural(pagesSent, 'page')}${retries ? ` (${plural(retries, 'retry', { many: 'retries' })})` : ''}, ${outcome}${chain.orphan ? ' (its first token came from no page seen here)' : ''}`;
  }

  private chainStarted(c: ClientRecord, chain: number): boolean {
    return c.requests[c.chains[chain].pages[0]].at <= this.at;
  }

  private listItem(c: ClientRecord, r: ClientListRequest): HTMLElement {
    const chain = c.chains[r.chain];
    const answered = r.endedAt !== undefined && r.endedAt <= this.at;
    // The rule is said once per chain, and again where a later page was served otherwise.
    const place = chain.pages.findIndex((i) => c.requests[i] === r);
    const prev = place > 0 ? (c.requests[chain.pages[place - 1]] as ClientListRequest) : undefined;
    const sameRule = prev !== undefined && prev.rule === r.rule && prev.servedBy === r.servedBy;
    // A LIST answered whole in one page is no chain worth naming.
    const paged = chain.pages.length > 1 || chain.outcome !== 'complete' || !!chain.orphan;
    const lines: HTMLElement[] = [
      h(
        'div',
        { class: 'client-request-head' },
        h('span', { class: 'time', text: formatVirtualTime(r.at) }),
        h('strong', { text: 'LIST' }),
        answered
          ? h('span', {
              class: `served served-${r.error ? 'error' : r.servedBy}`,
              text: r.error ? String(r.error.code) : r.servedBy,
              attrs: { title: r.error ? statusText(r.error) : r.rule },
            })
          : h('span', { class: 'served', text: 'in progress' }),
        paged &&
          h('span', {
            class: 'chain-tag',
            text: `chain ${r.chain + 1} · page ${r.page + 1}${r.retryOf !== undefined ? ' · retry' : ''}`,
          }),
        replicaTag(r.replica),
        button(
          {
            label: `Show ${r.listId} in Lists`,
            appearance: 'secondary',
            onClick: () => this.options.onSelectList(r.listId),
          },
          'In Lists',
        ),
      ),
      h('div', {
        class: 'request-path',
        text: visibleText(r.request),
        attrs: { title: r.request },
      }),
    ];
    if (r.continueFrom)
      lines.push(
        h('div', {
          text:
            'error' in r.continueFrom
              ? `continue token: ${r.continueFrom.error}`
              : `continues from start key "${visibleText(r.continueFrom.startKey)}" at rv ${r.continueFrom.resourceVersion} (DecodeContinue)`,
        }),
      );
    if (r.retryOf !== undefined)
      lines.push(
        h('div', {
          text: listRetryText(r, c.requests[r.retryOf] as ClientListRequest),
        }),
      );
    if (place === 0 && chain.relist) {
      const w = c.requests[chain.relist.afterWatch] as ClientWatchRequest;
      lines.push(
        h('div', {
          class: 'relist',
          text: `relist: ${formatCount(chain.relist.gapMs)} ms after the watch of ${formatVirtualTime(w.at)} ended (${endLabels[chain.relist.because]}); its pages by now cost ${costText(chainCostAt(c, chain, this.at))}`,
        }),
      );
    }
    if (answered) {
      lines.push(
        h('div', {
          class: 'hint',
          text: r.error
            ? statusText(r.error)
            : `${sameRule ? '' : `${r.rule} · `}${costText(r.cost)}${r.hasMore ? ' · continue: more pages' : ''}`,
        }),
      );
      if (paged && (place === chain.pages.length - 1 || !r.hasMore || r.error))
        lines.push(h('div', { class: 'chain-summary', text: this.chainText(c, chain, r.chain) }));
    }
    return h('li', { class: `client-request list${chain.relist ? ' is-relist' : ''}` }, ...lines);
  }

  private watchItem(c: ClientRecord, w: ClientWatchRequest): HTMLElement {
    const phase = clientWatchPhaseAt(w, this.at);
    // Without sendInitialEvents, WaitingForBookmark is only the moment before the watch is
    // registered (watcherStateText): no initial events were sent.
    const initialEvents = /[?&]sendInitialEvents=true(&|$)/.test(w.request);
    const states = w.states
      .filter((s) => s.at <= this.at)
      .map(
        (s) =>
          `${s.state === 'WaitingForBookmark' && !initialEvents ? openingStateLabel : watcherStateLabels[s.state]} (${formatVirtualTime(s.at)})`,
      );
    const ended = phase === 'ended' && w.end;
    const head = h(
      'div',
      { class: 'client-request-head' },
      h('span', { class: 'time', text: formatVirtualTime(w.at) }),
      h('strong', { text: 'WATCH' }),
      h('span', {
        class: `served served-${ended ? (w.end?.how === 'timeout' || w.end?.how === 'client-closed' ? 'cache' : 'error') : 'etcd'}`,
        text: ended && w.end ? endLabels[w.end.how] : phase === 'pending' ? 'waiting' : 'open',
      }),
      w.watcherId !== undefined &&
        h('span', { class: 'chain-tag', text: `watcher ${w.watcherId}` }),
      replicaTag(w.replica),
      w.watcherId !== undefined &&
        button(
          {
            label: `Show watcher ${w.watcherId} in Watchers`,
            appearance: 'secondary',
            onClick: () => this.options.onSelectWatcher(w.watcherId as string),
          },
          'In Watchers',
        ),
    );
    const lines: HTMLElement[] = [
      head,
      h('div', {
        class: 'request-path',
        text: visibleText(w.request),
        attrs: { title: w.request },
      }),
    ];
    if (w.restart) {
      const prev = c.requests[w.restart.after] as ClientWatchRequest;
      lines.push(
        h('div', {
          class: 'restart',
          text: `restart: the watch sent at ${formatVirtualTime(prev.at)} had ended; ${w.restart.fromLastRv ? `this one resumes from its last RV ${w.resourceVersion}` : w.resourceVersion ? `this one asks for rv ${w.resourceVersion} (the last RV it read: ${prev.lastRv || 'none'})` : 'this one asks for no resourceVersion (the newest)'}`,
        }),
      );
    }
    if (w.listByWatch) {
      const prev =
        w.listByWatch.after === undefined
          ? undefined
          : (c.requests[w.listByWatch.after] as ClientWatchRequest);
      lines.push(
        h('div', {
          class: 'restart',
          text: `a LIST sent as a watch (sendInitialEvents, no timeoutSeconds): client-go's List streams when WatchListClient is on${prev?.end ? `; sent after the watch of ${formatVirtualTime(prev.at)} ended (${endLabels[prev.end.how]}), as a reflector falls back to LIST when its WatchList fails` : ''}`,
        }),
      );
    }
    if (w.relist) {
      const prev = c.requests[w.relist.afterWatch] as ClientWatchRequest;
      lines.push(
        h('div', {
          class: 'relist',
          text: `relist, a ${relistViaText['watch-list']}: ${formatCount(w.relist.gapMs)} ms after the watch of ${formatVirtualTime(prev.at)} ended (${endLabels[w.relist.because]})`,
        }),
      );
    }
    if (states.length) lines.push(h('div', { text: `states: ${states.join(' → ')}` }));
    // Open at the end of the run: its figures are the run's last (scrubbed back, how it stands).
    if (!w.end && w.watcherId !== undefined && this.at >= (this.model?.durationMs ?? 0))
      lines.push(
        h('div', {
          class: 'hint',
          text: `still open at the end of the run · ${formatCount(w.received)} events and bookmarks read, last RV ${w.lastRv || '—'}`,
        }),
      );
    if (ended && w.end)
      lines.push(
        h('div', {
          class: 'hint',
          text: `${w.watcherId === undefined ? `answered at ${formatVirtualTime(w.end.at)}${w.end.at > w.at ? `, after ${formatVirtualTime(w.end.at - w.at)}` : ''}, with no watcher` : `ended at ${formatVirtualTime(w.end.at)}`}: ${w.end.text}${w.watcherId !== undefined ? ` · ${formatCount(w.received)} events and bookmarks read, last RV ${w.lastRv || '—'}` : ''}`,
        }),
      );
    return h('li', { class: `client-request watch${w.relist ? ' is-relist' : ''}` }, ...lines);
  }

  /** For the UI tests: the rows as shown (short name, connection, the counted columns). */
  rows(): string[][] {
    return this.table
      .displayed()
      .map((r) => [
        shortClientName(r.client.client),
        r.client.connection ?? '',
        String(r.figures.lists),
        String(r.figures.watches),
        String(r.figures.expired),
        String(r.figures.restarts),
        String(r.figures.relists),
      ]);
  }
}

/** `serve --replicas N`: which apiserver replica served the request (none with one). */
function replicaTag(replica: number | undefined): HTMLElement | false {
  return (
    replica !== undefined &&
    h('span', {
      class: 'chain-tag',
      text: `replica ${replica}`,
      attrs: { title: 'the apiserver replica of serve --replicas that served it' },
    })
  );
}

// The Replay tab: a replayed import's requests, what the log said the real apiserver answered
// beside what the engine answered, the disagreements highlighted and counted; and, for a what-if
// run, the two runs side by side (etcd calls, fetched objects, 410s, waits, by client). Everything
// from the logs (user agents, URLs, messages) is text, never HTML. No upstream counterpart.
import { formatVirtualTime } from '../src/run/views/watcher-states';
import type { PanelModel, ReplayPanel, ReplayRow, RunComparison } from '../src/protocol';
import { formatCount } from '../src/format/count-text';
import { replayCountText } from '../src/run/views/replay-count';
import { h, replaceChildren, visibleText } from './dom';
import { VirtualTable, type TableColumn } from './virtual-table';

const figureTitles: ReadonlyArray<[keyof RunComparison['total']['a'], string]> = [
  ['lists', 'LISTs'],
  ['watches', 'WATCHes'],
  ['etcdCalls', 'etcd calls'],
  ['fetchedObjects', 'fetched objects'],
  ['http410', '410s'],
  ['waits', 'waits'],
  ['waitedMs', 'waited ms'],
  ['disagreements', 'disagreements'],
];

export class ReplayView {
  readonly element: HTMLElement;
  private readonly empty = h('p', { class: 'empty-tab', attrs: { role: 'status' } });
  private readonly summary = h('p', { class: 'replay-summary', attrs: { role: 'status' } });
  private readonly comparison = h('section', { class: 'replay-comparison' });
  private readonly body: HTMLElement;
  private readonly table: VirtualTable<ReplayRow>;
  private rows: ReplayRow[] = [];

  constructor(private readonly onSelectList: (id: string) => void) {
    const columns: Array<TableColumn<ReplayRow>> = [
      {
        id: 'at',
        title: 'Time',
        width: '6em',
        align: 'end',
        render: (r, c) => (c.textContent = formatVirtualTime(r.at)),
        sortKey: (r) => r.at,
      },
      {
        id: 'kind',
        title: 'Verb',
        width: '5em',
        render: (r, c) => (c.textContent = r.kind.toUpperCase()),
        sortKey: (r) => r.kind,
      },
      {
        id: 'client',
        title: 'Client',
        width: 'minmax(8em, 1fr)',
        render: (r, c) => {
          c.textContent = visibleText(r.client);
          c.title = c.textContent;
        },
        sortKey: (r) => r.client,
      },
      {
        id: 'request',
        title: 'Request',
        width: 'minmax(12em, 2fr)',
        render: (r, c) => {
          c.textContent = visibleText(r.request);
          c.title = visibleText(r.request);
        },
        sortKey: (r) => r.request,
      },
      {
        id: 'logged',
        title: 'Log said',
        width: 'minmax(10em, 1.2fr)',
        description: 'What the log says the real apiserver answered (only what the log knows)',
        render: (r, c) => {
          c.textContent = visibleText(r.logged);
          c.title = c.textContent;
        },
      },
      {
        id: 'engine',
        title: 'Engine answered',
        width: 'minmax(10em, 1.2fr)',
        description: 'What the engine answered the same request, re-issued in virtual time',
        render: (r, c) => {
          c.textContent = r.engine;
          c.title = r.engine;
        },
      },
      {
        id: 'disagrees',
        title: 'Disagreement',
        width: '10em',
        description:
          "What differs: status (e.g. 410 vs 200), items, continue (more pages or not), remainingItemCount (its value, or present vs absent), duration (the engine ended the watch earlier); 'not modelled': the log's 429 or 5xx, a fault or overload the replay does not model; 'not reproduced': an answer the replay could not re-create (hover for why); 'agrees, not its latency': the answer agrees but the log shows it took a time the replay did not (hover for what it suggests)",
        render: (r, c) => {
          // A log fault the replay does not model, or an answer it could not re-create, neither
          // agrees nor disagrees: said as that.
          c.textContent = r.disagrees.length
            ? `≠ ${r.disagrees.join(', ')}`
            : r.notReproduced
              ? 'not reproduced'
              : r.notModelled
                ? 'not modelled'
                : r.latencyNotReproduced
                  ? 'agrees, not its latency'
                  : 'agrees';
          c.title = r.notReproduced ?? r.notModelled ?? r.latencyNotReproduced ?? c.textContent;
          c.classList.toggle('replay-disagrees', r.disagrees.length > 0);
          c.classList.toggle(
            'replay-not-modelled',
            !r.disagrees.length && !!(r.notModelled ?? r.notReproduced ?? r.latencyNotReproduced),
          );
        },
        sortKey: (r) => (r.disagrees.length ? 0 : 1),
      },
    ];
    this.table = new VirtualTable<ReplayRow>({
      label: 'Replayed requests: the log beside the engine',
      columns,
      rowKey: (r) => `${r.kind}:${r.at}:${r.listId ?? r.request}`,
      rowClass: (r) => (r.disagrees.length ? 'replay-row-disagrees' : ''),
      onSelect: (r) => {
        if (r.listId) this.onSelectList(r.listId);
      },
      emptyText: 'No re-issued request has an answer in the log to compare with.',
    });
    this.body = h(
      'div',
      {},
      this.summary,
      this.comparison,
      h('h3', { text: 'Requests: the log beside the engine' }),
      h('p', {
        class: 'hint',
        text: "resourceVersions and continue tokens are not compared by value: the engine's etcd has its own revisions. Items are compared only for LISTs without selectors: the log does not say seeded objects' labels, so each filtered LIST's selectors are given to as many objects as its answers matched.",
      }),
      h('div', { class: 'table-slot replay-table' }, this.table.element),
    );
    this.element = h('div', { class: 'scroll-view replay-view' }, this.empty, this.body);
  }

  setRun(model: PanelModel): void {
    const replay = model.replay;
    this.empty.hidden = replay !== undefined;
    this.body.hidden = replay === undefined;
    if (!replay) {
      this.empty.textContent =
        'This run is not a replay of imported logs. Import audit or client logs with "List/Watch: Import Logs as Run…" to see, request by request, what the engine answers next to what the log says the server answered.';
      return;
    }
    this.rows = replay.rows;
    this.summary.textContent = summaryText(replay);
    this.summary.classList.toggle('replay-has-disagreements', replay.count.disagreements > 0);
    this.renderComparison(replay.comparison);
    this.table.setRows(this.rows);
  }

  /** The rows the table holds (tests). */
  rowCount(): number {
    return this.rows.length;
  }

  private renderComparison(c: RunComparison | undefined): void {
    this.comparison.hidden = c === undefined;
    if (!c) return replaceChildren(this.comparison);
    const head = h(
      'tr',
      {},
      h('th', { text: 'Client' }),
      ...figureTitles.flatMap(([, title]) => [
        h('th', { class: 'num', text: `${title}: ${c.a}` }),
        h('th', { class: 'num', text: c.b }),
      ]),
    );
    const rows = [...c.clients, c.total].map((row) =>
      h(
        'tr',
        { class: row === c.total ? 'replay-total' : '' },
        h('td', { text: visibleText(row.client || '(the cacher)') }),
        ...figureTitles.flatMap(([key]) => {
          const a = row.a[key];
          const b = row.b[key];
          return [
            h('td', { class: 'num', text: formatCount(a) }),
            h('td', { class: `num${a !== b ? ' replay-changed' : ''}`, text: formatCount(b) }),
          ];
        }),
      ),
    );
    replaceChildren(
      this.comparison,
      h('h3', { text: `Side by side: baseline (${c.a}) and what-if (${c.b})` }),
      h(
        'table',
        { class: 'plain', attrs: { 'aria-label': 'Baseline and what-if side by side' } },
        h('thead', {}, head),
        h('tbody', {}, ...rows),
      ),
    );
  }
}

function summaryText(r: ReplayPanel): string {
  const dropped = r.rowsDropped ? ` (${formatCount(r.rowsDropped)} agreeing rows not shown)` : '';
  const shown = r.count.disagreements ? `; the disagreeing rows are highlighted below` : '';
  return `${replayCountText(r.count)}${shown}${dropped}.`;
}

// The Import tab: the analysis of the logs a run was imported from (RunModel.imported,
// src/import/import-report.ts). What was read and assumed, the clients (user agent) with their
// counts, and for the selected one its pagination chains with the decoded continue tokens page by
// page, the 410 and the restart, its watches and how they ended, its relists and latency; then
// the relist storms, how each request shape would be served, and the rejected lines with their
// file and line. Everything from a log enters the page as text (dom.ts), never as HTML. Shown only
// for a run that has `imported`. No upstream counterpart.
import type {
  ImportReport,
  ImportedClient,
  ImportSummary,
  PaginationChain,
  PanelModel,
} from '../src/protocol';
import {
  chainOrphanText,
  chainOutcomeText,
  chainPagesText,
  chainRestartText,
  chainRetryTexts,
  chainTokenText,
  joinsText,
  singleListsText,
} from '../src/run/views/chain-text';
import {
  importedClientName,
  shortClientName,
  shortImportedClientNames,
} from '../src/run/views/client-name';
import { relistClientText, relistViaText } from '../src/run/relist-rule';
import { latencyBasisText } from '../src/run/views/latency-text';
import { formatCount, plural } from '../src/format/count-text';
import { h, replaceChildren, visibleText, type Child } from './dom';

function iso(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : new Date(ms).toISOString().replace('T', ' ');
}

function summaryText(s: ImportSummary, unit: string): string {
  if (s.count === 0) return '—';
  return `n ${formatCount(s.count)} · min ${s.min}${unit} · median ${s.median}${unit} · p99 ${s.p99}${unit} · max ${s.max}${unit}${s.exact ? '' : ' (≈1%)'}`;
}

function counts(m: Record<string, number>): string {
  const e = Object.entries(m)
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]);
  return e.length ? e.map(([k, v]) => `${visibleText(k)} ${formatCount(v)}`).join(', ') : 'none';
}

function facts(pairs: Array<[string, string]>): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    ...pairs.flatMap(([k, v]) => [h('dt', { text: k }), h('dd', { text: v })]),
  );
}

function section(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'import-section' }, h('h3', { text: title }), ...children);
}

const modeLabels: Record<ImportedClient['mode'], string> = {
  'watch-list': 'WatchList',
  'list-watch': 'LIST + WATCH',
  'watch-list+list': 'WatchList and LISTs',
  'list-only': 'LISTs only',
  'watch-only': 'WATCHes only',
  none: 'other requests',
};

export class ImportView {
  readonly element: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly clientsBody: HTMLTableSectionElement;
  private readonly detail: HTMLElement;
  private readonly rest: HTMLElement;
  private report: ImportReport | undefined;
  private selected: string | undefined;

  constructor() {
    this.summary = h('div', { class: 'import-summary' });
    this.clientsBody = h('tbody');
    const head = h(
      'tr',
      {},
      ...[
        'Client',
        'Lists as',
        'Requests',
        'LISTs',
        'WATCHes',
        '410',
        '429',
        '504',
        'Relists',
        'Chains',
        'Watch median',
      ].map((t, i) => h('th', { class: i > 1 ? 'num' : '', text: t, attrs: { scope: 'col' } })),
    );
    this.detail = h('div', {
      class: 'import-client',
      attrs: { role: 'region', 'aria-label': 'Selected client' },
    });
    this.rest = h('div', { class: 'import-rest' });
    this.element = h(
      'div',
      { class: 'import-view scroll-view' },
      this.summary,
      section(
        'Clients',
        h(
          'table',
          { class: 'plain import-clients', attrs: { 'aria-label': 'Imported clients' } },
          h('thead', {}, head),
          this.clientsBody,
        ),
      ),
      this.detail,
      this.rest,
    );
  }

  setRun(model: PanelModel): void {
    this.report = model.imported;
    const first = this.report?.clients[0];
    this.selected = first ? importedClientName(first) : undefined;
    this.render();
  }

  /** For the UI tests: the clients table as shown. */
  rows(): string[][] {
    return Array.from(this.clientsBody.rows, (r) =>
      Array.from(r.cells, (c) => c.textContent ?? ''),
    );
  }

  private render(): void {
    const r = this.report;
    if (!r) {
      replaceChildren(
        this.summary,
        h('p', { class: 'hint', text: 'This run was not imported from logs.' }),
      );
      replaceChildren(this.clientsBody);
      replaceChildren(this.detail);
      replaceChildren(this.rest);
      return;
    }
    const y = r.assumptions.year;
    const joins = joinsText(r);
    replaceChildren(
      this.summary,
      facts([
        [
          'Read',
          `${plural(r.requests.total, 'request')} from ${plural(r.lines, 'line')} (${formatCount(r.skipped)} skipped, ${formatCount(r.rejected.count)} rejected)`,
        ],
        ['Span', `${iso(r.span.from)} – ${iso(r.span.to)}`],
        [
          'Assumed',
          `${y ? `year ${y.value} (${visibleText(y.from)}), ` : ''}time zone ${r.assumptions.timeZone}; served as under profile ${r.profile}`,
        ],
        ...(joins !== undefined ? [['Joined across files', joins] as [string, string]] : []),
        ['By verb', counts(r.requests.byVerb)],
        ['By code', counts(r.requests.byCode)],
        [
          'Watches',
          `${formatCount(r.watches.total)} (${formatCount(r.watches.watchLists)} WatchList) · started before the log ${formatCount(r.watches.startedBeforeLog)} · open at its end ${formatCount(r.watches.openAtEnd)} · ended: ${counts(r.watches.byEnd)}`,
        ],
        ...(r.watches.watchLists > 0 && r.watches.initialListsSeconds?.count
          ? [
              [
                'WatchList lists',
                `${summaryText(r.watches.initialListsSeconds, ' s')} (to the bookmark that ends the initial events; the watch goes on)`,
              ] as [string, string],
            ]
          : []),
      ]),
    );
    // Each process a client log names is a client of its own, named by it after its User-Agent.
    const names = shortImportedClientNames(r.clients);
    replaceChildren(
      this.clientsBody,
      ...r.clients.map((c) => this.clientRow(c, names.get(importedClientName(c)) ?? '')),
    );
    this.renderDetail();
    replaceChildren(
      this.rest,
      this.storms(r, names),
      this.servedAs(r),
      this.rejected(r),
      this.rules(r),
    );
  }

  private clientRow(c: ImportedClient, name: string): HTMLTableRowElement {
    const id = importedClientName(c);
    const selected = id === this.selected;
    const cells: Array<[string, boolean]> = [
      [visibleText(name) || '(none)', false],
      [modeLabels[c.mode], false],
      ...[
        c.requests,
        c.lists,
        c.watches,
        c.http410,
        c.http429,
        c.http504,
        c.relists,
        c.chainsTotal,
      ].map((v) => [formatCount(v), true] as [string, boolean]),
      [c.watchDurationsSeconds.median === null ? '—' : `${c.watchDurationsSeconds.median} s`, true],
    ];
    const row = h(
      'tr',
      {
        class: selected ? 'selected' : '',
        attrs: {
          tabindex: 0,
          'aria-selected': selected ? 'true' : 'false',
          title: visibleText(id),
        },
      },
      ...cells.map(([t, num]) => h('td', { class: num ? 'num' : '', text: t })),
    );
    const choose = () => {
      this.selected = id;
      for (const tr of Array.from(this.clientsBody.rows)) {
        const on = tr === row;
        tr.classList.toggle('selected', on);
        tr.setAttribute('aria-selected', on ? 'true' : 'false');
      }
      this.renderDetail();
    };
    row.addEventListener('click', choose);
    row.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        choose();
      }
    });
    return row;
  }

  private renderDetail(): void {
    const c = this.report?.clients.find((x) => importedClientName(x) === this.selected);
    if (!c) {
      replaceChildren(
        this.detail,
        h('p', { class: 'hint', text: 'Select a client to see its chains, watches and relists.' }),
      );
      return;
    }
    const latency = Object.entries(c.latencyMs).map(
      ([verb, s]) => [`Latency ${visibleText(verb)}`, summaryText(s, ' ms')] as [string, string],
    );
    replaceChildren(
      this.detail,
      h('h2', { text: visibleText(importedClientName(c)) || '(no user agent)' }),
      facts([
        [
          'Users',
          `${c.users.map((u) => visibleText(u)).join(', ') || '—'}${c.usersDropped ? ` and ${formatCount(c.usersDropped)} more` : ''}`,
        ],
        ['Lists as', modeLabels[c.mode]],
        ['By verb', counts(c.byVerb)],
        ['By code', counts(c.byCode)],
        ['Watch durations', summaryText(c.watchDurationsSeconds, ' s')],
        [
          'Watches outside the log',
          `${formatCount(c.watchesStartedBeforeLog)} started before it, ${formatCount(c.watchesOpenAtEnd)} open at its end (no duration given)`,
        ],
        ...latency,
        ...(latency.length
          ? [['Latency measured from', latencyBasisText] as [string, string]]
          : []),
      ]),
      this.chains(c),
      this.watches(c),
      this.relists(c),
    );
  }

  private chains(c: ImportedClient): HTMLElement {
    const items = c.paginationChains.map((x) => this.chainItem(x));
    return section(
      `Pagination chains (${formatCount(c.chainsTotal)}${c.chainsDropped ? `, ${formatCount(c.chainsDropped)} not kept` : ''})`,
      items.length
        ? h('ol', { class: 'client-requests import-chains' }, ...items)
        : h('p', { class: 'hint', text: c.lists ? 'No pagination chain.' : 'No LIST.' }),
      c.singleLists > 0 &&
        h('p', {
          class: 'import-single-lists',
          text: singleListsText(c.singleLists, c.singleListsRetried),
        }),
    );
  }

  private chainItem(x: PaginationChain): HTMLElement {
    const outcome = chainOutcomeText(x);
    const lines: Child[] = [
      h(
        'div',
        { class: 'client-request-head' },
        h('strong', { text: `chain ${x.id}` }),
        h('span', {
          class: `served served-${x.outcome === 'complete' ? 'cache' : 'error'}`,
          text: outcome,
        }),
        h('span', { class: 'chain-tag', text: chainPagesText(x) }),
      ),
      h('div', {
        class: 'request-path',
        text: visibleText(`${x.path}${x.selector ? `?${x.selector}` : ''}`),
      }),
      h('div', {
        class: 'hint',
        text: `rv ${x.resourceVersion ?? '—'} · from ${visibleText(x.firstLine)} at ${iso(x.startedAt)}${x.user ? ` · ${visibleText(x.user)}` : ''}`,
      }),
    ];
    if (x.orphan) lines.push(h('div', { class: 'hint', text: chainOrphanText }));
    if (x.relist) lines.push(h('div', { class: 'relist', text: 'a relist' }));
    if (x.restartOf)
      lines.push(
        h('div', {
          class: 'restart',
          text: chainRestartText(x.restartOf),
        }),
      );
    for (const t of chainRetryTexts(x)) lines.push(h('div', { class: 'import-retry', text: t }));
    for (const t of x.tokens)
      lines.push(h('div', { class: 'import-token', text: chainTokenText(x, t) }));
    if (x.expired?.message)
      lines.push(h('div', { class: 'hint', text: `410: ${visibleText(x.expired.message)}` }));
    return h(
      'li',
      {
        class: `client-request list${x.relist ? ' is-relist' : ''}`,
        attrs: { 'data-chain': x.id },
      },
      ...lines,
    );
  }

  private watches(c: ImportedClient): HTMLElement {
    const rows = c.watchSamples.map((w) =>
      h(
        'tr',
        {},
        h('td', { text: iso(w.receivedAt) }),
        h('td', { text: w.durationSeconds === null ? '—' : `${w.durationSeconds} s` }),
        h('td', {
          text: `${w.how}${w.code !== undefined && w.code !== 200 ? ` (${w.code})` : ''}${w.text ? `: ${visibleText(w.text)}` : ''}`,
        }),
        h('td', { text: w.watchList ? 'WatchList' : '' }),
        h('td', { class: 'request-path', text: visibleText(w.requestURI) }),
        h('td', { text: visibleText(w.line) }),
      ),
    );
    return section(
      `Watches (${formatCount(c.watches)}${c.watchSamplesDropped ? `; ${formatCount(c.watchSamples.length)} shown, those that ended badly first` : ''})`,
      rows.length
        ? h(
            'table',
            { class: 'plain', attrs: { 'aria-label': 'Watches' } },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ...['Started', 'Lasted', 'Ended', '', 'Request', 'Line'].map((t) =>
                  h('th', { text: t }),
                ),
              ),
            ),
            h('tbody', {}, ...rows),
          )
        : h('p', { class: 'hint', text: 'No WATCH.' }),
    );
  }

  private relists(c: ImportedClient): HTMLElement {
    const items = c.relistDetails.map((x) =>
      h('li', {
        text: `${iso(x.at)} ${relistViaText[x.via]} of ${visibleText(x.resource)}, ${x.gapSeconds} s after its watch ended ${x.because} (${visibleText(x.watchLine)}) · ${visibleText(x.line)}${x.chain !== undefined ? ` · chain ${x.chain}` : ''} · ${visibleText(relistClientText(x))}`,
      }),
    );
    return section(
      `Relists (${formatCount(c.relists)})`,
      items.length
        ? h('ul', { class: 'import-relists' }, ...items)
        : h('p', { class: 'hint', text: 'No relist.' }),
    );
  }

  private storms(r: ImportReport, names: ReadonlyMap<string, string>): HTMLElement {
    const items = r.storms.map((s) =>
      h('li', {
        text: `${s.kind === 'herd' ? `herd of ${formatCount(s.clients)} clients (${(s.userAgents ?? []).map((u) => visibleText(names.get(u) ?? shortClientName(u))).join(', ')})` : visibleText(s.userAgent)}: ${plural(s.relists, 'relist')} ${iso(s.from)} – ${iso(s.to)}, median interval ${s.medianIntervalSeconds ?? '—'} s (window ${s.windowSeconds} s)`,
      }),
    );
    return section(
      `Relist storms (${formatCount(r.storms.length)})`,
      items.length
        ? h('ul', { class: 'import-storms' }, ...items)
        : h('p', { class: 'hint', text: 'No storm.' }),
    );
  }

  private servedAs(r: ImportReport): HTMLElement {
    const rows = r.servedAs.map((s) =>
      h(
        'tr',
        {},
        h('td', {
          class: 'request-path',
          text: visibleText(s.shape),
          attrs: { title: visibleText(s.example) },
        }),
        h('td', { class: 'num', text: formatCount(s.requests) }),
        h('td', {
          text: s.explained
            ? `${s.explained.servedBy}${s.explained.errorCode !== undefined ? ` ${s.explained.errorCode}` : ''}`
            : '—',
        }),
        h('td', {
          text: s.explained
            ? visibleText(s.explained.rule)
            : s.error
              ? `not explained: ${visibleText(s.error)}`
              : 'not explained',
        }),
      ),
    );
    return section(
      `Served as under profile ${r.profile}`,
      rows.length
        ? h(
            'table',
            { class: 'plain', attrs: { 'aria-label': 'Request shapes' } },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ...['Request shape', 'Requests', 'Served by', 'Rule'].map((t) =>
                  h('th', { text: t }),
                ),
              ),
            ),
            h('tbody', {}, ...rows),
          )
        : h('p', { class: 'hint', text: 'No LIST or WATCH.' }),
    );
  }

  private rejected(r: ImportReport): HTMLElement {
    const items = r.rejected.samples.map((x) =>
      h(
        'li',
        {},
        h('strong', { text: `${visibleText(x.file)}:${x.line}` }),
        ` ${visibleText(x.reason)}: `,
        h('code', { text: visibleText(x.text) }),
      ),
    );
    const more = r.rejected.count - r.rejected.samples.length;
    return section(
      `Rejected lines (${formatCount(r.rejected.count)})`,
      items.length
        ? h('ul', { class: 'import-rejected' }, ...items)
        : h('p', { class: 'hint', text: 'None: every line was read.' }),
      more > 0 &&
        h('p', {
          class: 'hint',
          text: `${plural(more, 'more rejected line')} (listwatch import --json has the first ${r.rejected.samples.length}).`,
        }),
    );
  }

  private rules(r: ImportReport): HTMLElement {
    return h(
      'details',
      { class: 'legend' },
      h('summary', { text: 'The rules these figures follow' }),
      facts([
        ['Relist', r.rules.relist],
        ['Chains', r.rules.chains],
        ['Storms', r.rules.storms],
        ['Joins', r.joins.rule],
      ]),
    );
  }
}

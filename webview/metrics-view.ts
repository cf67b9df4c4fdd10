// The Metrics tab: the run's metric samples under their upstream names and labels
// (apiserver_watch_cache_*, apiserver_terminated_watchers_total, etcd_request_duration_seconds…)
// as last scraped at the scrubber's time (histogram buckets in `le` order), searchable, and the
// final ones copyable as Prometheus text exposition (the host writes the clipboard).
import { compareSampleKeys } from '../src/run/views/metric-order';
import { metricsAt } from '../src/run/views/metrics-at-time';
import { formatVirtualTime } from '../src/run/views/watcher-states';
import type { PanelModel } from '../src/protocol';
import { formatCount, plural } from '../src/format/count-text';
import { h, replaceChildren } from './dom';
import { button, textField, type TextFieldHandle } from './toolkit';

export interface MetricsViewOptions {
  onCopy(): void;
  onSearch(text: string): void;
}

/** `name{a="b",c="d"}` split into the name and the label part. */
export function splitSampleKey(key: string): { name: string; labels: string } {
  const brace = key.indexOf('{');
  return brace < 0
    ? { name: key, labels: '' }
    : { name: key.slice(0, brace), labels: key.slice(brace) };
}

function formatValue(v: number): string {
  if (Number.isInteger(v)) return formatCount(v);
  return Number(v.toPrecision(6)).toString();
}

/** A probe of a real cluster (src/probe): its samples are the cluster's, scraped once. */
function isProbe(model: PanelModel): boolean {
  return model.header.scenario === 'probe';
}

function probeScrapeText(model: PanelModel): string {
  const at = model.header.params.metricsScrapedAt;
  const server = String(model.header.params.server ?? 'the cluster');
  return typeof at === 'string'
    ? `The cluster's own figures, as GET ${server}/metrics answered at ${at}: a real apiserver's, not the engine's model (the storage list, watch cache and etcd request families only).`
    : "This probe did not scrape the cluster's /metrics: List/Watch: Scrape Cluster Metrics… (or listwatch probe --metrics) does.";
}

export class MetricsView {
  readonly element: HTMLElement;
  private readonly search: TextFieldHandle;
  private readonly table: HTMLElement;
  private readonly text: HTMLElement;
  private readonly status: HTMLElement;
  private readonly when: HTMLElement;
  private model: PanelModel | undefined;
  private needle = '';
  private at = 0;
  /** What the table shows (re-rendered only when the scrape in force changes). */
  private shownKey = '';

  constructor(options: MetricsViewOptions) {
    this.search = textField({
      label: 'Filter metrics by name or label',
      placeholder: 'Filter by name or label…',
      onInput: (v) => {
        this.needle = v.trim().toLowerCase();
        this.render(true);
        options.onSearch(v);
      },
    });
    this.status = h('span', { class: 'count', attrs: { role: 'status' } });
    this.when = h('p', { class: 'hint metrics-when', attrs: { 'aria-live': 'polite' } });
    this.table = h('table', {
      class: 'plain metrics',
      attrs: { 'aria-label': 'Metric samples at the end of the run' },
    });
    this.text = h('pre', {
      class: 'prometheus',
      attrs: { tabindex: 0, 'aria-label': 'Prometheus text exposition' },
    });
    this.element = h(
      'div',
      { class: 'scroll-view metrics-view' },
      h(
        'div',
        { class: 'toolbar' },
        this.search.element,
        button(
          {
            label: 'Copy the metrics at the end of the run as Prometheus text',
            appearance: 'primary',
            onClick: () => options.onCopy(),
          },
          'Copy as Prometheus text',
        ),
        this.status,
      ),
      this.when,
      this.table,
      h(
        'details',
        { class: 'prometheus-details' },
        h('summary', { text: 'Prometheus text exposition at the end of the run' }),
        this.text,
      ),
    );
  }

  setRun(model: PanelModel, at: number, search: string): void {
    this.model = model;
    this.at = at;
    this.needle = search.trim().toLowerCase();
    this.search.setValue(search);
    this.text.textContent = model.metricsText;
    this.render(true);
  }

  setTime(at: number): void {
    this.at = at;
    this.render(false);
  }

  copied(ok: boolean, message: string): void {
    this.status.textContent = message;
    this.status.classList.toggle('error', !ok);
  }

  private render(force: boolean): void {
    const model = this.model;
    if (!model) return;
    const now = metricsAt(model, this.at);
    const key = `${now.scrapedAt}:${now.endOfRun}`;
    if (!force && key === this.shownKey) return;
    this.shownKey = key;
    this.when.textContent = isProbe(model)
      ? probeScrapeText(model)
      : now.endOfRun
        ? 'Values at the end of the run (this trace has no scrapes over time), under the upstream metric names.'
        : now.scrapedAt === undefined
          ? `Nothing scraped yet at ${formatVirtualTime(this.at)}: the run scrapes its metrics at the end of each virtual second in which something happened.`
          : now.scrapedAt >= model.durationMs
            ? `Values at the end of the run (${formatVirtualTime(model.durationMs)}), under the upstream metric names.`
            : `Values as scraped at ${formatVirtualTime(now.scrapedAt)} (the run scrapes at the end of each virtual second, as Prometheus would), under the upstream metric names.`;
    const samples = Object.entries(now.samples)
      .filter(([k]) => !this.needle || k.toLowerCase().includes(this.needle))
      .sort(([a], [b]) => compareSampleKeys(a, b));
    let lastName = '';
    const rows = samples.map(([key, value]) => {
      const { name, labels } = splitSampleKey(key);
      const first = name !== lastName;
      lastName = name;
      return h(
        'tr',
        { class: first ? 'family-start' : '' },
        h('td', { class: 'metric-name', text: first ? name : '', attrs: { title: name } }),
        h('td', { class: 'metric-labels', text: labels }),
        h('td', { class: 'num', text: formatValue(value) }),
      );
    });
    replaceChildren(
      this.table,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Metric', 'Labels', 'Value'].map((t) =>
            h('th', { text: t, attrs: { scope: 'col' } }),
          ),
        ),
      ),
      h('tbody', {}, ...rows),
    );
    if (rows.length === 0)
      this.table.appendChild(
        h('caption', {
          text: this.needle
            ? 'No metric matches the filter.'
            : now.scrapedAt === undefined && !now.endOfRun
              ? 'No metric scraped yet.'
              : 'The run recorded no metrics.',
        }),
      );
    this.status.textContent = `${formatCount(samples.length)} of ${plural(Object.keys(now.samples).length, 'sample')}`;
  }
}

// The Metrics tab: the run's final metric samples under their upstream names and labels
// (apiserver_watch_cache_*, apiserver_terminated_watchers_total, etcd_request_duration_seconds…),
// searchable, and copyable as Prometheus text exposition (the host writes the clipboard).
import type { RunModel } from '../src/protocol';
import { formatCount, h, replaceChildren } from './dom';
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

export class MetricsView {
  readonly element: HTMLElement;
  private readonly search: TextFieldHandle;
  private readonly table: HTMLElement;
  private readonly text: HTMLElement;
  private readonly status: HTMLElement;
  private model: RunModel | undefined;
  private needle = '';

  constructor(options: MetricsViewOptions) {
    this.search = textField({
      label: 'Filter metrics by name or label',
      placeholder: 'Filter by name or label…',
      onInput: (v) => {
        this.needle = v.trim().toLowerCase();
        this.render();
        options.onSearch(v);
      },
    });
    this.status = h('span', { class: 'count', attrs: { role: 'status' } });
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
            label: 'Copy the metrics as Prometheus text',
            appearance: 'primary',
            onClick: () => options.onCopy(),
          },
          'Copy as Prometheus text',
        ),
        this.status,
      ),
      h('p', {
        class: 'hint',
        text: 'Values at the end of the run, under the upstream metric names.',
      }),
      this.table,
      h(
        'details',
        { class: 'prometheus-details' },
        h('summary', { text: 'Prometheus text exposition' }),
        this.text,
      ),
    );
  }

  setRun(model: RunModel, search: string): void {
    this.model = model;
    this.needle = search.trim().toLowerCase();
    this.search.setValue(search);
    this.text.textContent = model.metricsText;
    this.render();
  }

  copied(ok: boolean, message: string): void {
    this.status.textContent = message;
    this.status.classList.toggle('error', !ok);
  }

  private render(): void {
    const model = this.model;
    if (!model) return;
    const samples = Object.entries(model.metrics)
      .filter(([k]) => !this.needle || k.toLowerCase().includes(this.needle))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
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
          text: this.needle ? 'No metric matches the filter.' : 'The run recorded no metrics.',
        }),
      );
    this.status.textContent = `${formatCount(samples.length)} of ${formatCount(Object.keys(model.metrics).length)} samples`;
  }
}

// A small time-series chart in our own SVG (ARCHITECTURE.md boundary 7): step or straight lines,
// marked points with explanations, a cursor at the scrubber's time and a legend reading each
// series' value there. Colours come from VS Code's chart theme variables. No upstream counterpart.
import { formatVirtualTime, lastIndexAtOrBefore } from '../src/run/views/watcher-states';
import { chartTimeTicks } from '../src/run/views/timeline-scale';
import { chartValueAxis } from '../src/run/views/chart-value-axis';
import { h, s, svgText, perFrame, replaceChildren } from './dom';

export interface ChartSeries {
  name: string;
  /** A CSS colour, normally var(--vscode-charts-*). */
  color: string;
  /** [virtual ms, value], ascending in time. */
  points: Array<{ at: number; value: number }>;
  /** Holds its value until the next point (a gauge), instead of a straight line between points. */
  step?: boolean;
  dashed?: boolean;
  /** The value at a time, when it is not the last point's (a quantity that grows between points). */
  valueAt?(at: number): number | undefined;
}

export interface ChartMarker {
  at: number;
  value: number;
  shape: 'up' | 'down' | 'dot';
  color: string;
  /** Read on hover (SVG title) and by screen readers. */
  label: string;
}

export interface ChartSpec {
  /** Accessible description of what the chart shows. */
  label: string;
  durationMs: number;
  /**
   * Where the series' data ends, when before the run's end (a series cut at its cap): the axis
   * still spans the run, a held value is drawn no further, and the rest says it has no data.
   */
  dataEndMs?: number;
  series: ChartSeries[];
  markers?: ChartMarker[];
  formatValue(v: number): string;
  /** Lowest value on the axis (0 unless given). */
  yMin?: number;
  /** The values are counts: axis steps are whole numbers. */
  integer?: boolean;
  /** The least span of the value axis (e.g. 1 s for ms): a flat series still reads on it. */
  minRange?: number;
  height?: number;
}

const margin = { left: 64, right: 14, top: 10, bottom: 24 };

export class Chart {
  readonly element: HTMLElement;
  private readonly svg: SVGSVGElement;
  private readonly legend: HTMLElement;
  private spec: ChartSpec | undefined;
  private at = 0;
  private width = 0;
  private cursor: SVGLineElement | undefined;
  private readonly legendValues: HTMLElement[] = [];
  private readonly redraw: () => void;

  constructor(title: string) {
    this.redraw = perFrame(() => this.draw());
    this.legend = h('div', { class: 'chart-legend' });
    this.svg = s('svg', { class: 'chart-svg', role: 'img' });
    this.element = h(
      'figure',
      { class: 'chart' },
      h('figcaption', { class: 'chart-title', text: title }),
      this.legend,
      this.svg,
    );
    new ResizeObserver(() => {
      const w = Math.floor(this.svg.getBoundingClientRect().width);
      if (w > 0 && w !== this.width) {
        this.width = w;
        this.redraw();
      }
    }).observe(this.svg);
  }

  setSpec(spec: ChartSpec): void {
    this.spec = spec;
    this.svg.setAttribute('aria-label', spec.label);
    this.legendValues.length = 0;
    replaceChildren(
      this.legend,
      ...spec.series.map((series) => {
        const value = h('span', { class: 'chart-legend-value' });
        this.legendValues.push(value);
        const swatch = h('span', { class: `chart-swatch${series.dashed ? ' dashed' : ''}` });
        swatch.style.setProperty('--swatch', series.color);
        return h(
          'span',
          { class: 'chart-legend-item' },
          swatch,
          h('span', { text: series.name }),
          value,
        );
      }),
    );
    this.redraw();
  }

  /**
   * A live run's end moved with nothing new (a tick of now): the time axis spans to it, each held
   * value drawn on to it.
   */
  setDurationMs(durationMs: number): void {
    if (!this.spec || this.spec.durationMs === durationMs) return;
    this.spec = { ...this.spec, durationMs };
    this.redraw();
  }

  setCursor(at: number): void {
    this.at = at;
    if (!this.spec) return;
    if (this.cursor && this.width > 0) {
      const x = this.x(at).toFixed(1);
      this.cursor.setAttribute('x1', x);
      this.cursor.setAttribute('x2', x);
    }
    this.updateLegend();
  }

  private plotWidth(): number {
    return Math.max(10, this.width - margin.left - margin.right);
  }

  private x(at: number): number {
    const d = this.spec?.durationMs || 1;
    return margin.left + (Math.max(0, Math.min(d, at)) / d) * this.plotWidth();
  }

  private updateLegend(): void {
    if (!this.spec) return;
    for (const [i, series] of this.spec.series.entries()) {
      const idx = lastIndexAtOrBefore(series.points, this.at);
      // After the data's end there is no value to read, not the last one held.
      const past = this.spec.dataEndMs !== undefined && this.at > this.spec.dataEndMs;
      const value =
        idx < 0 || past ? undefined : (series.valueAt ?? (() => series.points[idx].value))(this.at);
      this.legendValues[i].textContent = value === undefined ? '—' : this.spec.formatValue(value);
    }
  }

  private draw(): void {
    const spec = this.spec;
    if (!spec || this.width <= 0) return;
    const height = spec.height ?? 170;
    const plotH = height - margin.top - margin.bottom;
    this.svg.setAttribute('viewBox', `0 0 ${this.width} ${height}`);
    this.svg.setAttribute('height', String(height));
    const values = spec.series
      .flatMap((se) => se.points.map((p) => p.value))
      .concat((spec.markers ?? []).map((m) => m.value));
    const axis = chartValueAxis(
      {
        values,
        ...(spec.yMin !== undefined ? { yMin: spec.yMin } : {}),
        ...(spec.integer ? { integer: true } : {}),
        ...(spec.minRange !== undefined ? { minRange: spec.minRange } : {}),
      },
      spec.formatValue,
    );
    const { min: yMin, max: yMax } = axis;
    const y = (v: number) => margin.top + plotH - ((v - yMin) / (yMax - yMin)) * plotH;
    const parts: SVGElement[] = [];
    // Grid and axes.
    for (const tick of axis.ticks) {
      parts.push(
        s('line', {
          class: 'chart-gridline',
          x1: margin.left,
          x2: this.width - margin.right,
          y1: y(tick.value),
          y2: y(tick.value),
        }),
      );
      parts.push(
        svgText(margin.left - 6, y(tick.value) + 4, tick.label, {
          class: 'chart-axis chart-axis-y',
          'text-anchor': 'end',
        }),
      );
    }
    const d = spec.durationMs || 1;
    // The run's end is labelled (its length, right-aligned at the axis' end); a round tick whose
    // label would run into it is left out.
    const ticks = chartTimeTicks(
      spec.durationMs,
      Math.max(2, Math.floor(this.plotWidth() / 90)) + 1,
    );
    for (const t of ticks) {
      if (!t.end && t.at > 0 && this.x(d) - this.x(t.at) < 80) continue;
      parts.push(
        s('line', {
          class: 'chart-tick',
          x1: this.x(t.at),
          x2: this.x(t.at),
          y1: margin.top + plotH,
          y2: margin.top + plotH + 4,
        }),
      );
      parts.push(
        svgText(this.x(t.at), height - 6, t.label, {
          class: t.end ? 'chart-axis chart-axis-x chart-axis-end' : 'chart-axis chart-axis-x',
          'text-anchor': t.end ? 'end' : 'middle',
        }),
      );
    }
    const dataEnd = Math.min(d, spec.dataEndMs ?? d);
    if (dataEnd < d) {
      // No value is made up after the data: the span is marked and says why it is empty.
      const label = `no data after ${formatVirtualTime(dataEnd)}`;
      parts.push(
        s(
          'rect',
          {
            class: 'chart-nodata',
            x: this.x(dataEnd),
            y: margin.top,
            width: Math.max(0, this.x(d) - this.x(dataEnd)),
            height: plotH,
          },
          s('title', {}, label),
        ),
        svgText(this.x(dataEnd) + 4, margin.top + 12, label, {
          class: 'chart-axis chart-nodata-label',
        }),
      );
    }
    parts.push(
      s('line', {
        class: 'chart-axis-line',
        x1: margin.left,
        x2: this.width - margin.right,
        y1: margin.top + plotH,
        y2: margin.top + plotH,
      }),
    );
    // Series.
    for (const series of spec.series) {
      if (series.points.length === 0) continue;
      let path = '';
      for (const [i, p] of series.points.entries()) {
        const px = this.x(p.at).toFixed(1);
        const py = y(p.value).toFixed(1);
        if (i === 0) path += `M${px} ${py}`;
        else if (series.step) path += `H${px}V${py}`;
        else path += `L${px} ${py}`;
      }
      if (series.step && series.points[series.points.length - 1].at < dataEnd)
        path += `H${this.x(dataEnd).toFixed(1)}`;
      const line = s('path', { class: `chart-line${series.dashed ? ' dashed' : ''}`, d: path });
      line.style.stroke = series.color;
      parts.push(line);
    }
    // Marked points, focusable so that keyboard users can read their explanation.
    for (const m of spec.markers ?? []) {
      const cx = this.x(m.at);
      const cy = y(m.value);
      const shape =
        m.shape === 'dot'
          ? s('circle', { cx, cy, r: 4 })
          : s('path', {
              d: m.shape === 'up' ? `M${cx} ${cy - 6}l5 8h-10z` : `M${cx} ${cy + 6}l5 -8h-10z`,
            });
      const marker = s(
        'g',
        { class: 'chart-marker', tabindex: 0, role: 'img', 'aria-label': m.label },
        shape,
        s('title', {}, m.label),
      );
      marker.style.fill = m.color;
      parts.push(marker);
    }
    this.cursor = s('line', {
      class: 'chart-cursor',
      x1: this.x(this.at),
      x2: this.x(this.at),
      y1: margin.top,
      y2: margin.top + plotH,
    });
    parts.push(this.cursor);
    replaceChildren(this.svg, ...parts);
    this.updateLegend();
  }
}

/** Cursor time as shown beside charts. */
export function cursorCaption(at: number): string {
  return `at ${formatVirtualTime(at)}`;
}

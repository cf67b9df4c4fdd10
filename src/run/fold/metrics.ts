// No upstream counterpart: folds the model's `metrics`, `metricsText` and `scrapes`: the run's
// last resource metrics (samples and Prometheus text) and the per-second scrapes of what changed.
import type { SeriesLimit } from './series-limit';

type Scrape = { at: number; samples: Record<string, number> };

export class MetricsFold {
  private metrics: Record<string, number> = {};
  private metricsText = '';
  private readonly scrapes: Scrape[] = [];

  constructor(private readonly series: SeriesLimit) {}

  /** The resource's metrics now (each record replaces the last). */
  resource(samples: Record<string, number>, text: string): void {
    this.metrics = { ...samples };
    this.metricsText = text;
  }

  scrape(at: number, samples: Record<string, number>): void {
    this.series.push(this.scrapes, { at, samples }, 'scrapes');
  }

  /** The last samples (a copy). */
  finishMetrics(): Record<string, number> {
    return { ...this.metrics };
  }

  finishMetricsText(): string {
    return this.metricsText;
  }

  /** The scrapes so far (a new array). */
  finishScrapes(): Scrape[] {
    return this.scrapes.slice();
  }
}

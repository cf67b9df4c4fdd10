// The run's metric samples as they stood at a moment of virtual time: the scrapes the run took at
// the last instant of each virtual second (src/sim/run-sampler.ts), replayed up to it; the
// final samples from the run's end on. No upstream counterpart (Prometheus would scrape the same
// series on its own schedule). Shared by the webview's Metrics tab and the tests.
import type { RunModel, VirtualMs } from '../run-model';

export interface MetricsAt {
  samples: Record<string, number>;
  /** When they were scraped (the run's end for the final samples; undefined before the first scrape). */
  scrapedAt: VirtualMs | undefined;
  /** The run recorded no scrapes (a trace from before them): only the final samples are known. */
  endOfRun: boolean;
}

/** The samples at `at`; `scrapes` are in time order, each holding the series that changed. */
export function metricsAt(
  model: Pick<RunModel, 'scrapes' | 'metrics' | 'durationMs'>,
  at: VirtualMs,
): MetricsAt {
  const scrapes = model.scrapes;
  if (!scrapes) return { samples: model.metrics, scrapedAt: model.durationMs, endOfRun: true };
  if (at >= model.durationMs)
    return { samples: model.metrics, scrapedAt: model.durationMs, endOfRun: false };
  const samples: Record<string, number> = {};
  let scrapedAt: VirtualMs | undefined;
  for (const s of scrapes) {
    if (s.at > at) break;
    Object.assign(samples, s.samples);
    scrapedAt = s.at;
  }
  return { samples, scrapedAt, endOfRun: false };
}

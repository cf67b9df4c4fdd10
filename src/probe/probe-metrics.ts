// No upstream counterpart: the probe's scrape of a cluster's GET /metrics, kept to the families
// that tell the list/watch story (k8s.io/apiserver pkg/storage/cacher/metrics and
// pkg/storage/etcd3/metrics names, release-1.36): the storage list counters, the watch cache's
// figures and capacity, and the etcd request latencies. These are the cluster's own figures at the
// time of the scrape, not the engine's.
import { parsePrometheusText, type ScrapedSamples } from './prometheus-text';

/** The families kept, by name prefix. */
export const probeMetricPrefixes = [
  'apiserver_storage_list_',
  'apiserver_cache_list_',
  'apiserver_watch_cache_',
  'watch_cache_capacity',
  'apiserver_terminated_watchers_total',
  'etcd_request_duration_seconds',
  'etcd_request_errors_total',
  'etcd_requests_total',
  'etcd_bookmark_counts',
  'apiserver_storage_objects',
] as const;

export function isProbeMetric(sampleName: string): boolean {
  return probeMetricPrefixes.some((p) => sampleName.startsWith(p));
}

export interface ProbeScrape extends ScrapedSamples {
  /** Samples in the exposition, and families, before the filter. */
  totalSamples: number;
  /** The exposition's lines of the kept families (HELP, TYPE and samples), as served. */
  text: string;
}

function lineName(line: string): string {
  const m = line.startsWith('#')
    ? /^#\s+(?:HELP|TYPE)\s+(\S+)/.exec(line)
    : /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
  return m ? (m[1] ?? m[0]) : '';
}

/** The kept samples and the kept part of the text. Throws PrometheusTextError on bad text. */
export function filterScrape(text: string): ProbeScrape {
  const all = parsePrometheusText(text);
  const samples: Record<string, number> = {};
  for (const [k, v] of Object.entries(all.samples)) {
    const brace = k.indexOf('{');
    if (isProbeMetric(brace < 0 ? k : k.slice(0, brace))) samples[k] = v;
  }
  const types: Record<string, string> = {};
  for (const [k, v] of Object.entries(all.types)) if (isProbeMetric(k)) types[k] = v;
  const kept = text.split('\n').filter((l) => isProbeMetric(lineName(l.trim())));
  return {
    samples,
    types,
    nonFinite: all.nonFinite.filter((k) => isProbeMetric(k.split('{')[0])),
    totalSamples: Object.keys(all.samples).length + all.nonFinite.length,
    text: kept.length ? kept.join('\n') + '\n' : '',
  };
}

// Mirrors k8s.io/apiserver pkg/server/routes/metrics.go (release-1.36): GET /metrics answers the
// registry in the Prometheus text format, as component-base's legacyregistry handler writes it.
// Deliberate difference: always the text format (no protobuf for a scraper that asks for it first,
// no gzip), which every Prometheus accepts.
import type { MetricsRegistry } from '../engine';
import type { ServedResponse } from './served-response';

/** expfmt's text format 0.0.4. */
export const prometheusTextContentType = 'text/plain; version=0.0.4; charset=utf-8';

/** GET /metrics: every family with a series, as the engine exposes it. */
export function serveMetrics(metrics: MetricsRegistry): ServedResponse {
  return {
    status: 200,
    headers: { 'Content-Type': prometheusTextContentType },
    body: metrics.text(),
  };
}

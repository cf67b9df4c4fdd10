// Tests for src/server/metrics-endpoint.ts: /metrics is the engine registry's Prometheus text.
import * as assert from 'assert';
import { MetricsRegistry } from '../../../src/engine/metrics/registry';
import { serveMetrics } from '../../../src/server/metrics-endpoint';

describe('server/metrics-endpoint', () => {
  it('answers the resources text with the text format 0.0.4 content type', () => {
    const m = new MetricsRegistry();
    m.counter('apiserver_watch_events_total', 'Number of events sent in watch clients', [
      'group',
      'resource',
    ]).inc({ group: '', resource: 'pods' }, 3);
    const r = serveMetrics(m);
    assert.strictEqual(r.status, 200);
    assert.deepStrictEqual(r.headers, {
      'Content-Type': 'text/plain; version=0.0.4; charset=utf-8',
    });
    assert.strictEqual(r.body, m.text());
    assert.match(r.body as string, /^apiserver_watch_events_total\{group="",resource="pods"\} 3$/m);
  });

  it('answers an empty body while nothing was recorded', () => {
    assert.strictEqual(serveMetrics(new MetricsRegistry()).body, '');
  });
});

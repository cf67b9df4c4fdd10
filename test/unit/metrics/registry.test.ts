// Tests for src/engine/metrics/registry.ts: counters, gauges, histograms and the text exposition
// (expected lines follow client_golang's expfmt and component-base's HELP annotation).
import * as assert from 'assert';
import {
  MetricsRegistry,
  formatFloat,
  escapeLabelValue,
} from '../../../src/engine/metrics/registry';

describe('MetricsRegistry', () => {
  it('exposes the storage list metrics like TestRecordStorageListMetrics (labels sorted by name)', () => {
    const r = new MetricsRegistry();
    const labels = ['group', 'resource', 'storage', 'index'];
    const total = r.counter(
      'apiserver_storage_list_total',
      'Number of LIST requests served from storage',
      labels,
    );
    const fetched = r.counter(
      'apiserver_storage_list_fetched_objects_total',
      'Number of objects read from storage in the course of serving a LIST request',
      labels,
    );
    const evaluated = r.counter(
      'apiserver_storage_list_evaluated_objects_total',
      'Number of objects tested in the course of serving a LIST request from storage',
      ['group', 'resource', 'storage'],
    );
    const returned = r.counter(
      'apiserver_storage_list_returned_objects_total',
      'Number of objects returned for a LIST request from storage',
      ['group', 'resource', 'storage'],
    );
    const record = (storage: string, index: string, f: number, e: number, n: number) => {
      const g = { group: 'apps', resource: 'deployments', storage };
      total.inc({ ...g, index });
      fetched.inc({ ...g, index }, f);
      evaluated.inc(g, e);
      returned.inc(g, n);
    };
    record('watchcache', 'f:spec.nodeName', 2, 0, 2);
    record('etcd', '', 4, 3, 1);
    assert.strictEqual(
      r.text(),
      [
        '# HELP apiserver_storage_list_evaluated_objects_total [ALPHA] Number of objects tested in the course of serving a LIST request from storage',
        '# TYPE apiserver_storage_list_evaluated_objects_total counter',
        'apiserver_storage_list_evaluated_objects_total{group="apps",resource="deployments",storage="etcd"} 3',
        'apiserver_storage_list_evaluated_objects_total{group="apps",resource="deployments",storage="watchcache"} 0',
        '# HELP apiserver_storage_list_fetched_objects_total [ALPHA] Number of objects read from storage in the course of serving a LIST request',
        '# TYPE apiserver_storage_list_fetched_objects_total counter',
        'apiserver_storage_list_fetched_objects_total{group="apps",index="",resource="deployments",storage="etcd"} 4',
        'apiserver_storage_list_fetched_objects_total{group="apps",index="f:spec.nodeName",resource="deployments",storage="watchcache"} 2',
        '# HELP apiserver_storage_list_returned_objects_total [ALPHA] Number of objects returned for a LIST request from storage',
        '# TYPE apiserver_storage_list_returned_objects_total counter',
        'apiserver_storage_list_returned_objects_total{group="apps",resource="deployments",storage="etcd"} 1',
        'apiserver_storage_list_returned_objects_total{group="apps",resource="deployments",storage="watchcache"} 2',
        '# HELP apiserver_storage_list_total [ALPHA] Number of LIST requests served from storage',
        '# TYPE apiserver_storage_list_total counter',
        'apiserver_storage_list_total{group="apps",index="",resource="deployments",storage="etcd"} 1',
        'apiserver_storage_list_total{group="apps",index="f:spec.nodeName",resource="deployments",storage="watchcache"} 1',
        '',
      ].join('\n'),
    );
    assert.strictEqual(
      r.text(['apiserver_storage_list_total']).split('\n').length,
      5,
      'text(names) limits the families',
    );
  });

  it('writes cumulative histogram buckets with le last, +Inf, _sum and _count', () => {
    const r = new MetricsRegistry();
    const h = r.histogram(
      'apiserver_watch_cache_read_wait_seconds',
      'Histogram of time spent waiting for a watch cache to become fresh.',
      ['group', 'resource'],
      [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3],
    );
    const l = { resource: 'pods', group: '' };
    h.observe(l, 0.005); // upper bounds are inclusive
    h.observe(l, 0.3);
    h.observe(l, 5);
    const text = r.text();
    const lines = text.split('\n');
    assert.strictEqual(
      lines[0],
      '# HELP apiserver_watch_cache_read_wait_seconds [ALPHA] Histogram of time spent waiting for a watch cache to become fresh.',
    );
    assert.strictEqual(lines[1], '# TYPE apiserver_watch_cache_read_wait_seconds histogram');
    assert.strictEqual(
      lines[2],
      'apiserver_watch_cache_read_wait_seconds_bucket{group="",resource="pods",le="0.005"} 1',
    );
    assert.strictEqual(
      lines[7],
      'apiserver_watch_cache_read_wait_seconds_bucket{group="",resource="pods",le="0.4"} 2',
    );
    assert.strictEqual(
      lines[10],
      'apiserver_watch_cache_read_wait_seconds_bucket{group="",resource="pods",le="1"} 2',
    );
    assert.strictEqual(
      lines[14],
      'apiserver_watch_cache_read_wait_seconds_bucket{group="",resource="pods",le="3"} 2',
    );
    assert.strictEqual(
      lines[15],
      'apiserver_watch_cache_read_wait_seconds_bucket{group="",resource="pods",le="+Inf"} 3',
    );
    assert.strictEqual(
      lines[16],
      'apiserver_watch_cache_read_wait_seconds_sum{group="",resource="pods"} 5.305',
    );
    assert.strictEqual(
      lines[17],
      'apiserver_watch_cache_read_wait_seconds_count{group="",resource="pods"} 3',
    );
    const snap = h.get(l);
    assert.ok(snap);
    assert.deepStrictEqual(snap.buckets.slice(0, 3), [
      { le: 0.005, count: 1 },
      { le: 0.025, count: 1 },
      { le: 0.05, count: 1 },
    ]);
    assert.deepStrictEqual(snap.buckets[snap.buckets.length - 1], { le: Infinity, count: 3 });
    assert.strictEqual(h.get({ group: 'apps', resource: 'pods' }), undefined);
    const s = r.samples();
    assert.strictEqual(
      s['apiserver_watch_cache_read_wait_seconds_bucket{group="",resource="pods",le="+Inf"}'],
      3,
    );
    assert.strictEqual(
      s['apiserver_watch_cache_read_wait_seconds_count{group="",resource="pods"}'],
      3,
    );
  });

  it('returns the same metric for the same name and refuses a different shape', () => {
    const r = new MetricsRegistry();
    const a = r.counter(
      'etcd_bookmark_total',
      'Number of etcd bookmarks (progress notify events) split by kind.',
      ['group', 'resource'],
    );
    const b = r.counter('etcd_bookmark_total', 'other help', ['group', 'resource']);
    assert.strictEqual(a, b);
    const cases: [string, () => unknown, RegExp][] = [
      [
        'other type',
        () => r.gauge('etcd_bookmark_total', 'h', ['group', 'resource']),
        /already registered as a counter/,
      ],
      [
        'other labels',
        () => r.counter('etcd_bookmark_total', 'h', ['resource']),
        /labels \{group,resource\}/,
      ],
      ['bad name', () => r.counter('1abc', 'h'), /invalid metric name "1abc"/],
      ['bad label', () => r.counter('x_total', 'h', ['a-b']), /invalid label name "a-b"/],
      [
        'le on histogram',
        () => r.histogram('h_seconds', 'h', ['le'], [1]),
        /invalid label name "le"/,
      ],
      [
        'unsorted buckets',
        () => r.histogram('h2_seconds', 'h', [], [1, 0.5]),
        /increasing order, got \[1, 0.5\] at index 1/,
      ],
      [
        'other buckets',
        () => {
          r.histogram('h3_seconds', 'h', [], [1, 2]);
          return r.histogram('h3_seconds', 'h', [], [1, 3]);
        },
        /buckets \[1, 2\], not \[1, 3\]/,
      ],
    ];
    for (const [name, fn, re] of cases) assert.throws(fn, re, name);
  });

  it('rejects wrong label sets and counter decreases, naming the metric', () => {
    const r = new MetricsRegistry();
    const c = r.counter('apiserver_watch_cache_events_received_total', 'h', ['group', 'resource']);
    const cases: [string, () => unknown, RegExp][] = [
      [
        'missing label',
        () => c.inc({ resource: 'pods' }),
        /apiserver_watch_cache_events_received_total: labels \{resource\} do not match the declared labels \{group,resource\}/,
      ],
      [
        'extra label',
        () => c.inc({ group: '', resource: 'pods', x: '1' }),
        /labels \{group,resource,x\}/,
      ],
      ['no labels', () => c.inc(), /labels \{\} do not match/],
      [
        'decrease',
        () => c.inc({ group: '', resource: 'pods' }, -1),
        /counter cannot decrease in value \(inc by -1\)/,
      ],
    ];
    for (const [name, fn, re] of cases) assert.throws(fn, re, name);
  });

  it('keeps gauges, unlabelled metrics, deprecation and stability in the HELP line', () => {
    const r = new MetricsRegistry();
    const g = r.gauge(
      'etcd_bookmark_counts',
      'Number of etcd bookmarks (progress notify events) split by kind.',
      ['group', 'resource'],
      { deprecatedVersion: '1.36.0' },
    );
    g.inc({ group: '', resource: 'pods' });
    g.inc({ group: '', resource: 'pods' }, 2);
    g.dec({ group: '', resource: 'pods' });
    assert.strictEqual(g.get({ group: '', resource: 'pods' }), 2);
    const plain = r.counter(
      'apiserver_storage_events_received_total',
      'Number of etcd events received split by kind.',
      [],
      { stabilityLevel: 'BETA' },
    );
    assert.strictEqual(
      r.samples()['apiserver_storage_events_received_total'],
      0,
      'an unlabelled metric exists at 0',
    );
    plain.inc();
    assert.strictEqual(
      r.text(),
      [
        '# HELP apiserver_storage_events_received_total [BETA] Number of etcd events received split by kind.',
        '# TYPE apiserver_storage_events_received_total counter',
        'apiserver_storage_events_received_total 1',
        '# HELP etcd_bookmark_counts [ALPHA] (Deprecated since 1.36.0) Number of etcd bookmarks (progress notify events) split by kind.',
        '# TYPE etcd_bookmark_counts gauge',
        'etcd_bookmark_counts{group="",resource="pods"} 2',
        '',
      ].join('\n'),
    );
    r.reset();
    assert.deepStrictEqual(r.samples(), { apiserver_storage_events_received_total: 0 });
    assert.strictEqual(r.text(['etcd_bookmark_counts']), '', 'a family without series is omitted');
  });

  it('escapes label values and HELP text as the exposition format requires', () => {
    const r = new MetricsRegistry();
    r.counter('x_total', 'a\\b\nc', ['v']).inc({ v: 'q"\\\n' });
    assert.strictEqual(
      r.text(),
      '# HELP x_total [ALPHA] a\\\\b\\nc\n# TYPE x_total counter\nx_total{v="q\\"\\\\\\n"} 1\n',
    );
    assert.strictEqual(escapeLabelValue('plain'), 'plain');
    assert.deepStrictEqual(Object.keys(r.samples()), ['x_total{v="q\\"\\\\\\n"}']);
  });

  it('caches the child for a label set so the hot path is a plain add', () => {
    const r = new MetricsRegistry();
    const c = r.counter('apiserver_init_events_total', 'h', ['group', 'resource']);
    const child = c.with({ group: '', resource: 'pods' });
    assert.strictEqual(c.with({ resource: 'pods', group: '' }), child);
    for (let i = 0; i < 5; i++) child.inc();
    assert.strictEqual(c.get({ group: '', resource: 'pods' }), 5);
    assert.strictEqual(c.get({ group: 'apps', resource: 'pods' }), 0);
  });

  it("formats numbers like Go strconv.FormatFloat(v, 'g', -1, 64)", () => {
    const cases: [number, string][] = [
      [0, '0'],
      [1, '1'],
      [0.005, '0.005'],
      [1.25, '1.25'],
      [100000, '100000'],
      [1e6, '1e+06'],
      [123456789, '1.23456789e+08'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [-2.5, '-2.5'],
      [1e21, '1e+21'],
      [1.5e-300, '1.5e-300'],
      [Infinity, '+Inf'],
      [-Infinity, '-Inf'],
      [NaN, 'NaN'],
    ];
    for (const [v, want] of cases) assert.strictEqual(formatFloat(v), want, `formatFloat(${v})`);
  });
});

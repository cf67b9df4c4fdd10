// No upstream counterpart: the etcd latency every scenario runs with, chosen by two parameters that
// every scenario takes, and what its summary says about it.
import type { ScenarioSummary } from '../run/run-summary';
import {
  isZeroLatency,
  measuredEtcd34Latency,
  scaledLatency,
  zeroLatency,
  type LatencyModel,
} from '../engine';
import type { RunModel } from '../run/run-model';
import type { ScenarioParamSpec, ScenarioParams } from './scenario';
import { fineDur, roundMs } from './summary-format';

const m = measuredEtcd34Latency;
const micro = (ms: number): string => `${+(ms * 1000).toPrecision(2)} µs`;
const nano = (ms: number): string => `${+(ms * 1e6).toPrecision(2)} ns`;

/** The measured figures in words: per request, per write, per key counted, per key read, per byte. */
export const measuredFiguresText =
  `${m.perRequestMs.toFixed(2)} ms a request, +${m.perWriteMs.toFixed(2)} ms a write, ` +
  `${micro(m.perCountedKeyMs)} per key in a range, ${micro(m.perKeyMs)} per key read or written, ` +
  `${nano(m.perByteMs)} per byte`;

export const etcdLatencyParams: readonly ScenarioParamSpec[] = Object.freeze([
  {
    name: 'etcdLatency',
    type: 'string',
    default: 'measured',
    choices: ['measured', 'zero'],
    description:
      `Virtual time each etcd request takes. measured: a model fitted to etcd 3.4.23 measured on ` +
      `loopback (${measuredFiguresText}; one member on one machine, not a production cluster). ` +
      `zero: etcd answers at once.`,
  },
  {
    name: 'etcdLatencyScale',
    type: 'number',
    default: 1,
    min: 0.01,
    max: 1000,
    description:
      'Multiplies every figure of the measured model (e.g. 10 for a slow disk or an etcd across a network). Unused with etcdLatency=zero.',
  },
]);

/** The model a run with these parameters uses; a run recorded before the parameters existed had none. */
export function etcdLatencyOf(params: ScenarioParams): LatencyModel {
  if (params.etcdLatency !== 'measured') return zeroLatency;
  const scale = Number(params.etcdLatencyScale ?? 1);
  return scale === 1 ? measuredEtcd34Latency : scaledLatency(measuredEtcd34Latency, scale);
}

/** etcd_request_duration_seconds by operation: requests and total seconds, from the final metrics. */
function durationsByOperation(model: RunModel): Map<string, { requests: number; seconds: number }> {
  const out = new Map<string, { requests: number; seconds: number }>();
  const name = 'etcd_request_duration_seconds';
  for (const [k, v] of Object.entries(model.metrics)) {
    const kind = k.startsWith(`${name}_count{`)
      ? 'requests'
      : k.startsWith(`${name}_sum{`)
        ? 'seconds'
        : undefined;
    const op = /operation="([^"]*)"/.exec(k)?.[1];
    if (!kind || op === undefined) continue;
    const row = out.get(op) ?? { requests: 0, seconds: 0 };
    row[kind] += v;
    out.set(op, row);
  }
  return out;
}

/**
 * Adds what the run's etcd times are to a summary: a line at the end of its story, an
 * `etcdLatency` fact and the total etcd time, and a table of etcd_request_duration_seconds by
 * operation.
 */
export function withEtcdLatencyNote(summary: ScenarioSummary, model: RunModel): ScenarioSummary {
  const params = model.header.params;
  const latency = etcdLatencyOf(params);
  const zero = isZeroLatency(latency);
  const scale = Number(params.etcdLatencyScale ?? 1);
  const line = zero
    ? 'etcd took no virtual time (etcdLatency=zero): every etcd duration here is 0.'
    : `etcd times are modelled, not measured on a cluster: a fit to etcd 3.4.23 on loopback ` +
      `(${measuredFiguresText})${scale === 1 ? '' : `, scaled ${scale}×`}.`;
  const ops = [...durationsByOperation(model)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const totalMs = ops.reduce((s, [, r]) => s + r.seconds * 1000, 0);
  const tables = ops.length
    ? [
        ...summary.tables,
        {
          title: 'etcd requests (etcd_request_duration_seconds)',
          columns: ['operation', 'requests', 'mean', 'total'],
          rows: ops.map(([op, r]) => [
            op,
            r.requests,
            fineDur(r.requests ? (r.seconds * 1000) / r.requests : 0),
            fineDur(r.seconds * 1000),
          ]),
          note: zero ? 'etcdLatency=zero: no etcd time' : 'virtual time from the latency model',
        },
      ]
    : summary.tables;
  return {
    ...summary,
    story: [...summary.story, line],
    facts: {
      ...summary.facts,
      etcdLatency: zero ? 'zero' : scale === 1 ? 'measured' : `measured×${scale}`,
      etcdRequestMs: roundMs(totalMs),
    },
    tables,
  };
}

/** A run's etcd requests summed, in the latency model's terms (see RequestWork). */
export interface EtcdWork {
  requests: number;
  /** Of those, the ones through raft (a create, update or delete). */
  writes: number;
  countedKeys: number;
  keys: number;
  bytes: number;
}

/**
 * About the bytes of one pod the scenarios write (makePod with a label or two: its key and its
 * JSON value), for the latency model's per-byte term in an estimate.
 */
export const podKvBytes = 200;

/**
 * The virtual time those requests take with the run's latency parameters (ms): an estimate adds
 * it to its virtual time for the requests the scenario awaits one after another.
 */
export function etcdWorkMs(params: ScenarioParams, w: EtcdWork): number {
  const m = etcdLatencyOf(params);
  return (
    w.requests * m.perRequestMs +
    w.writes * m.perWriteMs +
    w.countedKeys * m.perCountedKeyMs +
    w.keys * m.perKeyMs +
    w.bytes * m.perByteMs
  );
}

// No upstream counterpart: the etcd latency every scenario runs with, chosen by two parameters that
// every scenario takes, and the sentence its summary says about it.
import {
  isZeroLatency,
  measuredEtcd34Latency,
  scaledLatency,
  zeroLatency,
  type LatencyModel,
} from '../engine/etcd/latency-model';
import type { ScenarioParamSpec, ScenarioParams, ScenarioSummary } from './scenario';

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

/** Adds what the run's etcd times are to a summary: its story's last line and an `etcdLatency` fact. */
export function withEtcdLatencyNote(
  summary: ScenarioSummary,
  params: ScenarioParams,
): ScenarioSummary {
  const model = etcdLatencyOf(params);
  const scale = Number(params.etcdLatencyScale ?? 1);
  const line = isZeroLatency(model)
    ? 'etcd took no virtual time (etcdLatency=zero): every etcd duration here is 0.'
    : `etcd times are modelled, not measured on a cluster: a fit to etcd 3.4.23 on loopback ` +
      `(${measuredFiguresText})${scale === 1 ? '' : `, scaled ${scale}×`}.`;
  return {
    ...summary,
    story: [...summary.story, line],
    facts: {
      ...summary.facts,
      etcdLatency: isZeroLatency(model) ? 'zero' : scale === 1 ? 'measured' : `measured×${scale}`,
    },
  };
}

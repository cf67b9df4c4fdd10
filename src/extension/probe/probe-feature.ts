// No upstream counterpart: the probe's chunk (dist/extension-probe.js, loaded on the first Probe
// Cluster or Scrape Cluster Metrics; src/extension/lazy-feature.ts).
export { probeCommands } from './probe-commands';
export { conformCommands } from './conform-commands';

// No upstream counterpart: @kubernetes/client-node's KubeConfig, required only when a probe runs.
// The extension and CLI bundles map this require to their own chunk (esbuild.js lazyClientNode);
// tests and the server suite resolve the package from node_modules.
import type { KubeConfig } from '@kubernetes/client-node';

/** The KubeConfig class. */
export function loadKubeConfigClass(): Promise<typeof KubeConfig> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const m = require('@kubernetes/client-node') as typeof import('@kubernetes/client-node');
  return Promise.resolve(m.KubeConfig);
}

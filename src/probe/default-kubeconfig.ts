// Mirrors client-go tools/clientcmd loader.go (NewDefaultClientConfigLoadingRules): the kubeconfig
// kubectl reads when none is named, $KUBECONFIG, else ~/.kube/config. Deliberate difference: of a
// $KUBECONFIG list only the first file is used (client-go merges them; the probe names one file).
import * as os from 'node:os';
import * as path from 'node:path';

export function defaultKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const first = (env.KUBECONFIG ?? '').split(path.delimiter).find((p) => p !== '');
  return first ?? path.join(os.homedir(), '.kube', 'config');
}

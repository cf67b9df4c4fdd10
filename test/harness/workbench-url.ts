// Test harness: the workbench URL that opens a folder and loads extensions under development/test.
import * as path from 'path';

export interface WorkbenchUrlOptions {
  folder?: string;
  extensionDevelopmentPath?: string | readonly string[];
  extensionTestsPath?: string;
}

/**
 * The server's web client hard-codes its remote authority to "remote", so a server-side file is
 * vscode-remote://remote/<absolute path>.
 */
export function remoteUri(file: string): string {
  return `vscode-remote://remote${path.resolve(file)}`;
}

/**
 * `?folder=` opens a workspace folder; `?payload=` is a JSON list of [key, value] pairs the
 * workbench reads like command-line flags (extensionDevelopmentPath, extensionTestsPath, ...).
 */
export function workbenchUrl(base: string, options: WorkbenchUrlOptions): string {
  const payload: Array<[string, string]> = [];
  for (const dev of ([] as string[]).concat(options.extensionDevelopmentPath ?? [])) {
    payload.push(['extensionDevelopmentPath', remoteUri(dev)]);
  }
  if (options.extensionTestsPath)
    payload.push(['extensionTestsPath', remoteUri(options.extensionTestsPath)]);
  payload.push(['skipWelcome', 'true'], ['skipReleaseNotes', 'true']);
  const query = new URLSearchParams();
  if (options.folder) query.set('folder', path.resolve(options.folder));
  query.set('payload', JSON.stringify(payload));
  return `${base}/?${query.toString()}`;
}

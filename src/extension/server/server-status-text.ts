// No upstream counterpart: the local API server status bar item's text and tooltip (no vscode
// import, so plain unit tests read them). A client is a User-Agent on one connection; both counts
// are the server's own, true whether or not a live run records it.
import type { LiveServerState } from './live-server-state';
import { plural } from '../../format/count-text';

/**
 * `$(server-process) 127.0.0.1:6443 · 2 clients connected (5 since the start) · 3 watchers`: the
 * clients connected now, then every one seen since the server started.
 */
export function statusBarText(s: LiveServerState): string {
  return `$(server-process) 127.0.0.1:${s.port} · ${plural(s.connectedClients.length, 'client', { plain: true })} connected (${s.clientsSeen} since the start) · ${plural(s.watchersTotal, 'watcher', { plain: true })}`;
}

export function statusBarTooltip(s: LiveServerState): string {
  return [
    `List/Watch local API server ${s.httpsUrl} (profile ${s.profileName})`,
    `KUBECONFIG=${s.kubeconfigPath}`,
    "A client is a User-Agent on one connection (the Clients tab joins one program's connections that follow one another).",
    `Connected now: ${s.connectedClients.join(', ') || 'none'}`,
    `Seen since the start: ${s.clientsSeen} (user agents: ${s.clients.map((c) => c.userAgent).join(', ') || 'none yet'})`,
    'Click for the server menu',
  ].join('\n');
}

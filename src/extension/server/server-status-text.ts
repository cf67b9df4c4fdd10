// No upstream counterpart: the local API server status bar item's text and tooltip (no vscode
// import, so plain unit tests read them). A client is a User-Agent on one connection, as the
// Clients tab counts them.
import type { LiveServerState } from './live-server-state';
import { plural } from '../../format/count-text';

/**
 * `$(server-process) 127.0.0.1:6443 · 2 clients connected (5 in the run) · 3 watchers`: the clients
 * connected now, then every one seen since the start.
 */
export function statusBarText(s: LiveServerState, inRun = s.clientsSeen): string {
  return `$(server-process) 127.0.0.1:${s.port} · ${plural(s.connectedClients.length, 'client', { plain: true })} connected (${inRun} in the run) · ${plural(s.watchersTotal, 'watcher', { plain: true })}`;
}

/** `inRun`: the live run's Clients tab count (the server's own count while nothing records it). */
export function statusBarTooltip(s: LiveServerState, inRun = s.clientsSeen): string {
  return [
    `List/Watch local API server ${s.httpsUrl} (profile ${s.profileName})`,
    `KUBECONFIG=${s.kubeconfigPath}`,
    'A client is a User-Agent on one connection, as the Clients tab counts them.',
    `Connected now: ${s.connectedClients.join(', ') || 'none'}`,
    `Clients in the run: ${inRun} (user agents: ${s.clients.map((c) => c.userAgent).join(', ') || 'none yet'})`,
    'Click for the server menu',
  ].join('\n');
}

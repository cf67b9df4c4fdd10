// No upstream counterpart: the local API server status bar item's text and tooltip (no vscode
// import, so plain unit tests read them). It counts connections (a User-Agent on one TCP
// connection, any request, discovery too), the server's own figures whether or not a live run
// records them, and names them so: "clients" is the Clients tab's word for another count (the
// connections that sent a LIST or WATCH, one program's connections that follow one another
// joined), and the Server view's "User agents" a third.
import type { LiveServerState } from './live-server-state';
import { plural } from '../../format/count-text';

/**
 * `$(server-process) 127.0.0.1:6443 · 2 connections open (5 since the start) · 3 watchers`: the
 * connections open now, then every one seen since the server started.
 */
export function statusBarText(s: LiveServerState): string {
  return `$(server-process) 127.0.0.1:${s.port} · ${plural(s.connectedClients.length, 'connection', { plain: true })} open (${s.clientsSeen} since the start) · ${plural(s.watchersTotal, 'watcher', { plain: true })}`;
}

export function statusBarTooltip(s: LiveServerState): string {
  return [
    `List/Watch local API server ${s.httpsUrl} (profile ${s.profileName})`,
    `KUBECONFIG=${s.kubeconfigPath}`,
    'A connection is a User-Agent on one TCP connection, whatever it asked (discovery too).',
    `Open now: ${s.connectedClients.join(', ') || 'none'}`,
    `Seen since the start: ${s.clientsSeen}, from ${plural(s.clients.length, 'user agent', { plain: true })} (${s.clients.map((c) => c.userAgent).join(', ') || 'none yet'})`,
    "The inspector's Clients tab counts clients: the connections that sent a LIST or WATCH, one program's connections that follow one another joined.",
    'Click for the server menu',
  ].join('\n');
}

// How a client's name reads in a narrow column: its User-Agent's first word, and whether its
// connections were joined by inference. No upstream counterpart. Shared by the webview and the
// extension's side views.
/**
 * A User-Agent shortened to its product and version: client-go writes
 * `kubectl/v1.33.1 (linux/amd64) kubernetes/8adc0f0` (rest.DefaultKubernetesUserAgent); the first
 * word names the program. Other names stay as they are.
 */
export function shortClientName(userAgent: string): string {
  const first = userAgent.trim().split(/\s+/, 1)[0] ?? '';
  return first.length > 48 ? `${first.slice(0, 47)}…` : first;
}

/**
 * Short names for a set of User-Agents that tell each apart: where two share a first word
 * (kube-controller-manager's `…/shared-informers` and `…/leader-election`), each gets what follows
 * their common part, after an ellipsis; a User-Agent that is all common part is shown whole.
 */
export function shortClientNames(userAgents: readonly string[]): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const ua of new Set(userAgents)) {
    const short = shortClientName(ua);
    const g = groups.get(short);
    if (g) g.push(ua);
    else groups.set(short, [ua]);
  }
  const out = new Map<string, string>();
  for (const [short, uas] of groups) {
    if (uas.length === 1) {
      out.set(uas[0], short);
      continue;
    }
    let common = uas[0].length;
    for (const ua of uas.slice(1)) {
      let i = 0;
      while (i < common && i < ua.length && ua[i] === uas[0][i]) i++;
      common = i;
    }
    for (const ua of uas) {
      const rest = ua
        .slice(common)
        .replace(/^[\s/]+/, '')
        .trimEnd();
      const tail = rest.length > 40 ? `${rest.slice(0, 39)}…` : rest;
      out.set(ua, rest === '' ? ua : `${short} …${tail}`);
    }
  }
  return out;
}

/**
 * An imported client's name: its User-Agent, followed by the process when a client log names one
 * (klog's pid in its file: `kubectl/v1.35.2 (…) · wait.log pid 10425`); a process whose log shows
 * no User-Agent (-v=6 logs no headers) is named by its file and pid alone.
 */
export function importedClientName(c: { userAgent: string; process?: string }): string {
  if (c.process === undefined) return c.userAgent;
  return c.userAgent ? `${c.userAgent} · ${c.process}` : c.process;
}

/**
 * Short names for imported clients, by importedClientName: the User-Agent's (shortClientNames),
 * and the process after it whenever a client log names one (two kubectl runs share a User-Agent).
 */
export function shortImportedClientNames(
  clients: ReadonlyArray<{ userAgent: string; process?: string }>,
): Map<string, string> {
  const agents = shortClientNames(clients.map((c) => c.userAgent).filter((ua) => ua !== ''));
  const out = new Map<string, string>();
  for (const c of clients) {
    const agent = agents.get(c.userAgent) ?? '';
    const name = c.process === undefined ? agent : agent ? `${agent} · ${c.process}` : c.process;
    out.set(importedClientName(c), name);
  }
  return out;
}

/** How a client's grouping text begins when it rests on an inference (client-records.ts). */
export const inferredGroupingPrefix = 'inferred, not proven';

/** `c7, c9 (inferred)` for connections joined by inference; the connection alone otherwise. */
export function connectionText(c: { connection?: string; grouping?: string }): string {
  if (c.connection === undefined) return '';
  return c.grouping?.startsWith(inferredGroupingPrefix)
    ? `${c.connection} (inferred)`
    : c.connection;
}

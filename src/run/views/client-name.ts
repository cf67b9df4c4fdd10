// How a client's name reads in a narrow column: its User-Agent's first word. No upstream
// counterpart. Shared by the webview and the extension's side views.
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

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

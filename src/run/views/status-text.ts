// A Kubernetes Status as one line: `410 Expired: too old resource version: 101 (8901)`, or, when
// upstream's message already starts with the reason, `504 Timeout: Too large resource version: …`
// (not "Timeout: Timeout:"). No upstream counterpart; the message stays byte for byte. Shared by
// the host's Watchers rows and the webview's detail.

export function statusText(s: { code: number; reason?: string; message: string }): string {
  const reason = s.reason ?? '';
  if (!reason || s.message.startsWith(`${reason}:`) || s.message === reason)
    return `${s.code} ${s.message}`;
  return `${s.code} ${reason}: ${s.message}`;
}

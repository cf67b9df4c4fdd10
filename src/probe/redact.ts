// No upstream counterpart: how the probe shows a credential it will send (client-go's
// transport/round_trippers.go masks it the same way in -v=9 logs, minus the length).

/** An Authorization value with its secret replaced: `Bearer <redacted, 43 chars>`. */
export function redactAuthorization(value: string): string {
  const sp = value.indexOf(' ');
  const scheme = sp < 0 ? '' : value.slice(0, sp);
  const secret = sp < 0 ? value : value.slice(sp + 1);
  return `${scheme ? `${scheme} ` : ''}<redacted, ${secret.length} chars>`;
}

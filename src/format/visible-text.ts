// No upstream counterpart: text from a token, a log or a trace made safe to show. Control
// characters (C0, DEL, C1) become visible, so a message can neither break lines nor drive a
// terminal; every face (CLI, hover, views, notifications) uses this one rule.

/** Control characters made visible: C0 as Unicode control pictures (NUL -> ␀), DEL as ␡, C1 as \u0085. */
export function visibleText(s: string, keep = ''): string {
  let out = '';
  for (const ch of s) {
    const n = ch.charCodeAt(0);
    if (keep.includes(ch)) out += ch;
    else if (n < 0x20) out += String.fromCharCode(0x2400 + n);
    else if (n === 0x7f) out += '\u2421';
    else if (n >= 0x80 && n <= 0x9f) out += `\\u${n.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** A message (possibly several lines) with every other control character made visible. */
export function visibleMessage(s: string): string {
  return visibleText(s, '\n');
}

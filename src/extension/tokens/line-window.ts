// Finding a token under the cursor without reading more than a bounded window of one line, so a
// hover in a huge log (or a minified JSON list on one line) stays cheap.
import { tokenAt, type FoundContinueToken } from '../../scan/continue-token-scan';

// Continue tokens are base64 of a short JSON struct whose start key is an etcd key (at most a few
// hundred bytes in practice); 16 KiB on each side of the cursor is far more than any real one.
export const tokenWindowChars = 16 * 1024;

/** The token covering `character` in `line`, with start/end relative to the whole line. */
export function tokenAtInWindow(line: string, character: number): FoundContinueToken | undefined {
  if (line.length <= 2 * tokenWindowChars) return tokenAt(line, character);
  const from = Math.max(0, character - tokenWindowChars);
  const to = Math.min(line.length, character + tokenWindowChars);
  const found = tokenAt(line.slice(from, to), character - from);
  // A match touching a cut edge may be a fragment of something longer: not a token we can trust.
  if (!found || (found.start === 0 && from > 0) || (found.end === to - from && to < line.length))
    return undefined;
  return { ...found, start: found.start + from, end: found.end + from };
}

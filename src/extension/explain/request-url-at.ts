// No upstream counterpart: the LIST or WATCH URL under the cursor on a log line (as
// src/scan/log-line-context.ts finds them), the cheap test the entry makes before the hover loads
// the explain chunk.
import { listUrlsOnLine, type LineUrl } from '../../scan/log-line-context';

/** Longest line read for URLs (a JSON audit line can be long; a minified file is not a log). */
const maxHoverLineLength = 100_000;

/** The URL on `line` that `character` is in, if any. */
export function requestUrlAt(line: string, character: number): LineUrl | undefined {
  if (line.length > maxHoverLineLength) return undefined;
  return listUrlsOnLine(line).find((u) => u.start <= character && character <= u.end);
}

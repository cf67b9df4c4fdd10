// Short names for a token in tab titles and tree rows. The base64 of every token starts alike
// ("eyJ2IjoibWV0YS5r..." is `{"v":"meta.k`), so names come from what it decodes to.
import type { ContinueTokenExplanation } from '../../engine';
import { visibleText } from '../../format/visible-text';

/** The token's beginning and end, for when nothing better is known. */
export function shortToken(token: string): string {
  return token.length <= 20 ? token : `${token.slice(0, 10)}…${token.slice(-6)}`;
}

const maxStartChars = 48;

/** "rv 48213 · shop/web-1␀" for a token the apiserver accepts, "invalid: <reason>" otherwise. */
export function tokenTitle(e: ContinueTokenExplanation): string {
  if (!e.valid || !e.fields) return `invalid: ${e.error?.reason ?? 'unknown reason'}`;
  const start = visibleText(e.fields.start);
  return `rv ${e.fields.rv} · ${start.length > maxStartChars ? `${start.slice(0, maxStartChars - 1)}…` : start}`;
}

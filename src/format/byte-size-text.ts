// No upstream counterpart: how a size in bytes reads (`512 B`, `8.5 KiB`, `64.1 MiB`), in every
// face, written once. Three forms, because three kinds of size are told: a measured size, a rough
// one (an estimate, a file) and a limit someone set.

/** The largest unit `formatBytes` writes; above it the number grows (`2048.0 MiB`). */
export type LargestByteUnit = 'KiB' | 'MiB' | 'GiB';

/**
 * A measured size in binary units: `512 B`, `8.5 KiB`, `64.1 MiB`, `1.25 GiB` (one decimal, two
 * for GiB); `—` for a size that is not finite. `largest` caps the unit (default MiB).
 */
export function formatBytes(n: number, largest: LargestByteUnit = 'MiB'): string {
  if (!Number.isFinite(n)) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024 || largest === 'KiB') return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * 1024 * 1024 || largest === 'MiB') return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

/** A rough size, where bytes do not matter: `1.2 MiB`, `3.0 GiB`; under a MiB in whole KiB, at least 1. */
export function formatBytesRoughly(b: number): string {
  const mib = 1024 * 1024;
  if (b >= 1024 * mib) return `${(b / 1024 / mib).toFixed(1)} GiB`;
  if (b >= mib) return `${(b / mib).toFixed(1)} MiB`;
  return `${Math.max(1, Math.round(b / 1024))} KiB`;
}

/** A limit as it was set: `64 MiB`, or the bytes when not a whole number of MiB (`1000 bytes`). */
export function formatByteLimit(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
}

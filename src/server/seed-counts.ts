// No upstream counterpart: the objects `listwatch serve --seed` (and the extension's Start Local API
// Server) create in namespace "default" at start, as `pods=N,configmaps=N`.

/** Objects to create in `default` at start. */
export interface SeedCounts {
  pods?: number;
  configmaps?: number;
}

/** `pods=N,configmaps=N`; throws an Error naming the part that is not one of those. */
export function parseSeedCounts(text: string): SeedCounts {
  const counts: SeedCounts = {};
  for (const part of text.split(',')) {
    const m = /^(pods|configmaps)=([0-9]+)$/.exec(part.trim());
    if (!m)
      throw new Error(`--seed expects pods=N,configmaps=N, got ${JSON.stringify(part.trim())}`);
    counts[m[1] as keyof SeedCounts] = Number(m[2]);
  }
  return counts;
}

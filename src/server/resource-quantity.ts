// Mirrors apimachinery pkg/api/resource/quantity.go's ParseQuantity (release-1.36) as far as the
// QoS class needs it: a quantity's value, to compare and add. Deliberate difference: the value is
// a float64, not an exact decimal (equal spellings such as `0.5` and `500m` compare equal; no
// comparison here depends on more than 15 significant digits).

const suffixes: Readonly<Record<string, number>> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const quantityRE = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([eE][+-]?[0-9]+)|([a-zA-Z]*))$/;

/** The value of a quantity (`500m`, `1Gi`, `1e3`, or a JSON number); undefined when it is none. */
export function quantityValue(q: unknown): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  if (typeof q !== 'string') return undefined;
  const m = quantityRE.exec(q);
  if (!m) return undefined;
  if (m[2] !== undefined) return Number(m[1] + m[2]);
  const scale = suffixes[m[3] ?? ''];
  return scale === undefined ? undefined : Number(m[1]) * scale;
}

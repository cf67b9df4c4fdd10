// No upstream counterpart: a duration as the run model's texts write it (`3 s`, `1.5 s`).
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms % 1000 === 0 ? 0 : 1)} s`;
}

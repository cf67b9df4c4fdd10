// Mirrors k8s.io/apimachinery pkg/util/duration/duration.go (release-1.36): HumanDuration and
// ShortHumanDuration, the AGE column's text. Durations are milliseconds (Go: time.Duration in ns);
// every division truncates toward zero as Go's integer conversions do.

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/** ShortHumanDuration: one unit, limited precision. */
export function shortHumanDuration(ms: number): string {
  const seconds = Math.trunc(ms / second);
  // Up to 2 s in the future (excluded) is clock skew: "now".
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.trunc(ms / minute);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.trunc(ms / hour);
  if (hours < 24) return `${hours}h`;
  if (hours < 24 * 365) return `${Math.trunc(hours / 24)}d`;
  return `${Math.trunc(ms / hour / 24 / 365)}y`;
}

/** HumanDuration: about 2–3 significant figures (`3m10s`, `2d1h`, `2y1d`). */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / second);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / minute);
  if (minutes < 10) {
    const s = Math.trunc(ms / second) % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / hour);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const dy = days % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

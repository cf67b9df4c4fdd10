// No upstream counterpart: the year a klog file (`I0312 10:15:07`, no year) is read in when the
// same import holds a file whose times carry their year (an audit log): the year that puts the
// klog file's first line nearest that file's first date, so that a log written the same day
// lands the same day (and one written on 31 December beside an audit log of 1 January lands the
// day before, not a year later).

/** Years looked at either side of the dated file's: 4 reach a leap year for a 29 February line. */
const yearsAround = 4;

/**
 * The year in which `timeIn` (a year-less timestamp read in a given year; undefined when its date
 * does not exist then) is nearest `reference` (epoch ms); undefined when no year near it fits.
 */
export function nearestYear(
  timeIn: (year: number) => number | undefined,
  reference: number,
): number | undefined {
  const around = new Date(reference).getUTCFullYear();
  let best: { year: number; distance: number } | undefined;
  for (let year = around - yearsAround; year <= around + yearsAround; year++) {
    const t = timeIn(year);
    if (t === undefined) continue;
    const distance = Math.abs(t - reference);
    if (!best || distance < best.distance) best = { year, distance };
  }
  return best?.year;
}

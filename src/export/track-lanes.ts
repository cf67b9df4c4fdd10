// Spreads intervals over as few lanes as needed so that no two on one lane overlap. No upstream
// counterpart: the Trace Event Format requires the slices of one thread track to nest, and a
// client's requests (an informer's WATCH held open while it relists) or a run's dispatches may
// overlap without nesting; each lane becomes a track of its own.

export interface Interval {
  start: number;
  end: number;
}

/** The lane of each interval (same order as given); `intervals` sorted by start. */
export function assignLanes(intervals: readonly Interval[]): number[] {
  const laneEnds: number[] = [];
  return intervals.map((iv) => {
    let lane = laneEnds.findIndex((end) => end <= iv.start);
    if (lane < 0) {
      lane = laneEnds.length;
      laneEnds.push(iv.end);
    } else laneEnds[lane] = iv.end;
    return lane;
  });
}

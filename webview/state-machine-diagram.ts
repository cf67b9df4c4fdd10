// One watcher's bookmark state machine drawn in our own SVG: upstream's three cacheWatcher states
// (cache_watcher.go: cacheWatcherWaitingForBookmark, cacheWatcherBookmarkReceived,
// cacheWatcherBookmarkSent), each named as its user reads it with upstream's name beneath, the
// transitions this watcher took with counts and times up to the scrubber, what comes later
// (dashed), and the state it is in at that moment highlighted.
import type { WatcherStateName, WatcherTrack } from '../src/protocol';
import {
  formatVirtualTime,
  watcherClosedAt,
  watcherStateAt,
  watcherStateLabels,
  watcherStateNames,
  watcherStateText,
  watcherTransitions,
} from '../src/run/views/watcher-states';
import { s, svgText } from './dom';

const width = 570;
const nodeW = 172;
const nodeH = 60;
const nodeX: Record<WatcherStateName, number> = {
  WaitingForBookmark: 88,
  BookmarkReceived: 285,
  BookmarkSent: 482,
};
const order = (st: WatcherStateName) => watcherStateNames.indexOf(st);

/** The usual path through the machine: drawn even when this watcher never took it. */
const canonicalEdges: Array<[WatcherStateName, WatcherStateName]> = [
  ['WaitingForBookmark', 'BookmarkReceived'],
  ['BookmarkReceived', 'BookmarkSent'],
];

let diagramCount = 0;

function timesText(times: number[]): string {
  const shown = times.slice(0, 2).map(formatVirtualTime).join(', ');
  return times.length > 2 ? `${shown}, …` : shown;
}

/** Time spent in each state from the first change up to `at`. */
function timeInStates(
  track: WatcherTrack,
  at: number,
  runEnd: number,
): Record<WatcherStateName, number> {
  const spent: Record<WatcherStateName, number> = {
    WaitingForBookmark: 0,
    BookmarkReceived: 0,
    BookmarkSent: 0,
  };
  const end = Math.min(at, track.closedAt ?? runEnd);
  for (const [i, change] of track.states.entries()) {
    if (change.at > end) break;
    const next = i + 1 < track.states.length ? Math.min(track.states[i + 1].at, end) : end;
    spent[change.state] += Math.max(0, next - change.at);
  }
  return spent;
}

/** The diagram for `track` at virtual time `at` (a new SVG element each call; it is small). */
export function stateMachineDiagram(
  track: WatcherTrack,
  at: number,
  runEnd: number,
): SVGSVGElement {
  const id = `sm${++diagramCount}`;
  const current = watcherStateAt(track, at);
  const closed = watcherClosedAt(track, at, runEnd);
  const spent = timeInStates(track, at, runEnd);
  const visited = new Set(track.states.filter((c) => c.at <= at).map((c) => c.state));
  const summary =
    current === undefined
      ? `Watcher ${track.id} is not open yet at ${formatVirtualTime(at)}.`
      : `Watcher ${track.id} is ${closed ? 'closed, last ' : 'in '}${watcherStateText(current, track)} (${current}) at ${formatVirtualTime(at)}.`;
  const edges = watcherTransitions(track);
  for (const [from, to] of canonicalEdges) {
    if (!edges.some((e) => e.from === from && e.to === to)) edges.push({ from, to, times: [] });
  }
  // Room above the row for arcs that skip a state, below it for arcs going back.
  const skips = edges.some((e) => order(e.to) - order(e.from) > 1);
  const backs = edges.some((e) => order(e.to) < order(e.from));
  const rowY = skips ? 120 : 76;
  const height = rowY + (backs ? 112 : 52);
  const svg = s('svg', {
    class: 'state-machine',
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': summary,
  });
  svg.appendChild(s('title', {}, summary));
  const arrow = (name: string, cls: string) =>
    s(
      'marker',
      {
        id: `${id}-${name}`,
        viewBox: '0 0 10 10',
        refX: 9,
        refY: 5,
        markerWidth: 7,
        markerHeight: 7,
        orient: 'auto-start-reverse',
      },
      s('path', { d: 'M0 0L10 5L0 10z', class: cls }),
    );
  svg.appendChild(
    s('defs', {}, arrow('taken', 'sm-arrowhead'), arrow('later', 'sm-arrowhead later')),
  );

  for (const edge of edges) {
    const past = edge.times.filter((t) => t <= at);
    const future = edge.times.filter((t) => t > at);
    const taken = past.length > 0;
    const fx = nodeX[edge.from];
    const tx = nodeX[edge.to];
    const forward = order(edge.to) > order(edge.from);
    const adjacent = Math.abs(order(edge.to) - order(edge.from)) === 1;
    let path: string;
    let lx: number;
    let ly: number;
    if (forward && adjacent) {
      path = `M${fx + nodeW / 2} ${rowY}L${tx - nodeW / 2 - 2} ${rowY}`;
      // Above the row: the gap between two boxes is narrower than a label.
      lx = (fx + tx) / 2;
      ly = rowY - nodeH / 2 - 8;
    } else if (forward) {
      path = `M${fx} ${rowY - nodeH / 2}Q${(fx + tx) / 2} ${rowY - 150} ${tx} ${rowY - nodeH / 2 - 2}`;
      lx = (fx + tx) / 2;
      ly = rowY - 92;
    } else {
      path = `M${fx} ${rowY + nodeH / 2}Q${(fx + tx) / 2} ${rowY + 130} ${tx} ${rowY + nodeH / 2 + 2}`;
      lx = (fx + tx) / 2;
      ly = rowY + 92;
    }
    // A watch that asked for no initial events is put in BookmarkSent as it opens
    // (setBookmarkAfterResourceVersion(0)), at once or, on the real clock, a moment later: no
    // bookmark was sent, and the edge says so.
    const atOpen =
      track.bookmarkFloorRv === 0 &&
      edge.from === 'WaitingForBookmark' &&
      edge.to === 'BookmarkSent' &&
      edge.times.length === 1 &&
      edge.times[0] === track.states[1]?.at;
    const when = taken
      ? `${past.length}× at ${timesText(past)}`
      : future.length > 0
        ? `later: ${timesText(future)}`
        : 'not taken';
    const label = atOpen && taken ? 'at open: no initial events asked' : when;
    const describe = `${watcherStateLabels[edge.from]} (${edge.from}) → ${watcherStateLabels[edge.to]} (${edge.to}): ${when}${atOpen ? '; the watch asked for no initial events, so the cacher marks it BookmarkSent as it opens: no bookmark was sent' : ''}`;
    const g = s(
      'g',
      { class: `sm-edge${taken ? ' taken' : ' later'}` },
      s('title', {}, describe),
      s('path', { d: path, 'marker-end': `url(#${id}-${taken ? 'taken' : 'later'})` }),
      svgText(lx, ly, label, { 'text-anchor': 'middle', class: 'sm-edge-label' }),
    );
    svg.appendChild(g);
  }

  // Where the watcher started: a dot with an arrow into its first state.
  if (track.states.length > 0) {
    const first = track.states[0];
    const fx = nodeX[first.state];
    const top = rowY - nodeH / 2;
    svg.appendChild(
      s(
        'g',
        { class: `sm-edge ${first.at <= at ? 'taken' : 'later'}` },
        s(
          'title',
          {},
          `opened in ${watcherStateLabels[first.state]} at ${formatVirtualTime(first.at)}`,
        ),
        s('circle', { cx: fx - 40, cy: top - 34, r: 5, class: 'sm-start' }),
        s('path', {
          d: `M${fx - 36} ${top - 30}L${fx - 12} ${top - 3}`,
          'marker-end': `url(#${id}-${first.at <= at ? 'taken' : 'later'})`,
        }),
        svgText(fx - 30, top - 32, `opened ${formatVirtualTime(first.at)}`, {
          'text-anchor': 'start',
          class: 'sm-edge-label',
        }),
      ),
    );
  }

  // WaitingForBookmark of a watch with no bookmark floor is only its opening moment (watcherStateText).
  const nodeLabel = (state: WatcherStateName): string =>
    state === 'WaitingForBookmark' ? watcherStateText(state, track) : watcherStateLabels[state];
  for (const state of watcherStateNames) {
    const cx = nodeX[state];
    const isCurrent = state === current;
    const cls = `sm-node${isCurrent ? (closed ? ' current closed' : ' current') : ''}${visited.has(state) ? ' visited' : ''}`;
    const detail =
      isCurrent && !closed
        ? `now · ${formatVirtualTime(spent[state])} here`
        : visited.has(state)
          ? `${formatVirtualTime(spent[state])} here`
          : 'not reached';
    svg.appendChild(
      s(
        'g',
        { class: cls },
        s('title', {}, `${nodeLabel(state)} (${state}): ${detail}`),
        s('rect', { x: cx - nodeW / 2, y: rowY - nodeH / 2, width: nodeW, height: nodeH, rx: 10 }),
        svgText(cx, rowY - 9, nodeLabel(state), {
          'text-anchor': 'middle',
          class: 'sm-node-label',
        }),
        svgText(cx, rowY + 7, state, { 'text-anchor': 'middle', class: 'sm-node-upstream' }),
        svgText(cx, rowY + 22, detail, { 'text-anchor': 'middle', class: 'sm-node-detail' }),
      ),
    );
  }

  if (closed) {
    const reason = track.closeReason || (track.terminated ? 'terminated' : 'closed');
    const when = track.closedAt !== undefined ? ` at ${formatVirtualTime(track.closedAt)}` : '';
    const label = `ended${when}: ${reason}`;
    svg.appendChild(
      s(
        'g',
        { class: 'sm-end' },
        s('title', {}, `The watch ended${when}: ${reason}`),
        s('circle', { cx: width - 16, cy: height - 14, r: 8 }),
        s('circle', { cx: width - 16, cy: height - 14, r: 4, class: 'inner' }),
        svgText(width - 30, height - 10, label.length > 70 ? `${label.slice(0, 69)}…` : label, {
          'text-anchor': 'end',
          class: 'sm-end-label',
        }),
      ),
    );
  }
  return svg;
}

// No upstream counterpart: the Replay tab's rows, made on the host from a replayed import's run
// model: each re-issued LIST and WATCH with the log's answer and the engine's in words, and what
// differs. Bounded (the disagreeing rows are kept first), plain data for the webview.
import type { ReplayPanel, ReplayRow } from '../../protocol';
import type { ListRecord, LoggedAnswer, RunModel, WatchRequestRecord } from '../../run/run-model';
import {
  notModelledAnswerText,
  notReproducedAnswerText,
  replayCountOf,
} from '../../run/views/replay-count';

/**
 * The row's words for a log fault the replay does not model, or for an answer it could not
 * re-create, and why (absent: none).
 */
function notModelled(a: LoggedAnswer | undefined): {
  notModelled?: string;
  notReproduced?: string;
} {
  if (a?.notReproduced !== undefined)
    return { notReproduced: notReproducedAnswerText(a.notReproduced) };
  return a?.notModelled && a.status !== undefined
    ? { notModelled: notModelledAnswerText(a.status) }
    : {};
}

/** Rows the tab gets at most. */
export const maxReplayRows = 5000;

function loggedText(a: LoggedAnswer | undefined): string {
  if (!a) return '—';
  const parts: string[] = [];
  if (a.status !== undefined)
    parts.push(a.error ? `${a.status} ${a.error.reason}`.trim() : String(a.status));
  if (a.items !== undefined) parts.push(`${a.items} items`);
  if (a.remainingItemCount !== undefined) parts.push(`remainingItemCount ${a.remainingItemCount}`);
  if (a.continue !== undefined) parts.push(a.continue ? 'more pages' : 'last page');
  if (a.durationMs !== undefined) parts.push(`open ${(a.durationMs / 1000).toFixed(1)} s`);
  return parts.length ? parts.join(', ') : 'the log does not say';
}

function listEngineText(l: ListRecord): string {
  if (l.error) return `${l.error.code} ${l.error.reason}`.trim();
  const parts = [
    '200',
    `${l.returned} items`,
    ...(l.remainingItemCount !== undefined ? [`remainingItemCount ${l.remainingItemCount}`] : []),
    l.continue ? 'more pages' : 'last page',
    `served by ${l.servedBy}`,
  ];
  return parts.join(', ');
}

function watchEngineText(w: WatchRequestRecord): string {
  const parts = [w.error ? `${w.error.code} ${w.error.reason}`.trim() : '200'];
  if (w.closedAt !== undefined) parts.push(`open ${((w.closedAt - w.at) / 1000).toFixed(1)} s`);
  else if (!w.error) parts.push('open to the end');
  return parts.join(', ');
}

/** The Replay tab's data, or undefined for a run that is not a replayed import. */
export function replayPanel(model: RunModel): ReplayPanel | undefined {
  if (model.header.scenario !== 'import') return undefined;
  const rows: ReplayRow[] = [];
  for (const l of model.lists) {
    if (!l.logged) continue;
    rows.push({
      at: l.at,
      kind: 'list',
      client: l.client ?? '',
      request: l.request,
      logged: loggedText(l.logged),
      engine: listEngineText(l),
      disagrees: l.disagrees ?? [],
      ...notModelled(l.logged),
      ...(l.logged.latencyNotReproduced
        ? { latencyNotReproduced: l.logged.latencyNotReproduced.text }
        : {}),
      listId: l.id,
    });
  }
  for (const w of model.watchRequests ?? []) {
    if (!w.logged) continue;
    rows.push({
      at: w.at,
      kind: 'watch',
      client: w.client,
      request: w.request,
      logged: loggedText(w.logged),
      engine: watchEngineText(w),
      disagrees: w.disagrees ?? [],
      ...notModelled(w.logged),
    });
  }
  let kept = rows;
  if (rows.length > maxReplayRows) {
    // The disagreeing rows are the ones worth a look: they stay.
    kept = [
      ...rows.filter((r) => r.disagrees.length > 0),
      ...rows.filter((r) => !r.disagrees.length),
    ].slice(0, maxReplayRows);
  }
  kept.sort((a, b) => a.at - b.at);
  return {
    rows: kept,
    rowsDropped: rows.length - kept.length,
    count: replayCountOf(model),
    ...(model.comparison ? { comparison: model.comparison } : {}),
  };
}

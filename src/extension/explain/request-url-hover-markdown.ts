// The request-URL hover's text: the short answer for a LIST or WATCH URL, the state it assumes, and
// the link to the full explanation. Free of the vscode API (request-url-hover.ts wraps it) so that
// unit tests read exactly what the hover shows. No upstream counterpart.
import type { RequestExplanation } from '../../explain/explain-request';
import { assumedStatePhrases, explanationSummary } from '../../explain/explanation-text';
import { visibleText } from '../../format/visible-text';
import { commandLink } from '../shared/command-link';
import { explainRequestCommandId } from '../ids';

function escapeMarkdown(text: string): string {
  return visibleText(text).replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}

/** The hover's markdown for `url`, explained as `e`. */
export function requestUrlHoverMarkdown(e: RequestExplanation, url: string): string {
  const limit =
    e.limit === null ? '' : ` · limit ${e.limit} ${e.limitHonoured ? 'honoured' : 'ignored'}`;
  const assumptions = assumedStatePhrases(e);
  return [
    `**${escapeMarkdown(explanationSummary(e))}**`,
    '',
    escapeMarkdown(e.rule),
    '',
    // A resource nobody serves reaches no storage: no read, wait or cluster state to speak of.
    ...(e.servedResource === 'none'
      ? []
      : [
          `consistent read: ${e.consistentRead ? 'yes' : 'no'} · may wait up to 3 s: ${e.mayWait ? 'yes' : 'no'}${limit}`,
          '',
          // Each assumption on its own: a yes/no written beside one belongs to that one only.
          `_Assumed, not your cluster: ${assumptions.map(escapeMarkdown).join('; ')}\\._`,
          '',
        ]),
    commandLink(
      'Explain in Full',
      explainRequestCommandId,
      [url],
      'Open the whole explanation: etcd calls, the errors it can meet and in which state',
    ),
  ].join('\n');
}

// No upstream counterpart: explain's chunk (dist/extension-explain.js, loaded on the first Explain
// List/Watch Request or the first hover over a LIST/WATCH URL; src/extension/lazy-feature.ts).
import type { CommandHandlers } from '../lazy-feature';
import type { ExplainDocument } from './explain-document';
import { explainCommands } from './explain-request-command';
import { RequestUrlHoverProvider } from './request-url-hover';

export function activateExplain(doc: ExplainDocument): {
  commands: CommandHandlers;
  hover: RequestUrlHoverProvider;
} {
  return { commands: explainCommands(doc), hover: new RequestUrlHoverProvider() };
}

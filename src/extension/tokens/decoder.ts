// The decoder: explain a token for its key prefix, remember it in the Tokens view, show the result
// in the decoder document. Every face of the extension that decodes (commands, hover link, tree
// actions, Encode) ends here.
import { explainContinueToken, type ContinueTokenExplanation } from '../../engine';
import type { DecodeRequest, ExplanationDocument } from './explanation-document';
import { recentToken, type RecentTokens } from './recent-tokens';

export class Decoder {
  readonly recent: RecentTokens;
  private readonly document: ExplanationDocument;

  constructor(recent: RecentTokens, document: ExplanationDocument) {
    this.recent = recent;
    this.document = document;
  }

  /** `remember: false` leaves the Tokens view's list as it is (the caller placed the entry). */
  async open(request: DecodeRequest, remember = true): Promise<ContinueTokenExplanation> {
    const explanation = explainContinueToken(request.token, request.keyPrefix);
    if (remember) await this.recent.remember(recentToken(request));
    await this.document.show(request);
    return explanation;
  }
}

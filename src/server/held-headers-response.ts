// No upstream counterpart: the server's http.ServerResponse (createServer's ServerResponse option),
// which can hold back the headers the filters give every response (WithCacheControl's, APF's) and
// hand them to writeHead with the handler's own. Node keeps headers set one by one in a dictionary
// for as long as the response lives (about 600 bytes); headers given to writeHead alone are only
// in the header block it writes. An idle watch lives long: its response holds its headers back.
import {
  ServerResponse,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
} from 'node:http';

/**
 * A long-lived stream over a response (a watch's handler): told of the response's 'close' and
 * 'error' and, once it asks, its 'drain', through listeners every response shares (an idle watch
 * then holds no closures of its own for them).
 */
export interface ResponseStream {
  /** 'close' or 'error': the client is gone. */
  responseClosed(): void;
  /** 'drain': the socket takes writes again. */
  responseDrained(): void;
}

function streamClosed(this: HeldHeadersResponse): void {
  this.stream?.responseClosed();
}

function streamDrained(this: HeldHeadersResponse): void {
  this.stream?.responseDrained();
}

export class HeldHeadersResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  /** The headers held back for writeHead, in the order they go out (before the handler's). */
  private heldHeaders: Readonly<OutgoingHttpHeaders> | undefined = undefined;
  /** The stream the response carries (see ResponseStream). */
  stream: ResponseStream | undefined = undefined;

  /** Tells `stream` of 'close' and 'error' from now on. */
  carry(stream: ResponseStream): void {
    this.stream = stream;
    this.on('close', streamClosed);
    // A failed write means the client is gone; never an unhandled 'error'.
    this.on('error', streamClosed);
  }

  /** Tells the stream of 'drain' too (a stream that never fills the socket never asks). */
  listenDrain(): void {
    this.on('drain', streamDrained);
  }

  /** The stream is done: it hears nothing more. */
  release(): void {
    this.off('drain', streamDrained);
    this.off('close', streamClosed);
    this.off('error', streamClosed);
    this.stream = undefined;
  }

  /**
   * Lets Node's copy of the header block go once it is on its way (a long-lived response, a
   * watch's, would hold its few hundred bytes for life). After sending, Node reads `_header` only
   * as "headers sent" (headersSent, end, writeHead's and _renderHeaders' checks), which a short
   * placeholder still says.
   */
  forgetSentHeader(): void {
    const self = this as unknown as { _header: unknown; _headerSent: unknown };
    if (self._headerSent === true && typeof self._header === 'string' && self._header !== '')
      self._header = sentHeaderPlaceholder;
  }

  /** Sends `headers` first in writeHead instead of setting them now. */
  holdHeaders(headers: Readonly<OutgoingHttpHeaders>): void {
    this.heldHeaders = headers;
  }

  override writeHead(
    statusCode: number,
    reasonOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const held = this.heldHeaders;
    if (held === undefined)
      return super.writeHead(statusCode, reasonOrHeaders as string, headers as OutgoingHttpHeaders);
    this.heldHeaders = undefined;
    const reason = typeof reasonOrHeaders === 'string' ? reasonOrHeaders : undefined;
    const own = typeof reasonOrHeaders === 'string' ? headers : reasonOrHeaders;
    if (this.getHeaderNames().length === 0 && (own === undefined || !Array.isArray(own))) {
      // The common case: nothing set one by one, so nothing for Node to keep.
      const all = { ...held, ...own };
      return reason === undefined
        ? super.writeHead(statusCode, all)
        : super.writeHead(statusCode, reason, all);
    }
    // Headers were set one by one (a fault's Retry-After): the held ones go before them, as they
    // would have had they been set first.
    // Node's getRawHeaderNames (since 15.13, missing from its types): the names as they were set.
    const names = (this as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames();
    const earlier = names.map((name) => [name, this.getHeader(name)] as const);
    for (const [name] of earlier) this.removeHeader(name);
    for (const [name, value] of Object.entries(held))
      if (value !== undefined) this.setHeader(name, value);
    for (const [name, value] of earlier) if (value !== undefined) this.setHeader(name, value);
    return reason === undefined
      ? super.writeHead(statusCode, own as OutgoingHttpHeaders)
      : super.writeHead(statusCode, reason, own as OutgoingHttpHeaders);
  }
}

/** What `_header` reads once forgotten: non-empty, as Node tests it for truth. */
const sentHeaderPlaceholder = '\r\n';

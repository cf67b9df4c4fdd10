// No upstream counterpart: when a response ended, as its client saw it: its last byte handed to
// the socket. For the faces that time requests (the live recorder, the debug state).
import type { ServerResponse } from 'node:http';

/**
 * Calls `ended` once: when the response's last byte was handed to the socket ('prefinish',
 * emitted inside res.end()), or when it closed without that (the client went away). Not at
 * 'close' alone: that comes after the socket's write callback, and a client that read the whole
 * answer may have sent its next request by then (its next page recorded as sent before this one
 * was answered).
 */
export function onResponseEnd(res: ServerResponse, ended: () => void): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    ended();
  };
  res.once('prefinish', once);
  res.once('close', once);
}

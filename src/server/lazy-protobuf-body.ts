// No upstream counterpart: protobuf-body.ts, with protobufjs, long and protobuf-messages.ts' field
// tables (a tenth of the serve bundle), initialised by the first protobuf request body rather than
// by every start of the server (most clients never send one).
import type * as ProtobufBody from './protobuf-body';

let loaded: typeof ProtobufBody | undefined;

/** protobuf-body.ts, its module initialised on the first call. */
export function protobufBody(): typeof ProtobufBody {
  // A require inside a function: esbuild bundles the module behind it and runs it on this call.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./protobuf-body') as typeof ProtobufBody);
}

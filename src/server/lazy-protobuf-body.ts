// No upstream counterpart: protobuf-body.ts, with protobufjs, long and protobuf-messages.ts' field
// tables (a tenth of the serve bundle), loaded by the first protobuf request body rather than by
// every start of the server (many clients never send one). In `listwatch serve` it is a chunk of
// its own (dist/cli-serve-protobuf.js, esbuild.js); elsewhere a module of the bundle, run then.
import type * as ProtobufBody from './protobuf-body';

let loaded: typeof ProtobufBody | undefined;

/** protobuf-body.ts, its module initialised on the first call. */
export function protobufBody(): typeof ProtobufBody {
  // A require inside a function: esbuild bundles the module behind it and runs it on this call.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./protobuf-body') as typeof ProtobufBody);
}

// No upstream counterpart: what went wrong in a probe, in words that name the input (the
// kubeconfig, the context, the URL) or the cluster's answer (its Status), for the CLI and VS Code.

export class ProbeError extends Error {
  constructor(
    message: string,
    /** The HTTP status when the cluster answered with an error. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProbeError';
  }
}

// Mirrors k8s.io/apiserver pkg/server/filters/priority-and-fairness.go (release-1.36)
// setResponseHeaders: every request that passes authentication is classified by API Priority and
// Fairness, and its response names the matched FlowSchema and PriorityLevelConfiguration by UID
// (watches too; upstream skips only long-running non-watch requests, which this server has none of).
// Deliberate difference: no queuing. The server's one user is in system:masters, which the
// mandatory `exempt` FlowSchema matches first (matchingPrecedence 1) for every resource and
// non-resource URL, at the `exempt` priority level; so every request is classified the same way.
import type { ServerResponse } from 'node:http';

/**
 * The UIDs of the mandatory `exempt` FlowSchema and PriorityLevelConfiguration. Made up: a
 * cluster's come from its apiserver creating the objects; these are fixed so runs compare.
 */
export const exemptFlowSchemaUID = '6c9e3a4f-0b1d-4c57-9a6e-2f8d1e7b5a01';
export const exemptPriorityLevelUID = '9f2b6d1c-3e4a-4b8f-8c7d-5a0e1f2b3c02';

/** The exempt classification's headers, in setResponseHeaders' order (as Go canonicalizes them). */
export const responseHeaders = Object.freeze({
  'X-Kubernetes-Pf-Prioritylevel-Uid': exemptPriorityLevelUID,
  'X-Kubernetes-Pf-Flowschema-Uid': exemptFlowSchemaUID,
});

/** setResponseHeaders for the exempt classification. */
export function setResponseHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(responseHeaders)) res.setHeader(name, value);
}

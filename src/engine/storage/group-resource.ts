// Mirrors k8s.io/apimachinery pkg/runtime/schema/group_version.go (GroupResource and its String).

/** A group/resource pair (schema.GroupResource); printed `resource` or `resource.group`. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** groupResource.String(): "resource.group", or "resource" for the core group. */
export function groupResourceString(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

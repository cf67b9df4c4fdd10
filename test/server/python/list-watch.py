# The Kubernetes Python client (Debian's python3-kubernetes) against `listwatch serve`: a paged
# LIST of pods, then a watch from the LIST's resourceVersion with bookmarks asked for. Prints one
# JSON line per step for test/server/python-client.test.ts; no upstream counterpart.
import json
import sys

from kubernetes import client, config, watch

kubeconfig, namespace, limit, wanted = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
config.load_kube_config(config_file=kubeconfig)
api = client.CoreV1Api()


def say(**fields):
    print(json.dumps(fields), flush=True)


token = None
names = []
while True:
    page = api.list_namespaced_pod(namespace, limit=limit, _continue=token)
    names += [p.metadata.name for p in page.items]
    token = page.metadata._continue
    say(step="page", items=len(page.items), rv=page.metadata.resource_version,
        remaining=page.metadata.remaining_item_count, more=bool(token))
    if not token:
        break
say(step="listed", names=names, rv=page.metadata.resource_version)

w = watch.Watch()
for event in w.stream(api.list_namespaced_pod, namespace, resource_version=page.metadata.resource_version,
                      allow_watch_bookmarks=True, timeout_seconds=60):
    obj = event["object"]
    say(step="event", type=event["type"], name=obj.metadata.name, rv=obj.metadata.resource_version)
    if event["type"] == "ADDED" and obj.metadata.name == wanted:
        w.stop()
say(step="done")

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check the Kubernetes manifests in contrib/kubernetes fit together.

    kubernetes_manifests_check.py DIR [DIR...]

Parses every *.yaml in DIR and checks: the StatefulSet's selector matches its
pod labels; its pods get --shard=$(POD_INDEX)/N with N equal to `replicas`, and
POD_INDEX from the pod-index label; the config file it names is a key of the
ConfigMap it mounts (without --config in the args, the image's entrypoint
names IMAGE_CONFIG); the headless Service selects the pods and exposes the
container's `metrics` port by name; the ServiceMonitor selects the Service and
scrapes that port. The container runs scripts/build-image.sh's image,
pinguard:VERSION with VERSION that of Sources/.../Version.swift, as IMAGE_UID
(runAsNonRoot), on a read-only root, without privilege escalation or
capabilities, with a writable volume at STATE_DIR that is a volumeClaimTemplate
(kept across rescheduling), and the ConfigMap's state.path lies in it. When the
ConfigMap's state is a shared database instead (state.url), there is no state
volume: the URL is postgresql:// without a password, PGPASSWORD comes from a
Secret, each pod has one --replica, and the ServiceMonitor labels `replica`
from the pod name. A manifest of a kind in an earlier DIR wins over one in a
later DIR (a variant folder, then the shipped one). Every
"docs/FILE.md, Section" in a manifest's comments names an existing file and one
of its headings, "README, Section" a heading of README.md, and every path
under contrib/, scripts/, docs/, dashboards/ or Sources/ exists. Prints one
"error: ..." line per problem; exits 1 on any.
"""
import argparse
import glob
import os
import re
import sys

import yaml

# What scripts/build-image.sh puts in the image: its user, its entrypoint's config and its state volume.
IMAGE_UID = 65532
IMAGE_CONFIG = "/etc/pinguard/pinguard.yml"
STATE_DIR = "/var/lib/pinguard"
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../..")
VERSION_SWIFT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Sources/PinGuardService/Lifecycle/Version.swift")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", metavar="DIR", nargs="+")
    args = parser.parse_args()
    docs = {}
    references = []
    paths = [p for d in args.dirs for p in sorted(glob.glob(os.path.join(d, "*.yaml")) + glob.glob(os.path.join(d, "*.yml")))]
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        references += [f"{os.path.basename(path)}: {e}" for e in comment_references(text)]
        if path.endswith(".yaml"):
            for d in yaml.safe_load_all(text):
                if d:
                    docs.setdefault(d["kind"], d)
    errors = list(references)

    def need(cond, msg):
        if not cond:
            errors.append(msg)

    for kind in ["StatefulSet", "Service", "ServiceMonitor", "ConfigMap"]:
        need(kind in docs, f"no {kind} manifest")
    if len(errors) > len(references):
        return report(errors, docs)
    sts, svc, mon, cm = docs["StatefulSet"], docs["Service"], docs["ServiceMonitor"], docs["ConfigMap"]
    pod_labels = sts["spec"]["template"]["metadata"]["labels"]
    need(sts["spec"]["selector"]["matchLabels"].items() <= pod_labels.items(), "StatefulSet selector does not match its pod labels")
    need(sts["spec"]["serviceName"] == svc["metadata"]["name"], "StatefulSet serviceName is not the Service")
    container = sts["spec"]["template"]["spec"]["containers"][0]
    argv = container.get("args", [])
    shard = [a for a in argv if a.startswith("--shard")]
    m = re.fullmatch(r"--shard=\$\(POD_INDEX\)/(\d+)", shard[0]) if len(shard) == 1 else None
    need(m is not None, f"the container needs exactly one --shard=$(POD_INDEX)/N argument: {argv}")
    if m:
        need(int(m.group(1)) == sts["spec"]["replicas"], f"--shard total {m.group(1)} differs from replicas {sts['spec']['replicas']}")
    env = {e["name"]: e for e in container.get("env", [])}
    ref = env.get("POD_INDEX", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath", "")
    need(ref == "metadata.labels['apps.kubernetes.io/pod-index']", f"POD_INDEX must come from the pod-index label, not {ref!r}")
    config = [a.split("=", 1)[1] for a in argv if a.startswith("--config.file=") or a.startswith("--config=")] or [IMAGE_CONFIG]
    mounts = {v["mountPath"]: v["name"] for v in container.get("volumeMounts", [])}
    folder, name = os.path.split(config[0])
    need(folder in mounts, f"{config[0]} is not under a volume mount")
    need(name in cm["data"], f"{name} is not a key of the ConfigMap")
    loaded = yaml.safe_load(cm["data"].get(name, "{}"))
    shared = "url" in (loaded.get("state") or {})
    check_image_and_security(sts, container, mounts, need, shared)
    if shared:
        check_shared_memory(loaded["state"]["url"], argv, env, mon, need)
    else:
        state = (loaded.get("state") or {}).get("path", "")
        need(os.path.dirname(state) == STATE_DIR,
             f"the ConfigMap's state.path {state!r} should be in {STATE_DIR}, the state volume")
    for p in loaded.get("policies", []):
        need(any(glob_match(p, k) for k in cm["data"]), f"policy glob {p} matches no ConfigMap key")
    ports = {p["name"]: p for p in container.get("ports", [])}
    need("metrics" in ports, "the container has no port named metrics")
    need(svc["spec"].get("clusterIP") == "None", "the Service should be headless (one endpoint per replica)")
    need(svc["spec"]["selector"].items() <= pod_labels.items(), "the Service does not select the pods")
    svc_ports = {p["name"]: p for p in svc["spec"]["ports"]}
    need(svc_ports.get("metrics", {}).get("targetPort") in ("metrics", ports.get("metrics", {}).get("containerPort")),
         "the Service's metrics port does not target the container's")
    need(mon["spec"]["selector"]["matchLabels"].items() <= svc["metadata"]["labels"].items(), "the ServiceMonitor does not select the Service")
    need(all(e.get("port") in svc_ports for e in mon["spec"]["endpoints"]), "the ServiceMonitor scrapes a port the Service lacks")
    return report(errors, docs)


def check_shared_memory(url, argv, env, mon, need):
    """A deployment whose memory is a shared PostgreSQL database (state.url)."""
    need(re.match(r"postgres(ql)?://", url) is not None, f"state.url {url!r} is not a postgresql:// URL")
    need(re.match(r"postgres(ql)?://[^/@]*:[^/@]*@", url) is None and "password=" not in url,
         "state.url holds a password: give it as PGPASSWORD from a Secret")
    secret = env.get("PGPASSWORD", {}).get("valueFrom", {}).get("secretKeyRef")
    need(secret is not None, "PGPASSWORD must come from a Secret (secretKeyRef) when state.url is used")
    need(len([a for a in argv if a.startswith("--replica=")]) == 1, f"each pod needs one --replica=NAME: {argv}")
    relabel = [r for e in mon["spec"]["endpoints"] for r in e.get("relabelings", [])
               if r.get("targetLabel") == "replica" and "__meta_kubernetes_pod_name" in r.get("sourceLabels", [])]
    need(len(relabel) == 1, "the ServiceMonitor should label `replica` from the pod name")


def check_image_and_security(sts, container, mounts, need, shared=False):
    with open(VERSION_SWIFT, encoding="utf-8") as f:
        version = re.search(r'static let current = "([^"]+)"', f.read()).group(1)
    need(container.get("image") == f"pinguard:{version}", f"the image should be pinguard:{version} (scripts/build-image.sh), not {container.get('image')!r}")
    pod = sts["spec"]["template"]["spec"].get("securityContext", {})
    ctx = {**pod, **container.get("securityContext", {})}
    need(ctx.get("runAsNonRoot") is True, "runAsNonRoot must be true")
    need(ctx.get("runAsUser") == IMAGE_UID, f"runAsUser must be the image's user {IMAGE_UID}, not {ctx.get('runAsUser')!r}")
    need(ctx.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem must be true")
    need(ctx.get("allowPrivilegeEscalation") is False, "allowPrivilegeEscalation must be false")
    need(ctx.get("capabilities", {}).get("drop") == ["ALL"], "capabilities must drop ALL")
    need(not ctx.get("capabilities", {}).get("add"), "no capability may be added")
    volumes = {v["name"]: v for v in sts["spec"]["template"]["spec"].get("volumes", [])}
    volumes.update({t["metadata"]["name"]: t for t in sts["spec"].get("volumeClaimTemplates", [])})
    if shared:
        need(STATE_DIR not in mounts, f"with state.url, no volume is needed at {STATE_DIR}")
        return
    need(STATE_DIR in mounts and mounts[STATE_DIR] in volumes, f"{STATE_DIR} (state.db) needs a volume mount")
    ro = [v for v in container.get("volumeMounts", []) if v["mountPath"] == STATE_DIR and v.get("readOnly")]
    need(not ro, f"the volume at {STATE_DIR} must be writable")
    claims = {t["metadata"]["name"]: t for t in sts["spec"].get("volumeClaimTemplates", [])}
    claim = claims.get(mounts.get(STATE_DIR))
    need(claim is not None, f"{STATE_DIR} must be a volumeClaimTemplate (an emptyDir is lost on rescheduling)")
    if claim:
        need("ReadWriteOnce" in claim["spec"].get("accessModes", []), "the state claim should be ReadWriteOnce")
        need(claim["spec"].get("resources", {}).get("requests", {}).get("storage"), "the state claim requests no storage")


def headings(path):
    with open(path, encoding="utf-8") as f:
        return [re.sub(r"[`*]", "", l.lstrip("#").strip()) for l in f if re.match(r"^#{1,6} ", l)]


def comment_references(text):
    """Errors for references in comments to documents or sections that do not exist."""
    comments = " ".join(l.split("#", 1)[1].strip() for l in text.split("\n") if "#" in l and l.strip().startswith("#"))
    errors = []
    for m in re.finditer(r"\b((?:contrib|scripts|docs|dashboards|Sources)/[\w./*-]*[\w*])", comments):
        if "VERSION" not in m.group(1) and not glob.glob(os.path.join(ROOT, m.group(1))):
            errors.append(f"a comment names {m.group(1)}, which does not exist")
    for m in re.finditer(r"(docs/[\w.-]+\.md|README)(, )?", comments):
        path = os.path.join(ROOT, m.group(1) if m.group(1) != "README" else "README.md")
        if not os.path.isfile(path):
            errors.append(f"a comment names {m.group(1)}, which does not exist")
            continue
        if m.group(2):
            rest = re.sub(r"[`*]", "", comments[m.end():])
            if not any(h and rest.startswith(h) for h in headings(path)):
                errors.append(f"a comment names a section of {m.group(1)} that does not exist: {rest[:40]!r}")
    return errors


def glob_match(pattern, name):
    import fnmatch
    return fnmatch.fnmatch(name, pattern)


def report(errors, docs):
    print(f"{len(docs)} manifests: {', '.join(sorted(docs))}")
    for e in errors:
        print("error:", e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()

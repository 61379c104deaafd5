"""Agent traces for ``identifiers_kept_2048`` that the training generator did not make.

Why: the shipped weights see traces from :func:`shared_core.lre.synthetic.agent_trace` (a refund agent:
``auth_login``, ``get_order``, ORD-/CUS- ids, a base62 token, an invoice path). Measuring identifier
retention on that generator's own output holds by construction. These traces come from a different
domain (incident response and data engineering), other tools (``kubectl``, ``query_metrics``,
``s3_list``, ``create_ticket`` ...), other id formats (UUIDs, pod names, git SHAs, S3 URIs, IPs, ticket
keys, e-mails) and other wording, including noise that itself looks like ids (throw-away request ids,
metric dumps, other pods). Nothing here is used for training.
"""

from __future__ import annotations

import json
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

from shared_core.lre.synthetic import tool_exchange

Message = dict[str, Any]

SERVICES = ["checkout", "search", "ledger", "notifier", "ingest", "auth-proxy", "billing-api", "catalog"]
PEOPLE = ["dana.kowalski", "r.okafor", "mei.tanaka", "s.haddad", "p.lindqvist", "j.moreau"]
CHATTER = [
    "Okay, looking into it now — give me a moment to pull the dashboards.",
    "Nothing conclusive yet. The graphs are noisy this time of day, so I want to compare with last week.",
    "While that runs: the runbook says to check saturation before touching the deployment, so doing that.",
    "Still digging. Latency looks fine on the edge, the problem seems to be further down the stack.",
    "I'll summarise once I have the full picture; a couple more checks first.",
]


@dataclass
class HandTrace:
    messages: list[Message]
    cut: int
    needed: list[str] = field(default_factory=list)


def _sha(r: random.Random) -> str:
    return "".join(r.choice("0123456789abcdef") for _ in range(40))


def _pod(r: random.Random, svc: str) -> str:
    alnum = "bcdfghjklmnpqrstvwxz2456789"
    return f"{svc}-{''.join(r.choice('0123456789abcdef') for _ in range(9))}-{''.join(r.choice(alnum) for _ in range(5))}"


def _tool(r: random.Random, name: str, args: dict[str, Any], result: str, say: str = "") -> list[Message]:
    return tool_exchange(f"toolu_{uuid.UUID(int=r.getrandbits(128)).hex[:20]}", name, args, result, say)


def _noise(r: random.Random) -> list[Message]:
    k = r.randrange(6)
    svc = r.choice(SERVICES)
    if k == 0:
        rows = "\n".join(f"{svc} p99={r.uniform(80, 900):.1f}ms rps={r.randrange(50, 4000)} err={r.uniform(0, 2):.2f}%"
                         for _ in range(r.randrange(5, 14)))
        return _tool(r, "query_metrics", {"service": svc, "window": "15m"}, rows)
    if k == 1:
        pods = "\n".join(f"{_pod(r, svc)}   Running   0   {r.randrange(1, 90)}m" for _ in range(r.randrange(3, 8)))
        return _tool(r, "kubectl", {"args": f"get pods -n {svc}"}, "NAME   STATUS   RESTARTS   AGE\n" + pods)
    if k == 2:
        lines = "\n".join(f"trace_id={uuid.UUID(int=r.getrandbits(128))} span={r.randrange(10**6)} status=OK"
                          for _ in range(r.randrange(3, 9)))
        return _tool(r, "search_traces", {"service": svc, "limit": 20}, lines, "Sampling some traces.")
    if k == 3:
        text = " ".join(r.sample(CHATTER, 3))
        return _tool(r, "read_runbook", {"page": f"{svc}/saturation"}, f"# {svc} saturation\n{text}")
    if k == 4:
        return [{"role": "assistant", "content": r.choice(CHATTER)}]
    return [{"role": "user", "content": r.choice(["any update?", "ping me when you know more",
                                                  "the status page is still red btw", "thanks for jumping on this"])}]


def incident_trace(r: random.Random, noise_steps: int = 60) -> HandTrace:
    """An on-call agent: the incident id, the bad commit, the failing pod, a bucket and an owner are
    found early and needed again when the agent rolls back, files the postmortem and pages the owner."""
    svc = r.choice(SERVICES)
    incident = f"INC-{r.randrange(1000, 9999)}"
    sha, pod = _sha(r), _pod(r, svc)
    ip = f"10.{r.randrange(256)}.{r.randrange(256)}.{r.randrange(1, 255)}"
    bucket = f"s3://ops-artifacts-{r.randrange(100, 999)}/{svc}/heapdump-{r.randrange(10**5, 10**6)}.hprof"
    owner = f"{r.choice(PEOPLE)}@example.org"
    msgs: list[Message] = [
        {"role": "system", "content": "You are the on-call assistant. Investigate, mitigate, and document."},
        {"role": "user", "content": f"We have a page for {svc}: error rate above 5%. Can you take {incident}?"},
    ]
    msgs += _tool(r, "get_deploys", {"service": svc, "last": 3}, json.dumps(
        [{"sha": sha, "author": owner, "at": "2026-11-30T09:12:00Z"}]), "Checking what shipped recently.")
    msgs += _tool(r, "kubectl", {"args": f"describe pod {pod} -n {svc}"},
                  f"Name: {pod}\nNode IP: {ip}\nState: CrashLoopBackOff\nLast OOMKilled", "Looking at the crashing pod.")
    msgs += _tool(r, "s3_list", {"prefix": f"{svc}/"}, bucket)
    for _ in range(noise_steps):
        msgs += _noise(r)
    cut = len(msgs)
    msgs += _tool(r, "rollback", {"service": svc, "to_before": sha}, "rolled back", "Rolling back the bad deploy.")
    msgs += _tool(r, "create_ticket", {"key": incident, "pod": pod, "node_ip": ip, "heapdump": bucket, "assignee": owner}, "ok")
    return HandTrace(msgs, cut, [incident, sha, pod, ip, bucket, owner])


def traces(n: int, seed: int = 0) -> list[HandTrace]:
    r = random.Random(90_000 + seed)
    return [incident_trace(r, noise_steps=r.randrange(50, 110)) for _ in range(n)]

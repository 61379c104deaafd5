"""Claims for belief entries: caller fields (source, confidence, validity, metadata...) plus the kind
and links that make an entry a group, hypothesis, experiment or result. The engine's belief methods
build these and hand them to the executor; validation of the links happens there (``check_claim``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from ..errors import TarlError
from ..schema import Claim, Entry
from . import kinds as K


def belief_claim(text: str, namespace: str, meta: dict[str, Any], depends_on: Sequence[str] = (),
                 **fields: Any) -> Claim:
    if not isinstance(text, str):
        raise TarlError("text", text, "must be a string")
    extra = fields.pop("metadata", None) or {}
    if not isinstance(extra, dict):
        raise TarlError("metadata", extra, "must be a dict")
    try:
        return Claim.model_validate({**fields, "text": text, "namespace": namespace,
                                     "metadata": {**extra, **meta}, "depends_on": tuple(depends_on)})
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "claim"
        raise TarlError(field, err.get("input"), err["msg"]) from None


def group(question: str, namespace: str, **fields: Any) -> Claim:
    return belief_claim(question, namespace, {K.KIND: K.GROUP}, (), **fields)


def closed_world(group_entry: Entry) -> Claim:
    return belief_claim(f"exactly one answer to: {group_entry.text}", group_entry.namespace,
                        {K.KIND: K.CLOSED_WORLD, K.GROUP_KEY: group_entry.id}, (group_entry.id,))


def hypothesis(text: str, namespace: str, prior: float, depends_on: Sequence[str], group_id: str | None,
               **fields: Any) -> Claim:
    meta: dict[str, Any] = {K.KIND: K.HYPOTHESIS, K.PRIOR: prior}
    premises = tuple(depends_on)
    if group_id is not None:
        meta[K.GROUP_KEY] = group_id
        premises = (group_id, *(p for p in premises if p != group_id))
    return belief_claim(text, namespace, meta, premises, **fields)


def experiment(h: Entry, text: str | None, **fields: Any) -> Claim:
    return belief_claim(text or f"experiment on: {h.text}", h.namespace, {K.KIND: K.EXPERIMENT, K.OF: h.id},
                        (h.id,), **fields)


def result(h: Entry, confirmed: bool, experiment_id: str | None, text: str | None, **fields: Any) -> Claim:
    if not isinstance(confirmed, bool):
        raise TarlError("confirmed", confirmed, "must be True or False")
    outcome = K.CONFIRMED if confirmed else K.REFUTED
    meta: dict[str, Any] = {K.KIND: K.RESULT, K.OF: h.id, K.OUTCOME: outcome}
    if experiment_id is not None:
        meta[K.EXPERIMENT_KEY] = experiment_id
    fields.setdefault("source", "experiment")
    return belief_claim(text or f"{outcome}: {h.text}", h.namespace, meta, (), **fields)

"""``tarl bench lre``: LRE eviction on LoCoMo (ranking and budgeted recall), agent traces, and speed.

- Ranking: per-conversation ROC-AUC of each system's unit scores against the QA evidence turns, macro
  over conversations; trained systems use leave-one-conversation-out (fit on the others).
- Budgeted recall: each conversation trimmed to 512 / 1024 / 2048 tokens (last 5 units kept); share of
  evidence turns kept (macro over conversations). ``fifo`` keeps the newest turns that fit.
- Agent traces (generated, unseen seeds): share of early identifiers (token, order id, customer id,
  invoice path) still present after trimming the history to 2,048 tokens just before they are needed.
- Speed: units scored per second; ms to trim a 1,000-message history to 2,048 tokens, next to
  ``langchain_core.messages.utils.trim_messages`` on the same input (``trim_ratio`` = ours / theirs).
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from shared_core.bench import locomo, lre_traces
from shared_core.bench.lre_own_logs import adapted, janus_replay, self_label_quality
from shared_core.bench.report import DATA_DIR, Report, bench_args
from shared_core.lre import Scorer, StreamingScorer, Unit, lexicon, select_units, trim, units_from_messages
from shared_core.lre.labels import answer_coverage_labels
from shared_core.lre.metrics import roc_auc
from shared_core.lre.refit import own_vocabulary
from shared_core.index import default_embedder
from shared_core.lre.synthetic import agent_trace, generate_corpus

BUDGETS = (512, 1024, 2048)
SUPERVISED_FIT: dict[str, Any] = {"C": 0.3, "max_features": 1000, "min_df": 2}


@dataclass
class Conversation:
    """A LoCoMo conversation as LRE sees it: neutral messages, an evidence flag per turn (= per unit:
    LoCoMo has no tool calls), and the answers (placed after the last turn) for self-supervised labels."""

    id: str
    messages: list[dict[str, Any]]
    evidence: np.ndarray
    answers: list[tuple[int, str]]
    sessions: np.ndarray | None = None
    """Session number of every turn (for the session-by-session replay)."""

    @property
    def texts(self) -> list[str]:
        return [m["content"] for m in self.messages]


def load_conversations(path: Path) -> list[Conversation]:
    out = []
    for conv in locomo.load_locomo(path):
        messages = [{"role": "user" if who == conv.speaker_a else "assistant", "content": text}
                    for who, text in zip(conv.speakers, conv.turns)]
        evidence = np.zeros(len(conv.turns), dtype=bool)
        for q in conv.questions:
            evidence[list(q.evidence)] = True
        answers = [(len(conv.turns) + 1, q.answer) for q in conv.questions if q.answer is not None]
        out.append(Conversation(conv.sample_id, messages, evidence, answers, np.asarray(conv.sessions, dtype=np.int64)))
    return out


# ---- baselines (query-blind, like LRE) --------------------------------------------------------
def tfidf_salience(texts: Sequence[str]) -> np.ndarray:
    """Σ tf·idf of a unit's content words, idf over the history's own units."""
    bags = [lexicon.content_words(t) for t in texts]
    df: dict[str, int] = {}
    for b in bags:
        for w in set(b):
            df[w] = df.get(w, 0) + 1
    n = len(texts)
    return np.array([sum(np.log((1 + n) / (1 + df[w])) + 1 for w in b) for b in bags])


def turn_length(texts: Sequence[str]) -> np.ndarray:
    """Characters per unit: long turns tend to carry facts (the bar any learned scorer must clear)."""
    return np.array([len(t) for t in texts], dtype=np.float64)


def embedding_similarity(texts: Sequence[str]) -> np.ndarray:
    """Cosine between a unit's embedding and the centroid of the whole history (its context)."""
    e = default_embedder()(list(texts))
    c = e.mean(axis=0)
    return e @ (c / max(np.linalg.norm(c), 1e-12))


class FixedScores:
    """A baseline as a :class:`~shared_core.lre.trim.UnitScorer`: scores computed from the texts."""

    def __init__(self, fn: Callable[[Sequence[str]], np.ndarray]) -> None:
        self.fn = fn

    def score_units(self, units: Sequence[Unit]) -> np.ndarray:
        s = np.asarray(self.fn([u.text for u in units]), dtype=np.float64)
        lo, hi = s.min(initial=0.0), s.max(initial=1.0)
        return (s - lo) / (hi - lo) if hi > lo else np.full(len(s), 0.5)


def fifo_keep(units: Sequence[Unit], budget: int) -> np.ndarray:
    """Newest units that fit (plus pinned), stopping at the first that does not: trim_messages' 'last'."""
    keep = np.array([u.pinned for u in units], dtype=bool)
    left = budget - sum(u.tokens for u in units if u.pinned)
    for i in range(len(units) - 1, -1, -1):
        if units[i].pinned or units[i].kind == "orphan":
            continue
        if units[i].tokens > left:
            break
        keep[i] = True
        left -= units[i].tokens
    return keep


# ---- the benchmark ----------------------------------------------------------------------------
def _scorers(convs: list[Conversation], k: int, seed: int) -> dict[str, Any]:
    from shared_core.lre.fit import fit_texts

    train = [c for j, c in enumerate(convs) if j != k]
    hist = [(c.texts, None) for c in train]
    sup = fit_texts(hist, [c.evidence for c in train], **SUPERVISED_FIT)
    self_lab = [answer_coverage_labels(c.texts, c.answers) for c in train]
    selfsup = fit_texts(hist, self_lab, **SUPERVISED_FIT)
    rng = np.random.default_rng(seed + k)
    return {
        "lre_supervised": sup,
        "lre_self_supervised": selfsup,
        "lre_default": Scorer.default(),
        "lre_own_vocabulary": own_vocabulary(Scorer.default(), hist),
        "recency": FixedScores(lambda t: np.arange(len(t), dtype=np.float64)),
        "random": FixedScores(lambda t: rng.random(len(t))),
        "tfidf_salience": FixedScores(tfidf_salience),
        "length": FixedScores(turn_length),
        "embedding_similarity": FixedScores(embedding_similarity),
    }


def _locomo(report: Report, convs: list[Conversation], seed: int) -> dict[str, dict[str, list[float]]]:
    res: dict[str, dict[str, list[float]]] = {}
    own = adapted(convs)
    for k, conv in enumerate(convs):
        units = units_from_messages(conv.messages)
        for name, scorer in {**_scorers(convs, k, seed), "lre_adapted": own[k]}.items():
            row = res.setdefault(name, {})
            row.setdefault("macro_auc", []).append(roc_auc(scorer.score_units(units), conv.evidence))
            for b in BUDGETS:
                kept = select_units(units, b, scorer=scorer)
                row.setdefault(f"evidence_kept_{b}", []).append(kept[conv.evidence].mean())
        row = res.setdefault("fifo", {})
        row.setdefault("macro_auc", []).append(roc_auc(np.arange(len(units), dtype=float), conv.evidence))
        for b in BUDGETS:
            row.setdefault(f"evidence_kept_{b}", []).append(fifo_keep(units, b)[conv.evidence].mean())
    return res


def _agent(convs: list[Conversation], n_traces: int, seed: int, *, own_generator: bool = False) -> dict[str, float]:
    """Share of needed identifiers kept; traces from another generator (:mod:`lre_traces`) unless
    ``own_generator`` (the one that trains the shipped weights: 1.0 there holds by construction)."""
    from shared_core.lre.fit import fit_from_logs, fit_texts

    r = random.Random(10_000 + seed)
    traces: list[Any] = ([agent_trace(r, noise_steps=r.randrange(60, 120)) for _ in range(n_traces)] if own_generator
                         else lre_traces.traces(n_traces, seed))
    own_logs = generate_corpus(seed=20_000 + seed, chats=10, traces=30)
    systems: dict[str, Any] = {
        "lre_supervised": fit_texts([(c.texts, None) for c in convs], [c.evidence for c in convs], **SUPERVISED_FIT),
        "lre_self_supervised": fit_from_logs(own_logs),
        "lre_default": Scorer.default(),
        "recency": FixedScores(lambda t: np.arange(len(t), dtype=np.float64)),
        "random": FixedScores(lambda t: np.random.default_rng(seed).random(len(t))),
        "tfidf_salience": FixedScores(tfidf_salience),
        "length": FixedScores(turn_length),
        "embedding_similarity": FixedScores(embedding_similarity),
    }
    out: dict[str, float] = {}
    for name in [*systems, "fifo"]:
        shares = []
        for tr in traces:
            history = tr.messages[: tr.cut]
            units = units_from_messages(history)
            kept = fifo_keep(units, 2048) if name == "fifo" else select_units(units, 2048, scorer=systems[name])
            text = "\n".join(u.text for u, k in zip(units, kept) if k)
            shares.append(np.mean([ident in text for ident in tr.needed]))
        out[name] = float(np.mean(shares))
    return out


def _history_1000(convs: list[Conversation]) -> list[dict[str, Any]]:
    turns = [m for c in convs for m in c.messages]
    msgs = [{"role": "system", "content": "You are a helpful assistant with a long memory."}]
    msgs += [{"role": "user" if i % 2 == 0 else "assistant", "content": turns[i % len(turns)]["content"]} for i in range(999)]
    return msgs


def _timed(fns: dict[str, Callable[[], Any]], reps: int) -> dict[str, tuple[float, float]]:
    """Median wall and CPU milliseconds of each function, run interleaved (so that load from other
    processes on this machine hits every contender alike)."""
    for fn in fns.values():
        fn()
    wall: dict[str, list[float]] = {k: [] for k in fns}
    cpu: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(reps):
        for name, fn in fns.items():
            t, c = time.perf_counter(), time.process_time()
            fn()
            cpu[name].append(time.process_time() - c)
            wall[name].append(time.perf_counter() - t)
    return {k: (1000 * float(np.median(wall[k])), 1000 * float(np.median(cpu[k]))) for k in fns}


def _reference_trimmer() -> Any:
    """langchain_core's messages module: the FIFO trimmer the issue measures us against. Loaded by name
    at benchmark time only, so the core itself never depends on a framework (it is an optional extra)."""
    return importlib.import_module("langchain_core.messages")


def _speed(convs: list[Conversation], reps: int) -> dict[str, float]:
    lcm = _reference_trimmer()
    AIMessage, HumanMessage, SystemMessage = lcm.AIMessage, lcm.HumanMessage, lcm.SystemMessage
    count_tokens_approximately, trim_messages = lcm.utils.count_tokens_approximately, lcm.utils.trim_messages

    scorer = Scorer.default()
    texts = [c.texts for c in convs]
    n_units = sum(len(t) for t in texts)
    msgs = _history_1000(convs)
    cls = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    lc = [cls[m["role"]](m["content"]) for m in msgs]
    stream = StreamingScorer(scorer)

    def incremental() -> None:  # the agent-loop case: the previous call trimmed 999 messages, one appended
        stream.reset()
        trim(msgs[:999], 2048, scorer=stream)

    def trim_incremental() -> None:
        trim(msgs, 2048, scorer=stream)

    t = _timed({
        "score": lambda: [scorer.score_texts(x) for x in texts],
        "ours": lambda: trim(msgs, 2048, scorer=scorer),
        "theirs": lambda: trim_messages(lc, max_tokens=2048, token_counter=count_tokens_approximately,
                                        strategy="last", include_system=True, start_on="human"),
        "fifo": lambda: fifo_keep(units_from_messages(msgs), 2048),
    }, reps)
    inc, inc_cpu = [], []
    for _ in range(reps):
        incremental()
        start, cpu = time.perf_counter(), time.process_time()
        trim_incremental()
        inc_cpu.append(time.process_time() - cpu)
        inc.append(time.perf_counter() - start)
    return {"units_per_s": n_units / (t["score"][0] / 1000), "units_per_s_cpu": n_units / (t["score"][1] / 1000),
            "trim_ms_1000": t["ours"][0], "trim_cpu_ms_1000": t["ours"][1],
            "trim_messages_ms_1000": t["theirs"][0], "trim_messages_cpu_ms_1000": t["theirs"][1],
            "trim_ratio": t["ours"][0] / t["theirs"][0], "fifo_trim_ms_1000": t["fifo"][0],
            "trim_ms_1000_incremental": 1000 * float(np.median(inc)),
            "trim_ratio_incremental": 1000 * float(np.median(inc)) / t["theirs"][0],
            "trim_ratio_cpu": t["ours"][1] / t["theirs"][1],
            "trim_ratio_incremental_cpu": 1000 * float(np.median(inc_cpu)) / t["theirs"][1]}


def main(argv: list[str]) -> int:
    p = bench_args("lre", "LRE history eviction: LoCoMo AUC, budgeted recall, agent traces, speed",
                   DATA_DIR / "locomo" / "locomo_train6.json")
    args = p.parse_args(argv)
    convs = load_conversations(args.data)
    if args.quick:
        convs = convs[:3]
    report = Report("lre", str(args.data))
    res = _locomo(report, convs, args.seed)
    agent = _agent(convs, 8 if args.quick else 50, args.seed)
    agent_own = _agent(convs, 8 if args.quick else 50, args.seed, own_generator=True)
    replay = janus_replay(convs, seed=args.seed)
    speed = _speed(convs, 5 if args.quick else 30)
    order = ["lre_default", "lre_supervised", "lre_self_supervised", "recency", "random", "tfidf_salience",
             "length", "embedding_similarity", "fifo"]
    for name in order:
        metrics = {m: float(np.nanmean(v)) for m, v in res[name].items()}
        report.add(name, **metrics, identifiers_kept_2048=agent[name],
                   identifiers_kept_2048_training_generator=agent_own[name])
        if name == "lre_default":
            for extra in ("lre_adapted", "lre_own_vocabulary"):
                report.add(extra, **{m: float(np.nanmean(v)) for m, v in res[extra].items()})
    for name, quality in self_label_quality(convs).items():
        report.add(f"self_labels_{name}", **quality)
    for policy, r in replay.items():
        report.add(f"refit_{policy}", final_auc=r["final_auc"], mean_auc=r["mean_auc"], comparisons=r["comparisons"],
                   comparison_share=r["comparison_share"], **_choices(r.get("fired", [])))
    report.extra["refit_trajectories"] = {p: r["trajectory"] for p, r in replay.items()}
    report.extra["refit_comparisons"] = {p: r["fired"] for p, r in replay.items() if r.get("fired")}
    for name in ("lre_supervised", "lre_self_supervised", "lre_default"):
        report.add(name, **{k: speed[k] for k in ("units_per_s", "units_per_s_cpu", "trim_ms_1000", "trim_cpu_ms_1000",
                                                  "trim_ratio", "trim_ratio_cpu", "trim_ms_1000_incremental",
                                                  "trim_ratio_incremental", "trim_ratio_incremental_cpu")})
    report.add("fifo", trim_ms_1000=speed["fifo_trim_ms_1000"])
    sup, selfsup = report.systems["lre_supervised"]["macro_auc"], report.systems["lre_self_supervised"]["macro_auc"]
    report.add("lre_self_supervised", ratio_to_supervised=selfsup / sup)
    report.extra["langchain_trim_messages_ms_1000"] = speed["trim_messages_ms_1000"]
    report.extra["langchain_trim_messages_cpu_ms_1000"] = speed["trim_messages_cpu_ms_1000"]
    report.extra["per_conversation_auc"] = {n: [round(x, 4) for x in res[n]["macro_auc"]] for n in order}
    for extra in ("lre_adapted", "lre_own_vocabulary"):
        report.extra["per_conversation_auc"][extra] = [round(x, 4) for x in res[extra]["macro_auc"]]
    report.extra["conversations"] = [c.id for c in convs]
    report.notes += [
        f"{len(convs)} LoCoMo conversations, leave-one-conversation-out for lre_supervised / lre_self_supervised "
        "(self-supervised: answer-coverage labels from the QA answers, never the evidence); lre_default = the "
        "shipped weights, trained on generated data only. fifo ranks like recency (same macro_auc).",
        f"identifiers_kept_2048: {8 if args.quick else 50} agent traces per generator; lre_supervised there is fit "
        "on all LoCoMo conversations, lre_self_supervised on generated logs via fit_from_logs.",
        f"speed (medians, interleaved runs): trim of 1,000 messages to 2,048 tokens, ours {speed['trim_ms_1000']:.2f} ms "
        f"wall / {speed['trim_cpu_ms_1000']:.2f} ms CPU vs langchain_core trim_messages {speed['trim_messages_ms_1000']:.2f} "
        f"/ {speed['trim_messages_cpu_ms_1000']:.2f} ms (ratio {speed['trim_ratio']:.2f} wall, {speed['trim_ratio_cpu']:.2f} CPU); with a StreamingScorer that "
        f"has seen the first 999 messages: {speed['trim_ms_1000_incremental']:.2f} ms (ratio "
        f"{speed['trim_ratio_incremental']:.2f} wall, {speed['trim_ratio_incremental_cpu']:.2f} CPU). units_per_s = shipped scorer over the LoCoMo units (wall; _cpu = CPU).",
        "paper anchors (LoCoMo macro-AUC): LRE 0.829, dense encoder 0.643, recency 0.478.",
        "identifiers_kept_2048: incident-response traces from shared_core/bench/lre_traces.py (other tools, id "
        "formats and wording than the training generator); _training_generator: traces of the generator the "
        "shipped weights are trained on.",
        "lre_adapted: leave one conversation out, the others fed through AdaptiveScorer (observe, self-labels "
        "from the logs only: identifier reuse, answer coverage, later reference; one refit: the user's vocabulary "
        "plus a correction toward the self-labels, lre.refit), AUC on the held-out one; lre_own_vocabulary: "
        "step 1 of that refit alone (the other conversations' words added to the vocabulary, no label).",
        "self_labels_*: each self-label signal against the QA evidence turns (positive_share, precision, recall; "
        "evidence_share = base rate); later_reference_1 = one returning rare word, later_reference = two (the "
        "default); own_logs = the union the own-logs path trains on.",
        "refit_*: the conversations replayed session by session into one store; after each session the shipped "
        "scorer is refit from all recorded sessions (the same self-labels) and a policy decides what is deployed; "
        "mean_auc / final_auc (mean of the last fifth of steps) = AUC of the deployed scorer on the next "
        "session's evidence turns; comparisons = Janus comparisons (each scores both scorers on <= 7 sessions); comparison_share = "
        "comparisons / always-compare's; Janus's threshold is lre.gate.SESSION_TAU = -1/sqrt(features), the "
        "random trigger fires at Janus's share (averaged over 10 seeds); choice_right / choice_gain: of the "
        "comparisons made, the share that kept the scorer ranking the next session at least as well, and the "
        "mean next-session AUC gained by the choice (extra.refit_comparisons lists each one).",
    ]
    _register_plots(report, order)
    report.emit(args)
    return 0


def _choices(fired: list[dict[str, Any]]) -> dict[str, float]:
    """How the comparisons a policy made turned out on the next session's evidence: the share where it
    kept the scorer that ranked the next session at least as well (``choice_right``), and the mean AUC
    the choice gained over the scorer it turned away (``choice_gain``)."""
    if not fired:
        return {}
    gains = [(f["next_auc_current"] - f["next_auc_candidate"]) * (1 if f["verdict"] == "current_better" else -1)
             for f in fired]
    return {"choice_right": float(np.mean([g >= 0 for g in gains])), "choice_gain": float(np.mean(gains))}


def _register_plots(report: Report, order: list[str]) -> None:
    def auc_bars(ax: Any) -> None:
        vals = [report.systems[n].get("macro_auc", float("nan")) for n in order]
        ax.barh(order, vals, color="tab:blue")
        ax.axvline(0.85, ls="--", color="grey", label="target 0.85")
        ax.set_xlabel("LoCoMo macro-AUC (evidence turns)")
        ax.set_xlim(0.4, 1.0)
        ax.legend()

    def recall_lines(ax: Any) -> None:
        for n in order:
            ax.plot(BUDGETS, [report.systems[n][f"evidence_kept_{b}"] for b in BUDGETS], marker="o", label=n)
        ax.set_xlabel("token budget")
        ax.set_ylabel("share of evidence turns kept")
        ax.legend(fontsize=7)

    report.plot("lre_macro_auc.png", auc_bars)
    report.plot("lre_evidence_kept.png", recall_lines)

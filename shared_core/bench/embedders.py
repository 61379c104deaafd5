"""``tarl bench embedders``: which offline embedder should the index use by default?

LoCoMo retrieval: each conversation's turns are indexed on their own, every question is a query,
and recall@10 is the share of the question's evidence turns among the 10 nearest turns (numpy
brute-force cosine, no Chroma), averaged over questions. Adversarial questions (category 5) are
reported separately. Conversations are split in two halves: choices are made on ``dev`` and
confirmed on ``holdout`` so the default is not tuned to six conversations. ``docs_per_s`` is the
embedding throughput of a fresh embedder (cold caches) over every turn.

System ``default`` is the pipeline the index should run: stored vectors from ``default_embedder()``
(never refitted) and queries weighed by ``QueryIDF`` from the store's own statistics.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from shared_core.bench.locomo import Conversation, load_locomo
from shared_core.bench.report import DATA_DIR, Report, bench_args
from shared_core.index.embedders import Embedder, HashingEmbedder, QueryIDF, default_embedder

K = 10
SMALL_STORE = 150


Fit = Callable[[Sequence[str]], Embedder]
"""Given a conversation's turns, the embedder to use on it (fixed embedders ignore the turns)."""


@dataclass(frozen=True)
class Candidate:
    fit: Fit
    query_idf: float | None = QueryIDF.DEFAULT_POWER  # power of the store-side query IDF; None = plain cosine


def fixed(**config: object) -> Fit:
    return lambda _docs: HashingEmbedder(**config)  # type: ignore[arg-type]


def sklearn_tfidf(docs: Sequence[str]) -> Embedder:
    """Reference only: HashingVectorizer + TF-IDF fitted on the conversation (not a stable store default)."""
    from sklearn.feature_extraction.text import HashingVectorizer, TfidfTransformer

    vec = HashingVectorizer(n_features=2**18, ngram_range=(1, 2), alternate_sign=False, norm=None, stop_words="english")
    tfidf = TfidfTransformer(sublinear_tf=True).fit(vec.transform(docs))

    class Fitted:
        name, dim = "sklearn_hashing_tfidf", 2**18

        def __call__(self, texts: Sequence[str]) -> np.ndarray:
            return tfidf.transform(vec.transform(texts))  # sparse, already L2-normalised

    return Fitted()


def candidates(quick: bool) -> dict[str, Candidate]:
    """The default pipeline, the embedder alone, one ablation per design choice, and references."""
    default: Fit = lambda _docs: default_embedder()  # noqa: E731
    systems = {
        "default": Candidate(default),
        "default_no_query_idf": Candidate(default, None),
        "query_idf_power_2": Candidate(default, 2.0),
        "no_stop_words": Candidate(fixed(stop_words=False)),
        "no_stem": Candidate(fixed(stem=False)),
        "with_bigrams": Candidate(fixed(bigram_weight=0.25)),
        "no_char_ngrams": Candidate(fixed(char_weight=0.0, char_dims=0)),
        "no_char_subspace": Candidate(fixed(char_dims=0)),
        "raw_tf": Candidate(fixed(sublinear_tf=False)),
        "unsigned": Candidate(fixed(signed=False)),
        "unsigned_no_query_idf": Candidate(fixed(signed=False), None),
        "no_length_weight": Candidate(fixed(length_weight=False)),
        "dim_1024": Candidate(fixed(dim=1024, char_dims=256)),
        "dim_1024_no_query_idf": Candidate(fixed(dim=1024, char_dims=256), None),
        "dim_4096": Candidate(fixed(dim=4096, char_dims=1024)),
        "sklearn_hashing_tfidf": Candidate(sklearn_tfidf, None),
    }
    if quick:
        systems = {k: systems[k] for k in ("default", "default_no_query_idf", "sklearn_hashing_tfidf")}
    return systems


def _similarities(candidate: Candidate, docs: Sequence[str], queries: Sequence[str]) -> np.ndarray:
    embedder = candidate.fit(docs)
    d, q = embedder(docs), embedder(queries)
    if candidate.query_idf is not None:
        idf = QueryIDF(embedder.dim, power=candidate.query_idf)
        idf.add(d)
        q = idf.weigh(q)
    sims = q @ d.T
    return np.asarray(sims.todense() if hasattr(sims, "todense") else sims)


def evaluate(candidate: Candidate, conversations: list[Conversation]) -> dict[str, list[tuple[float, float]]]:
    """Per conversation, (recall@10, reciprocal rank of first hit) for each question, keyed by sample_id."""
    results: dict[str, list[tuple[float, float]]] = {}
    for conv in conversations:
        sims = _similarities(candidate, conv.turns, [q.text for q in conv.questions])
        order = np.argsort(-sims, axis=1, kind="stable")
        rows = []
        for q, ranking in zip(conv.questions, order):
            hits = np.isin(ranking, list(q.evidence))
            rows.append((hits[:K].sum() / len(q.evidence), 1.0 / (int(np.argmax(hits)) + 1)))
        results[conv.sample_id] = rows
    return results


def engine_recall(conversations: list[Conversation]) -> float:
    """Recall@10 through the product path: turns appended to a real MemoryEngine (SQLite + Chroma +
    vector cache with query IDF), questions asked with ``engine.search``. Checks the wiring, not just
    the embedder."""
    from ..engine import MemoryEngine
    from ..executor import Step
    from ..schema import Action, Claim

    recalls = []
    with MemoryEngine.open() as engine:
        for conv in conversations:
            ns = f"locomo:{conv.sample_id}"
            done = engine.apply(ns, [Step(Action.APPEND, Claim(text=t, namespace=ns)) for t in conv.turns])
            row = {t.created[0].id: i for i, t in enumerate(done)}
            for q in conv.questions:
                if q.category == 5:
                    continue
                hits = engine.search(q.text, ns, k=K)
                recalls.append(len({row[h.entry.id] for h in hits} & q.evidence) / len(q.evidence))
    return float(np.mean(recalls))


def throughput(fit: Fit, docs: Sequence[str], repeats: int) -> float:
    """Docs per CPU-second of a fresh embedder (cold caches), best of a few runs.

    CPU time of this process rather than wall time, so other work on a shared machine does not
    distort the comparison (the embedders are single-threaded).
    """
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        fit(docs)(docs)
        best = min(best, time.process_time() - start)
    return len(docs) / max(best, 1e-9)


def first_turns(conv: Conversation, n: int) -> Conversation:
    """A young store: the first ``n`` turns, and the questions answerable from them alone."""
    return conv.with_turns(n)


def with_typos(conv: Conversation, rng: random.Random, rate: float = 0.3) -> Conversation:
    """The same questions as a hurried user types them: some longer words lose, swap or change a letter."""

    def typo(match: re.Match[str]) -> str:
        w = match.group(0)
        if len(w) < 5 or rng.random() >= rate:
            return w
        i = rng.randrange(1, len(w) - 1)
        return rng.choice([w[:i] + w[i + 1 :], w[:i] + w[i + 1] + w[i] + w[i + 2 :], w[:i] + rng.choice("aeiou") + w[i + 1 :]])

    questions = tuple(replace(q, text=re.sub(r"[A-Za-z]+", typo, q.text)) for q in conv.questions)
    return replace(conv, questions=questions)


def _mean(per_conv: dict[str, list[tuple[float, float]]], conversations: list[Conversation], metric: int,
          keep: Callable[[str, int], bool]) -> float:
    vals = [r[metric] for c in conversations for r, q in zip(per_conv[c.sample_id], c.questions) if keep(c.sample_id, q.category)]
    return float(np.mean(vals)) if vals else float("nan")


def main(argv: list[str]) -> int:
    parser = bench_args("embedders", __doc__.splitlines()[0], DATA_DIR / "locomo" / "locomo_train6.json")
    args = parser.parse_args(argv)
    conversations = [replace(c, questions=tuple(q for q in c.questions if q.evidence)) for c in load_locomo(args.data)]
    if args.quick:
        conversations = [conversations[0], conversations[len(conversations) // 2]]
    half = (len(conversations) + 1) // 2
    dev = {c.sample_id for c in conversations[:half]}
    young = [first_turns(c, SMALL_STORE) for c in conversations]
    rng = random.Random(args.seed)
    typed = [with_typos(c, rng) for c in conversations]
    all_turns = [t for c in conversations for t in c.turns]

    report = Report("embedders", str(args.data))
    for system, candidate in candidates(args.quick).items():
        per_conv, per_young, per_typed = (evaluate(candidate, convs) for convs in (conversations, young, typed))
        report.add(
            system,
            recall_at_10=_mean(per_conv, conversations, 0, lambda s, c: c != 5),
            recall_at_10_dev=_mean(per_conv, conversations, 0, lambda s, c: c != 5 and s in dev),
            recall_at_10_holdout=_mean(per_conv, conversations, 0, lambda s, c: c != 5 and s not in dev),
            mrr=_mean(per_conv, conversations, 1, lambda s, c: c != 5),
            recall_at_10_adversarial=_mean(per_conv, conversations, 0, lambda s, c: c == 5),
            recall_at_10_small_store=_mean(per_young, young, 0, lambda s, c: c != 5),
            recall_at_10_typos=_mean(per_typed, typed, 0, lambda s, c: c != 5),
            docs_per_s=throughput(candidate.fit, all_turns, 1 if args.quick else 5),
        )
    report.add("engine_search", recall_at_10=engine_recall(conversations))
    n_questions = sum(len(c.questions) for c in conversations)
    report.notes += [
        f"{len(conversations)} conversations, {len(all_turns)} turns, {n_questions} questions with evidence; "
        f"dev = {sorted(dev)}, holdout = the rest",
        "recall_at_10* exclude adversarial (category 5) questions; recall_at_10_adversarial is those alone; "
        f"recall_at_10_small_store indexes only the first {SMALL_STORE} turns (questions answerable from them); "
        "recall_at_10_typos asks with seeded typos in ~30% of the words of 5+ letters",
        "default = default_embedder() for stored vectors + QueryIDF (store statistics weigh the query only); "
        "*_no_query_idf = plain cosine on the stored vectors; other rows change one choice of the default",
        "sklearn_hashing_tfidf fits IDF into the vectors of each conversation: a reference, not a stable store default",
        "docs_per_s: CPU time, fresh embedder (cold caches), best of runs",
    ]
    report.extra["default_config"] = {"name": default_embedder().name, **HashingEmbedder().config(),
                                      "query_idf_power": QueryIDF.DEFAULT_POWER}
    report.plot("embedders_recall_vs_speed.png", lambda ax: _scatter(ax, report.systems))
    report.emit(args)
    return 0


def _scatter(ax, systems: dict[str, dict[str, float]]) -> None:  # noqa: ANN001 (matplotlib Axes)
    for system, row in systems.items():
        if "docs_per_s" not in row:          # engine_search measures the product path, not an embedder
            continue
        ax.scatter(row["docs_per_s"], row["recall_at_10"], color="tab:red" if system == "default" else "tab:blue")
        ax.annotate(system, (row["docs_per_s"], row["recall_at_10"]), fontsize=7, xytext=(3, 3), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_xlabel("docs per CPU-second (log)")
    ax.set_ylabel("LoCoMo recall@10 (non-adversarial)")
    ax.set_title("Offline embedders on LoCoMo retrieval")

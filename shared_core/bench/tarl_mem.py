"""``tarl bench tarl-mem``: TARL decisions on executable episodes, every system through THE decision
function (``decision.decide``, what ``MemoryEngine.write`` runs), in sequential rollout.

Data sets (one table each, every system a row):
- ``handwritten_free``: the test split of the hand-written corpus (``bench/corpus``, frozen split), claims
  given as free text (no slot): what agents write. The headline.
- ``handwritten_slot``: the same episodes with the corpus's slots given.
- ``crowded_free`` / ``crowded_slot``: the same episodes, each with three other test episodes' memory in
  front of it as unscored gold seeds (``tarl_mem_sources.crowded``): one user's memory holds more than
  the attribute a claim is about.
- ``generated``: the test split of the project's generator (disjoint by person from train/dev).
- ``halumem``: HaluMem-derived episodes from ``--data`` (memory points given as claims, extraction
  skipped; labels per ``tarl_mem_sources.halumem``), plus HaluMem's operation-level numbers
  (``tarl_mem_rollout.halumem_operations``).

JSON keys: ``systems[SYSTEM][METRIC_DATASET]``, e.g. ``macro_f1_handwritten_free``, ``ece_generated``,
``update_correct_halumem``, ``false_memory_resistance_halumem``; the unsuffixed metric keys
(``macro_f1``, ``next_state_acc``, ...) repeat the headline set, ``handwritten_free`` (``generated``
when the corpus has no frozen split). ``decision_ms_p50_10k``: decision path (slot inference, grounding,
reliability, policy, contract; no embedding) at 10k open entries. Metric definitions: ``tarl_mem_metrics``
(``next_state_acc_AH`` compares Accepted and History only). Metrics are rollout metrics (the system
sees only its own past decisions); ``*_tf`` keys are their teacher-forced twins (each decision on the
gold state before it), the only meaningful next-state view on one long episode (a HaluMem user).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from ..decision import decide, prepare
from ..index import default_embedder
from ..policy import LearnedPolicy, Policy, RulePolicy
from ..policy.model import WEIGHTS_DIR
from ..schema import Claim, Entry, Ledger
from .corpus import CHECKS, raw_episodes, to_episode
from .corpus import HERE as CORPUS
from .corpus import split as corpus_split
from .episodes import Episode, generate
from .report import DATA_DIR, Report, bench_args
from .probe import fitted
from .tarl_mem_baselines import ContentFreeProbe, FullHistory, Mem0AddOnly, OverwriteSimilar, WriteHold
from .tarl_mem_examples import NEIGHBOURS, Vectors, examples
from .tarl_mem_rollout import halumem_operations, metrics, rollout
from .tarl_mem_sources import crowded, halumem

SYSTEMS = ("learned", "learned_label_only", "rules", "content_free_probe", "full_history", "mem0_add_only",
           "overwrite_similar", "write_hold")
DATASETS = ("handwritten_free", "handwritten_slot", "crowded_free", "crowded_slot", "check_free", "check_slot", "generated",
            "halumem")
SHOWN = ("macro_f1", "next_state_acc", "next_state_acc_AH", "pollution", "conflict_preservation", "ece",
         "next_state_acc_tf", "next_state_acc_AH_tf", "decisions")


def probe(episodes: Sequence[Episode], vectors: Vectors, seed: int) -> ContentFreeProbe:
    """The content-free probe fitted on the generated train split."""
    return fitted(examples([ep for ep in episodes if ep.split == "train"], vectors), seed)


def systems(content_free: ContentFreeProbe, weights: Path = WEIGHTS_DIR) -> dict[str, Policy]:
    return {"learned": LearnedPolicy(weights / "tarl.json"), "learned_label_only": LearnedPolicy(weights / "label_only.json"),
            "rules": RulePolicy(), "content_free_probe": content_free, "full_history": FullHistory(),
            "mem0_add_only": Mem0AddOnly(), "overwrite_similar": OverwriteSimilar(),
            "write_hold": WriteHold(weights / "write_hold.json")}


def corpus_sets(folder: Path, part: str = "test") -> dict[str, list[Episode]]:
    raws = corpus_split.load(folder)[part]
    free, slot = [to_episode(r, slots=False) for r in raws], [to_episode(r, slots=True) for r in raws]
    return {"handwritten_free": free, "handwritten_slot": slot, "crowded_free": crowded(free), "crowded_slot": crowded(slot)}


def latency_at(n_entries: int, policy: Policy, decisions: int, seed: int) -> tuple[float, float]:
    """p50 ms of ``decision.decide`` with ``n_entries`` open entries in one namespace: slot inference,
    grounding over the fetched candidates (``NEIGHBOURS`` nearest), reliability, policy, contract. The
    neighbour query and embedding are excluded (they are the index's, measured by ``tarl bench core``).
    Returns (wall, CPU) p50 in ms: on a shared machine the CPU time is the one that measures the code.
    The first 50 decisions warm the interpreter and are not timed."""
    times, cpu = [], []
    for k, (p, near, slot) in enumerate(probes_at(n_entries, decisions + 50, seed)):
        t0, c0 = time.perf_counter(), time.process_time()
        decide(p, near, slot, policy)
        if k >= 50:
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
    return float(np.median(times) * 1000), float(np.median(cpu) * 1000)


def probes_at(n_entries: int, decisions: int, seed: int) -> Iterator[tuple[Claim, list[tuple[Entry, float]], list[Entry]]]:
    """``decisions`` claims with the candidates the engine would hand ``decision.decide`` (the nearest
    open entries and the claim's slot entries) among ``n_entries`` generated open entries in one
    namespace. Stored entries' per-text features are computed first (``decision.prepare``), as their own
    write did; probes are claims whose text is not stored (cold for the per-text caches)."""
    from ..index.cache import VectorCache

    eps = generate(max(50, n_entries // 8), seed + 1)
    claims = [s.claim.model_copy(update={"namespace": "load", "slot": f"{ep.name}:{s.claim.slot}" if s.claim.slot else None})
              for ep in eps for s in ep.steps]
    entries = [Entry.from_claim(c, id=f"x{i}", ledger=Ledger.ACCEPTED, tx=1) for i, c in enumerate(claims[:n_entries])]
    by_id = {e.id: e for e in entries}
    vectors = Vectors(default_embedder())
    matrix = vectors([e.text for e in entries])
    cache = VectorCache(matrix.shape[1], lambda ns: ([e.id for e in entries], matrix, [e.ledger for e in entries]))
    rng = np.random.default_rng(seed)
    for e in entries:      # each was decided as a claim when written: its per-text features are cached then
        prepare(e)
    stored = {e.text for e in entries}
    fresh = [c for c in claims[n_entries:] if c.text not in stored] or claims
    probes = [fresh[int(i)] for i in rng.integers(0, len(fresh), decisions)]
    for p, v in zip(probes, vectors([p.text for p in probes])):
        near = [(by_id[i], s) for i, s in cache.query(v, "load", NEIGHBOURS, (Ledger.ACCEPTED, Ledger.PENDING))]
        yield p, near, [e for e, _ in near if p.slot and e.slot == p.slot]


def main(argv: list[str]) -> int:
    p = bench_args("tarl-mem", __doc__ or "", DATA_DIR / "halumem")
    p.add_argument("--episodes", type=int, default=1500, help="generated episodes (all splits; test split scored)")
    p.add_argument("--corpus", type=Path, default=CORPUS, help="hand-written corpus folder with its frozen split")
    p.add_argument("--part", choices=("test", "dev"), default="test",
                   help="hand-written split part to score (dev: for choosing; report test)")
    p.add_argument("--check", type=Path, default=CHECKS,
                   help="folder of hand-written check episodes, scored whole (never fitted or chosen on); '' to skip")
    p.add_argument("--weights", type=Path, default=WEIGHTS_DIR, help="folder with tarl.json, label_only.json, write_hold.json")
    p.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated subset of systems to run")
    args = p.parse_args(argv)
    n = 200 if args.quick else args.episodes
    vectors = Vectors(default_embedder())
    generated = generate(n, args.seed)
    sets: dict[str, list[Episode]] = {"generated": [e for e in generated if e.split == "test"]}
    notes = []
    try:
        sets.update(corpus_sets(args.corpus, args.part))
    except (FileNotFoundError, ValueError) as exc:
        notes.append(f"hand-written corpus skipped: {exc}")
    if str(args.check) not in ("", ".") and args.check.is_dir():
        raws = raw_episodes(args.check)
        sets.update({"check_free": [to_episode(r, slots=False) for r in raws],
                     "check_slot": [to_episode(r, slots=True) for r in raws]})
    halu_path = Path(args.data) if args.data else None
    if halu_path is not None and halu_path.exists():
        sets["halumem"] = halumem(halu_path)
    else:
        notes.append(f"HaluMem data not found at {halu_path}: skipped")
    head = "handwritten_free" if "handwritten_free" in sets else "generated"
    chosen = [x.strip() for x in args.systems.split(",") if x.strip()]
    if unknown := set(chosen) - set(SYSTEMS):
        p.error(f"--systems: unknown {sorted(unknown)}; choose from {', '.join(SYSTEMS)}")
    pols = {k: v for k, v in systems(probe(generated, vectors, args.seed), args.weights).items() if k in chosen}
    tables = {ds: Report("tarl-mem", ds) for ds in DATASETS if ds in sets}
    report = Report("tarl-mem", "; ".join(f"{ds}: {len(eps)} episodes" for ds, eps in sets.items()) +
                    f" (generated n={n}, seed={args.seed}; hand-written: test split of {args.corpus}); "
                    f"part: {args.part}; table: {head}")
    for name, pol in pols.items():
        for ds, eps in sets.items():
            steps = rollout(name, pol, eps, vectors)
            row = metrics(steps)
            if ds == "halumem":
                row.update(halumem_operations(steps))
            report.add(name, **{f"{k}_{ds}": v for k, v in row.items()})
            tables[ds].add(name, **{k: v for k, v in row.items() if k in SHOWN or ds == "halumem" and k in (
                "update_correct", "update_hallucination", "update_omission", "false_memory_resistance")})
            if ds == head:
                report.add(name, **row)
    size = 1000 if args.quick else 10_000
    for name in [x for x in ("learned", "rules") if x in pols]:
        wall, cpu = latency_at(size, pols[name], 50 if args.quick else 300, args.seed)
        report.add(name, **{f"decision_ms_p50_{size // 1000}k": wall, f"decision_cpu_ms_p50_{size // 1000}k": cpu})
    report.columns = (*SHOWN, f"decision_ms_p50_{size // 1000}k", f"decision_cpu_ms_p50_{size // 1000}k")
    report.extra = {"headline": head, "datasets": {ds: len(eps) for ds, eps in sets.items()}}

    def draw(ax: object) -> None:
        names, width = list(pols), 0.8 / max(1, len(sets))
        for j, ds in enumerate(sets):
            ys = [report.systems[s].get(f"macro_f1_{ds}", float("nan")) for s in names]
            ax.bar(np.arange(len(names)) + j * width, ys, width, label=ds)  # type: ignore[attr-defined]
        ax.set_xticks(np.arange(len(names)) + 0.4 - width / 2, names, rotation=30, ha="right", fontsize=8)  # type: ignore[attr-defined]
        ax.set_ylabel("macro-F1 (rollout)")  # type: ignore[attr-defined]
        ax.set_title("TARL-Mem: macro-F1 per system and data set")  # type: ignore[attr-defined]
        ax.legend(fontsize=8)  # type: ignore[attr-defined]

    report.plot("tarl_mem_macro_f1.png", draw)
    for ds, t in tables.items():
        report.notes.append(f"\n{ds} (rollout):\n" + t.table())
    report.notes += notes
    report.notes.append("content_free_probe: a depth-8 tree on six features that read no word of the claim (tarl_mem_baselines), "
                        "fitted on the generated train split; its score is what metadata alone gives away")
    report.notes.append(f"decision_ms_p50_{size // 1000}k: decision.decide at {size} open entries, candidates = the "
                        f"{NEIGHBOURS} nearest (neighbour query and embedding excluded); halumem: memory points given "
                        "as claims, extraction skipped")
    report.emit(args)
    return 0

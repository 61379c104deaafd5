"""Counterfactual execution supervision in torch, exported to the numpy scorer's JSON weights.

Loss per decision (TARL): cross-entropy of the policy p(a) against pi = softmax(Q / tau), where Q(a)
is the ledger-weighted match of the state each action produces (run by the real executor) with the gold
next state, plus ``label_weight`` x the plain cross-entropy on the gold action. ``objective="label"`` is
the ablation without counterfactual targets; ``binary=True`` trains TARL's Write/Hold view.
Deterministic given ``seed`` (fixed init, fixed shuffling, single-threaded, deterministic kernels).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from ..policy.features import ACTION_CODES, FEATURE_NAMES
from ..policy.model import ScorerWeights
from ..schema import DECISION_ACTIONS, WRITE_ACTIONS
from .counterfactual import TAU, soft_target

FIVE = tuple(a.value for a in DECISION_ACTIONS)
BINARY = ("write", "hold")


@dataclass
class TrainConfig:
    objective: str = "counterfactual"   # or "label"
    binary: bool = False
    epochs: int = 60
    hidden: int = 32
    embedding: int = 8
    hidden2: int = 16
    lr: float = 3e-3
    weight_decay: float = 1e-4
    batch: int = 128
    label_weight: float = 1.0
    """The plain label cross-entropy's weight. It keeps the probabilities honest: the counterfactual target
    alone puts all of a contract-forced decision's mass on the forced action, so the policy's own
    probability, which such decisions report (``contract.reported``), would say 1.0 (rollout ECE on
    hand-written dev 0.145 / 0.131 with weight 0 at tau 0.5; 0.059 / 0.052 with weight 1 at tau 1)."""
    tau: float = TAU
    seed: int = 0
    patience: int | None = 12
    """Stop after this many epochs without a better dev loss (the best epoch's weights are kept either
    way; None: run every epoch). On this round's data the best dev loss came within the first ten epochs."""
    meta: dict = field(default_factory=dict)


@dataclass
class Batch:
    """Arrays for a set of decisions: features, feasibility mask, gold label, counterfactual target."""

    x: np.ndarray
    mask: np.ndarray
    label: np.ndarray
    target: np.ndarray

    @classmethod
    def of(cls, xs: Sequence[np.ndarray], masks: Sequence[np.ndarray], labels: Sequence[int],
           qs: Sequence[np.ndarray], binary: bool = False, tau: float = TAU) -> Batch:
        x = np.stack(xs).astype(np.float32)
        if binary:
            lab = np.asarray([0 if DECISION_ACTIONS[i] in WRITE_ACTIONS else 1 for i in labels])
            return cls(x, np.ones((len(x), 2), bool), lab, np.eye(2, dtype=np.float32)[lab])
        target = np.stack([soft_target(q, tau) for q in qs]).astype(np.float32)
        return cls(x, np.stack(masks), np.asarray(labels), target)


class TorchScorer(nn.Module):
    """The same function as ``policy.model.Scorer``, in torch for training."""

    def __init__(self, n_features: int, actions: tuple[str, ...], cfg: TrainConfig) -> None:
        super().__init__()
        self.actions = actions
        self.l1 = nn.Linear(n_features, cfg.hidden)
        self.E = nn.Parameter(torch.randn(len(actions), cfg.embedding) * 0.1)
        self.register_buffer("codes", torch.tensor([ACTION_CODES[a] for a in actions], dtype=torch.float32))
        self.l2 = nn.Linear(cfg.hidden + cfg.embedding + self.codes.shape[1], cfg.hidden2)
        self.l3 = nn.Linear(cfg.hidden2, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.l1(x))
        n, a = x.shape[0], len(self.actions)
        u = torch.cat([h[:, None, :].expand(n, a, -1), self.E[None].expand(n, -1, -1),
                       self.codes[None].expand(n, -1, -1)], dim=-1)
        return self.l3(torch.tanh(self.l2(u))).squeeze(-1)


def losses(logits: torch.Tensor, mask: torch.Tensor, label: torch.Tensor, target: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(counterfactual cross-entropy, label cross-entropy). The distribution is over all actions: the
    counterfactual target gives actions the executor refuses here zero mass, while the label may still
    be one of them (a revise whose target grounding missed), which teaches the model to be unsure in
    exactly those cases instead of confidently wrong. The executed action is the best feasible one."""
    logp = torch.log_softmax(logits, dim=-1)
    cf = -(target * logp).sum(-1).mean()
    return cf, nn.functional.nll_loss(logp, label)


def train(train_set: Batch, dev_set: Batch, cfg: TrainConfig, progress: bool = True) -> tuple[ScorerWeights, dict]:
    torch.manual_seed(cfg.seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    mean, std = train_set.x.mean(0), train_set.x.std(0) + 1e-6
    actions = BINARY if cfg.binary else FIVE
    model = TorchScorer(train_set.x.shape[1], actions, cfg)
    opt = torch.optim.Adam(model.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    t = {k: torch.tensor(v) for k, v in vars(train_set).items()}
    d = {k: torch.tensor(v) for k, v in vars(dev_set).items()}
    t["x"], d["x"] = (t["x"] - torch.tensor(mean)) / torch.tensor(std), (d["x"] - torch.tensor(mean)) / torch.tensor(std)
    gen = torch.Generator().manual_seed(cfg.seed)
    best: tuple[float, dict] | None = None
    history = []
    bar = tqdm(range(cfg.epochs), desc=f"train {cfg.objective}{' binary' if cfg.binary else ''}", disable=not progress)
    for _ in bar:
        model.train()
        order = torch.randperm(len(t["x"]), generator=gen)
        for i in range(0, len(order), cfg.batch):
            idx = order[i:i + cfg.batch]
            cf, lab = losses(model(t["x"][idx]), t["mask"][idx], t["label"][idx], t["target"][idx])
            loss = lab if cfg.objective == "label" or cfg.binary else cf + cfg.label_weight * lab
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            cf, lab = losses(model(d["x"]), d["mask"], d["label"], d["target"])
            dev_loss = float(lab if cfg.objective == "label" or cfg.binary else cf + cfg.label_weight * lab)
        history.append(dev_loss)
        bar.set_postfix(dev_loss=f"{dev_loss:.4f}")
        if best is None or dev_loss < best[0]:
            best = (dev_loss, {k: v.detach().clone() for k, v in model.state_dict().items()})
        elif cfg.patience is not None and len(history) - 1 - int(np.argmin(history)) >= cfg.patience:
            break
    assert best is not None
    model.load_state_dict(best[1])
    weights = export(model, mean, std, cfg)
    weights.temperature = fit_temperature(weights, dev_set)
    return weights, {"dev_loss": history, "best_dev_loss": best[0]}


def ensemble(runs: Sequence[ScorerWeights], calibration: Batch) -> ScorerWeights:
    """One weights file averaging the members' scores, its temperature fitted anew on ``calibration``."""
    first = runs[0]
    members = ScorerWeights(first.actions, first.arrays, 1.0, {**first.meta, "members": len(runs),
                                                               "seeds": [r.meta.get("seed") for r in runs]},
                            first.config, [r.arrays for r in runs[1:]])
    members.temperature = fit_temperature(members, calibration)
    return members


def export(model: TorchScorer, mean: np.ndarray, std: np.ndarray, cfg: TrainConfig) -> ScorerWeights:
    def a(p: torch.Tensor) -> np.ndarray:
        return p.detach().numpy().astype(np.float64)

    arrays = {"mean": mean.astype(np.float64), "std": std.astype(np.float64), "W1": a(model.l1.weight),
              "b1": a(model.l1.bias), "E": a(model.E), "W2": a(model.l2.weight), "b2": a(model.l2.bias),
              "w3": a(model.l3.weight).reshape(-1), "b3": a(model.l3.bias).reshape(-1)}
    meta = {"objective": cfg.objective, "binary": cfg.binary, "seed": cfg.seed, "epochs": cfg.epochs,
            "tau": cfg.tau, "label_weight": cfg.label_weight, "features": len(FEATURE_NAMES), **cfg.meta}
    from ..config import PolicyConfig

    return ScorerWeights(model.actions, arrays, 1.0, meta, PolicyConfig().model_dump(mode="json"))


def fit_temperature(weights: ScorerWeights, dev: Batch) -> float:
    """Temperature scaling on dev: the T whose executed-action confidences have the lowest ECE (10 bins,
    the benchmark's definition; dev negative log-likelihood breaks near-ties). The executed action is the
    most probable one the contract allows (``dev.mask``) and its confidence is what
    ``policy.contract.enforce`` reports (``contract.reported``); so T never changes a decision."""
    from ..bench.tarl_mem_metrics import ece
    from ..policy.contract import reported
    from ..policy.model import Scorer

    scorer = Scorer(weights)
    rows = np.arange(len(dev.label))
    best: tuple[float, float, float] = (np.inf, np.inf, 1.0)
    for temp in np.exp(np.linspace(np.log(0.1), np.log(10.0), 121)):
        p = reported(scorer.probabilities(dev.x, temperature=float(temp)), dev.mask)
        executed = np.where(dev.mask, p, -1.0).argmax(1)
        err = ece(p[rows, executed], executed == dev.label)
        nll = float(-np.mean(np.log(np.clip(p[rows, dev.label], 1e-12, None))))
        if (round(err, 3), nll) < best[:2]:
            best = (round(err, 3), nll, float(temp))
    return best[2]

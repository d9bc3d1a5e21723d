#!/usr/bin/python3
"""PyTorch's side of bench/seq2seq.js: trains the encoder-decoder of
tests/fixtures/make_seq2seq_fixtures.py (imported, not rewritten) in float32 on one thread, on the
minibatches the engine trains on, and times it.

Reads a job (JSON) on stdin: {"seed", "learningRate", "maxNorm", "sourceVocab", "targetVocab",
"batches": [[[source ids], [target ids]], …] per minibatch, "warmup", "steps", "pairWarmup",
"pairSteps", "cases": [{"scoring", "embedding", "hidden"}, …]}. For each case, twice from the
same initial weights (the engine's, drawn from numpy with the seed): batched (padded and masked,
one forward and backward per minibatch) and pair by pair (one sentence pair at a time, as the
PyTorch tutorial trains; the same loss and step). Each runs the first warmup minibatches untimed,
then times the next steps. Prints {"torch": version, "blas": [the BLAS library's files],
"cases": [{"batched": {"firstLoss", "loss", "ms", "tokens"}, "pairs": {…}}, …]} on stdout.
"""
import json
import os
import pathlib
import sys
import time

# Debian's python3-torch calls whichever libblas.so.3 the system's alternatives point to; an
# OpenBLAS would start a thread per core, which torch.set_num_threads does not govern.
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import torch  # noqa: E402
from torch import nn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"))
from make_seq2seq_fixtures import Seq2seq, initialise  # noqa: E402

torch.set_num_threads(1)
torch.set_num_interop_threads(1)


def pair_by_pair_loss(model, batch):
    # each pair's mean weighted by its length: the minibatch's mean over all its target tokens
    tokens = sum(len(target) for _, target in batch)
    return sum(model.loss([pair]) * len(pair[1]) for pair in batch) / tokens


def train(job, case, pair_by_pair):
    model = Seq2seq(case["scoring"], job["sourceVocab"], job["targetVocab"], case["embedding"],
                    case["hidden"])
    initialise(model, job["seed"])
    optimizer = torch.optim.Adam(model.parameters(), lr=job["learningRate"])
    loss_of = pair_by_pair_loss if pair_by_pair else Seq2seq.loss

    def step(batch):
        optimizer.zero_grad()
        loss = loss_of(model, batch)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), job["maxNorm"])
        optimizer.step()
        return loss.item()

    warmup, steps = (job["pairWarmup"], job["pairSteps"]) if pair_by_pair else (job["warmup"],
                                                                                 job["steps"])
    batches = job["batches"]
    first_loss = step(batches[0])
    for batch in batches[1:warmup]:
        step(batch)
    timed = batches[warmup:warmup + steps]
    start = time.perf_counter()
    for batch in timed:
        loss = step(batch)
    ms = (time.perf_counter() - start) * 1000
    tokens = sum(len(target) for batch in timed for _, target in batch)
    return {"firstLoss": first_loss, "loss": loss, "ms": ms, "tokens": tokens}


def blas():
    """The BLAS libraries this process loaded, as files."""
    with open("/proc/self/maps") as maps:
        return sorted({line.split()[-1] for line in maps if "blas" in line.rsplit("/", 1)[-1]})


def main():
    job = json.load(sys.stdin)
    cases = [{"batched": train(job, case, False), "pairs": train(job, case, True)}
             for case in job["cases"]]
    json.dump({"torch": torch.__version__, "blas": blas(), "cases": cases}, sys.stdout)


if __name__ == "__main__":
    main()

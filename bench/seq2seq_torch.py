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
import pathlib
import sys

from torch_training import blas, timed_training, torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"))
from make_seq2seq_fixtures import Seq2seq, initialise  # noqa: E402


def pair_by_pair_loss(model, batch):
    # each pair's mean weighted by its length: the minibatch's mean over all its target tokens
    tokens = sum(len(target) for _, target in batch)
    return sum(model.loss([pair]) * len(pair[1]) for pair in batch) / tokens


def train(job, case, pair_by_pair):
    model = Seq2seq(case["scoring"], job["sourceVocab"], job["targetVocab"], case["embedding"],
                    case["hidden"])
    initialise(model, job["seed"])
    warmup, steps = (job["pairWarmup"], job["pairSteps"]) if pair_by_pair else (job["warmup"],
                                                                                 job["steps"])
    return timed_training(model, pair_by_pair_loss if pair_by_pair else Seq2seq.loss,
                          job["batches"], warmup, steps, job["learningRate"], job["maxNorm"])


def main():
    job = json.load(sys.stdin)
    cases = [{"batched": train(job, case, False), "pairs": train(job, case, True)}
             for case in job["cases"]]
    json.dump({"torch": torch.__version__, "blas": blas(), "cases": cases}, sys.stdout)


if __name__ == "__main__":
    main()

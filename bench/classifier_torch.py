#!/usr/bin/python3
"""PyTorch's side of bench/classifier.js: trains the sentence classifier with attention pooling of
tests/fixtures/make_classifier_fixtures.py (imported, not rewritten) in float32 on one thread, on
the minibatches the engine trains on, and times it.

Reads a job (JSON) on stdin: {"seed", "learningRate", "maxNorm", "vocab", "labels", "batches":
[[[token ids], label index], ...] per minibatch, "warmup", "steps", "cases": [{"encoder",
"attention", "embedding", "hidden"}, ...]}. Each case starts from the engine's initial weights
(drawn from numpy with the seed) and trains as a PyTorch user writes it: padded batches, packed
sequences through the bidirectional GRU, masked attention, the mean cross-entropy, Adam, clipping;
the first warmup minibatches untimed, then the next steps timed. Prints {"torch": version,
"blas": [the BLAS library's files], "cases": [{"firstLoss", "loss", "ms", "cpuMs", "tokens" (the
timed minibatches' words)}, ...]} on stdout.
"""
import json
import pathlib
import sys

from torch_training import blas, timed_training, torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"))
from make_classifier_fixtures import Classifier  # noqa: E402
from make_seq2seq_fixtures import initialise  # noqa: E402


def loss_of(model, batch):
    return model.loss([ids for ids, _ in batch], [label for _, label in batch])


def words(batch):
    return sum(len(ids) for ids, _ in batch)


def train(job, case):
    model = Classifier(job["vocab"], job["labels"], case["embedding"], case["hidden"],
                       case["encoder"], case["attention"])
    initialise(model, job["seed"])
    model.float()
    return timed_training(model, loss_of, job["batches"], job["warmup"], job["steps"],
                          job["learningRate"], job["maxNorm"], words)


def main():
    job = json.load(sys.stdin)
    cases = [train(job, case) for case in job["cases"]]
    json.dump({"torch": torch.__version__, "blas": blas(), "cases": cases}, sys.stdout)


if __name__ == "__main__":
    main()

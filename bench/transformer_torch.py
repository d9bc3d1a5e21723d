#!/usr/bin/python3
"""PyTorch's side of bench/transformer.js: trains the tutorial Transformer of
tests/fixtures/make_transformer_fixtures.py (imported, not rewritten) in float32 on one thread, on
the minibatches the engine trains on, and times it.

Reads a job (JSON) on stdin: {"seed", "learningRate", "maxNorm", "sourceVocab", "targetVocab",
"batches": [[[source ids], [target ids]], ...] per minibatch, "warmup", "steps", "cases":
[{"model", "heads", "encoderLayers", "decoderLayers", "feedforward"}, ...]}. Each case starts from
the engine's initial weights (drawn from numpy with the seed) and trains as the tutorial does:
padded batches with the causal and key-padding masks, the mean cross-entropy over the target
tokens, Adam, clipping; the first warmup minibatches untimed, then the next steps timed. Prints
{"torch": version, "blas": [the BLAS library's files], "cases": [{"firstLoss", "loss", "ms",
"tokens"}, ...]} on stdout.
"""
import json
import pathlib
import sys

from torch_training import blas, timed_training, torch
from torch.nn import functional as F

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"))
from make_transformer_fixtures import (EOS, IGNORE, SOS, Seq2SeqTransformer,  # noqa: E402
                                       causal_mask, initialise, padded, padding_mask)


def loss_of(model, batch):
    src = padded([source for source, _ in batch], EOS)
    tgt = padded([[SOS] + target[:-1] for _, target in batch], EOS)
    src_padding = padding_mask([len(source) for source, _ in batch], src.shape[1])
    tgt_padding = padding_mask([len(target) for _, target in batch], tgt.shape[1])
    logits = model(src, tgt, torch.zeros((src.shape[1],) * 2, dtype=torch.bool),
                   causal_mask(tgt.shape[1]), src_padding, tgt_padding, src_padding)
    targets = padded([target for _, target in batch], IGNORE)
    return F.cross_entropy(logits.flatten(0, 1), targets.flatten(), ignore_index=IGNORE)


def train(job, case):
    model = Seq2SeqTransformer(case["encoderLayers"], case["decoderLayers"], case["model"],
                               case["heads"], job["sourceVocab"], job["targetVocab"],
                               case["feedforward"])
    initialise(model, job["seed"])
    model.float()
    return timed_training(model, loss_of, job["batches"], job["warmup"], job["steps"],
                          job["learningRate"], job["maxNorm"])


def main():
    job = json.load(sys.stdin)
    cases = [train(job, case) for case in job["cases"]]
    json.dump({"torch": torch.__version__, "blas": blas(), "cases": cases}, sys.stdout)


if __name__ == "__main__":
    main()

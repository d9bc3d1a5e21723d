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
import os
import pathlib
import sys
import time

# Debian's python3-torch calls whichever libblas.so.3 the system's alternatives point to; an
# OpenBLAS would start a thread per core, which torch.set_num_threads does not govern.
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import torch  # noqa: E402
from torch import nn  # noqa: E402
from torch.nn import functional as F  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"))
from make_transformer_fixtures import (EOS, IGNORE, SOS, Seq2SeqTransformer,  # noqa: E402
                                       causal_mask, initialise, padded, padding_mask)

torch.set_num_threads(1)
torch.set_num_interop_threads(1)


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
    optimizer = torch.optim.Adam(model.parameters(), lr=job["learningRate"])

    def step(batch):
        optimizer.zero_grad()
        loss = loss_of(model, batch)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), job["maxNorm"])
        optimizer.step()
        return loss.item()

    batches, warmup, steps = job["batches"], job["warmup"], job["steps"]
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
    cases = [train(job, case) for case in job["cases"]]
    json.dump({"torch": torch.__version__, "blas": blas(), "cases": cases}, sys.stdout)


if __name__ == "__main__":
    main()

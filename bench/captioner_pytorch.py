#!/usr/bin/python3
"""PyTorch's training throughput on the captioner of issue 22, to set beside
bench/captioner_native's: the model of tests/fixtures/make_captioner_fixtures.py (imported, not
rewritten; its default layout, the batch norms after each convolution, as the engine's) in
float32 on one thread, one Adam step with global-norm clipping a minibatch, the loss
with the doubly stochastic regulariser, as the engine trains.

    OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/captioner_pytorch.py \
        [--channels 16] [--annotation 32] [--attention 32] [--embedding 16] [--hidden 64] \
        [--batch 32] [--steps 100] [--warmup 10] [--language en] [--repeats 3]

The images are random pixels and the captions random tokens: the cost of a step depends only on
the sizes and on the captions' lengths, which are drawn as the shapes task's training split holds
them (<eos> included: en 5 for one object; for two, 10 one above the other (four pairs of slots
in six) and 11 side by side; 17 for three; zh 6, 12 and 18; a thirtieth of the scenes hold one
object, the rest two or three evenly). Prints one JSON line:
{"torch", "blas", "threads", "batch", "ms" (per step, the best of the repeats), "cpuMs" (this
process's CPU time per step, which other processes on a shared machine inflate less),
"imagesPerSecond" (from ms)}.
"""
import argparse
import json
import pathlib
import sys
import time

import numpy as np
from torch_training import blas, torch
from torch import nn

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"))
from make_captioner_fixtures import EOS, Captioner, initialise  # noqa: E402

LENGTHS = {"en": ([5, 10, 11, 17], [1 / 30, 29 / 90, 29 / 180, 29 / 60]),
           "zh": ([6, 12, 18], [1 / 30, 29 / 60, 29 / 60])}
VOCAB = {"en": 18, "zh": 19}


def main():
    parser = argparse.ArgumentParser()
    for name, default in [("channels", 16), ("annotation", 32), ("attention", 32),
                          ("embedding", 16), ("hidden", 64), ("batch", 32), ("steps", 100),
                          ("warmup", 10), ("repeats", 3)]:
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--language", default="en", choices=sorted(LENGTHS))
    parser.add_argument("--learning-rate", type=float, default=0.005)
    parser.add_argument("--regularization", type=float, default=1.0)
    args = parser.parse_args()
    vocab = VOCAB[args.language]
    model = Captioner(vocab, args.channels, args.annotation, args.attention, args.embedding,
                      args.hidden).float()
    initialise(model, 0)
    model.float()
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    rng = np.random.RandomState(0)
    lengths, shares = LENGTHS[args.language]

    def minibatch():
        images = torch.from_numpy(rng.rand(args.batch, 3, 32, 32).astype(np.float32))
        captions = [list(rng.randint(2, vocab, size=n - 1)) + [EOS]
                    for n in rng.choice(lengths, size=args.batch, p=shares)]
        return images, [[int(token) for token in caption] for caption in captions]

    def step(batch):
        optimizer.zero_grad()
        loss, _ = model.loss(*batch, args.regularization)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()

    for _ in range(args.warmup):
        step(minibatch())
    best = best_cpu = float("inf")
    for _ in range(args.repeats):
        batches = [minibatch() for _ in range(args.steps)]
        start, cpu_start = time.perf_counter(), time.process_time()
        for batch in batches:
            step(batch)
        best = min(best, (time.perf_counter() - start) / args.steps)
        best_cpu = min(best_cpu, (time.process_time() - cpu_start) / args.steps)
    json.dump({"torch": torch.__version__, "blas": blas(), "threads": torch.get_num_threads(),
               "batch": args.batch, "ms": round(best * 1000, 3), "cpuMs": round(best_cpu * 1000, 3),
               "imagesPerSecond": round(args.batch / best, 1)}, sys.stdout)
    print()


if __name__ == "__main__":
    main()

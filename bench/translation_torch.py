#!/usr/bin/python3
"""PyTorch's side of bench/translation.js: trains the encoder-decoder of
tests/fixtures/make_seq2seq_fixtures.py and the tutorial Transformer of
tests/fixtures/make_transformer_fixtures.py (both imported, not rewritten) in float32 on one
thread, on the minibatches the engine trains on with a task from the reader's text (Tatoeba's
Spanish-English pairs), and times them.

Reads a job (JSON) on stdin: {"seed", "maxNorm", "warmup", "steps", "cases": [...]}, each case
{"kind": "seq2seq", "scoring", "encoder", "embedding", "hidden"} or {"kind": "transformer",
"model", "heads", "encoderLayers", "decoderLayers", "feedforward"}, with its "learningRate",
"sourceVocab", "targetVocab" and "batches" ([[[source ids], [target ids]], ...] per minibatch).
Each starts from the engine's initial weights (drawn from numpy with the seed, whatever the
vocabularies' sizes) and trains as bench/seq2seq_torch.py and bench/transformer_torch.py do: the
first warmup minibatches untimed, then the next steps timed. Prints {"torch": version, "blas":
[the BLAS library's files], "cases": [{"firstLoss", "loss", "ms", "tokens"}, ...]} on stdout.
"""
import json
import pathlib
import sys

from torch_training import blas, timed_training, torch
from transformer_torch import loss_of as transformer_loss

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures"))
from make_seq2seq_fixtures import Seq2seq  # noqa: E402
from make_seq2seq_fixtures import initialise as initialise_seq2seq  # noqa: E402
from make_transformer_fixtures import Seq2SeqTransformer  # noqa: E402
from make_transformer_fixtures import initialise as initialise_transformer  # noqa: E402


def model_of(job, case):
    if case["kind"] == "seq2seq":
        model = Seq2seq(case["scoring"], case["sourceVocab"], case["targetVocab"],
                        case["embedding"], case["hidden"], case["encoder"])
        initialise_seq2seq(model, job["seed"])
        return model, Seq2seq.loss
    model = Seq2SeqTransformer(case["encoderLayers"], case["decoderLayers"], case["model"],
                               case["heads"], case["sourceVocab"], case["targetVocab"],
                               case["feedforward"])
    initialise_transformer(model, job["seed"])
    return model, transformer_loss


def train(job, case):
    model, loss_of = model_of(job, case)
    model.float()
    return timed_training(model, loss_of, case["batches"], job["warmup"], job["steps"],
                          case["learningRate"], job["maxNorm"])


def main():
    job = json.load(sys.stdin)
    cases = [train(job, case) for case in job["cases"]]
    json.dump({"torch": torch.__version__, "blas": blas(), "cases": cases}, sys.stdout)


if __name__ == "__main__":
    main()

"""What the PyTorch sides of the model benchmarks share (seq2seq_torch.py, transformer_torch.py,
captioner_pytorch.py, classifier_torch.py): one thread, as the engine's bench runs, the BLAS that
ran, and a training run timed on the engine's minibatches."""
import os
import time

# Debian's python3-torch calls whichever libblas.so.3 the system's alternatives point to; an
# OpenBLAS would start a thread per core, which torch.set_num_threads does not govern.
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import torch  # noqa: E402
from torch import nn  # noqa: E402

torch.set_num_threads(1)
torch.set_num_interop_threads(1)


def blas():
    """The BLAS libraries this process loaded, as files (not Python's extension modules, such as
    SciPy's BLAS wrappers, which the classifier's fixture script loads)."""
    with open("/proc/self/maps") as maps:
        files = {line.split()[-1] for line in maps}
    return sorted(f for f in files if "blas" in f.rsplit("/", 1)[-1] and ".cpython-" not in f)


def target_tokens(batch):
    """A minibatch of ([source ids], [target ids]) pairs' target tokens."""
    return sum(len(target) for _, target in batch)


def timed_training(model, loss_of, batches, warmup, steps, learning_rate, max_norm,
                   tokens_of=target_tokens):
    """Adam with global-norm clipping, as the engine trains, one step a minibatch of `batches`
    (by default ([source ids], [target ids]) pairs): the first `warmup` untimed, the next `steps`
    timed. Returns {"firstLoss", "loss", "ms", "cpuMs" (this process's CPU time, which other
    processes on a shared machine inflate less), "tokens" (tokens_of the timed minibatches: by
    default their targets')}."""
    optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)

    def step(batch):
        optimizer.zero_grad()
        loss = loss_of(model, batch)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), max_norm)
        optimizer.step()
        return loss.item()

    first_loss = step(batches[0])
    for batch in batches[1:warmup]:
        step(batch)
    timed = batches[warmup:warmup + steps]
    start, cpu_start = time.perf_counter(), time.process_time()
    for batch in timed:
        loss = step(batch)
    ms = (time.perf_counter() - start) * 1000
    cpu_ms = (time.process_time() - cpu_start) * 1000
    tokens = sum(tokens_of(batch) for batch in timed)
    return {"firstLoss": first_loss, "loss": loss, "ms": ms, "cpuMs": cpu_ms, "tokens": tokens}

#!/usr/bin/python3
"""PyTorch's side of the pretrained-model benchmark: a GPT-2 checkpoint of GPT-2 small's size
(124,439,808 parameters) with random weights, in Hugging Face's exact file layout, and what PyTorch
does with it as its users run it (float32, torch.inference_mode, a set number of threads): load
the file, one forward pass returning every head's attention weights, greedy decoding with the
key/value cache; and the same model exported to ONNX for onnxruntime's side (bench/pretrained.js).

Run with Debian's python3-torch and python3-numpy, from the repository's root:
    /usr/bin/python3 bench/pretrained_torch.py write --out /tmp/gpt2-small
    /usr/bin/python3 bench/pretrained_torch.py export --checkpoint /tmp/gpt2-small --out /tmp/gpt2-onnx
    /usr/bin/python3 bench/pretrained_torch.py time --checkpoint /tmp/gpt2-small --threads 1
    /usr/bin/python3 bench/pretrained_torch.py check --checkpoint /tmp/gpt2-small --ids 464,3290,3332
Nothing here imports transformers or safetensors, and nothing is downloaded: the checkpoint is
written by hand to safetensors' format as tests/fixtures/make_pretrained_fixtures.py writes it, and
the forward pass is GPT2LMHeadModel's eager one (GPT2Model.forward, GPT2Block, GPT2Attention._attn
and forward, GPT2MLP; no dropout, as in eval()), re-written from the modeling code read at the
commits of huggingface/transformers that the fixture script cites:

  src/transformers/models/gpt2/modeling_gpt2.py       c44b2d9976e8eafbdcb89cb2710141b2bc9b138f
  src/transformers/models/gpt2/configuration_gpt2.py  1c70522e01cdf5fcc6ebda6c372ee0198d557c53
  src/transformers/pytorch_utils.py                   3009a8a4b92d0d63b18d11575a413a4b78a55776 (Conv1D)
  src/transformers/activations.py                     d60525f3595f8214576d6b8f1c54ac7cd0b5c42c (gelu_new)

The fixture script is not imported: it writes tests/fixtures/pretrained/ when it is loaded.

Subcommands:
  write   DIR/config.json and DIR/model.safetensors: keys, shapes and order as the hub's gpt2
          model.safetensors (no "transformer." prefix, Conv1D weights [in, out], no lm_head.weight:
          tied), without its 12 old attn.bias buffers (the model makes its own causal mask). Drawn
          after torch.manual_seed(seed) in the file's order: matrices and embeddings N(0, 0.02^2),
          LayerNorm weights 1, biases 0; streamed, one tensor in memory at a time.
  export  DIR2/gpt2_forward.onnx: input_ids [1, sequence] -> logits [1, sequence, vocab] and
          attentions [layers, heads, sequence, sequence] (every head's softmax weights, stacked);
          DIR2/gpt2_decode.onnx: input_ids [1, sequence] and past_key_values.{l}.key/.value
          [1, heads, past_sequence, head_dim] -> logits and present.{l}.key/.value
          [1, heads, past_sequence + sequence, head_dim] (the prompt runs with an empty past,
          past_sequence 0); DIR2/onnx.json lists both. Opset 14 (torch 1.13's default; --opset 17,
          its highest, makes LayerNormalization nodes), constant folding on, the weights inside
          the files (about 499 MB each: no second copy of wte, see GPT2.forward).
  time    torch.set_num_threads(threads) and as many OpenBLAS threads; in torch.inference_mode:
          loading (model.safetensors read into tensors and the model made of them, the median of
          3, MB = 10^6 bytes), the forward pass over --tokens ids with the attentions (the median
          of 5 after a warm-up) and greedy decoding on the cache after a 16-token prompt (the
          prompt untimed; the median of the --generate one-token steps, each with its argmax).
          The OpenBLAS core goes to stderr, then one JSON line to stdout: {"torch", "threads",
          "loadMBps", "forwardMs", "generateMsPerToken", "cpu" (lscpu's model name), "blas" (the
          OpenBLAS core, or null for another BLAS)}.
  check   one JSON line: {"ids", "logits": logits[-1][:5], "attention": attentions[0][0][-1][:5]}
          (layer 0, head 0, the last query's weights), for comparing with the engine's numbers.
"""
import argparse
import ctypes
import json
import math
import pathlib
import statistics
import struct
import subprocess
import sys
import time

import torch
import torch.nn.functional as F
from torch import nn

TRANSFORMERS_VERSION = "4.48.0"  # the fixture script's configs say the same
STORAGE = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}
PROMPT_TOKENS = 16
IDS_SEED = 1234  # the token ids the timings run on: any, but the same every run


# --------------------------------------------------------------------------------------------
# The checkpoint: config.json and model.safetensors, as save_pretrained writes them.
# --------------------------------------------------------------------------------------------


def gpt2_config(layers, hidden, heads, vocab, positions):
    """config.json with the keys and defaults save_pretrained writes for GPT2LMHeadModel (as the
    fixture script's gpt2_config); bos and eos are <|endoftext|>, the last id, as in gpt2."""
    return {"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
            "bos_token_id": vocab - 1, "embd_pdrop": 0.1, "eos_token_id": vocab - 1, "initializer_range": 0.02,
            "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_embd": hidden, "n_head": heads, "n_inner": None,
            "n_layer": layers, "n_positions": positions, "reorder_and_upcast_attn": False, "resid_pdrop": 0.1,
            "scale_attn_by_inverse_layer_idx": False, "scale_attn_weights": True, "summary_activation": None,
            "summary_first_dropout": 0.1, "summary_proj_to_labels": True, "summary_type": "cls_index",
            "summary_use_proj": True, "tie_word_embeddings": True, "torch_dtype": "float32",
            "transformers_version": TRANSFORMERS_VERSION, "use_cache": True, "vocab_size": vocab}


def gpt2_tensors(cfg):
    """[(name, kind, shape)] of GPT2LMHeadModel's stored tensors, kind "mat", "norm" or "bias",
    in the order safetensors writes them: all F32, so by name (byte order: h.0, h.1, h.10, ...)."""
    E, V, P = cfg["n_embd"], cfg["vocab_size"], cfg["n_positions"]
    inner = cfg["n_inner"] or 4 * E
    spec = [("wte.weight", "mat", (V, E)), ("wpe.weight", "mat", (P, E)),
            ("ln_f.weight", "norm", (E,)), ("ln_f.bias", "bias", (E,))]
    for l in range(cfg["n_layer"]):
        p = f"h.{l}."
        spec += [(p + "ln_1.weight", "norm", (E,)), (p + "ln_1.bias", "bias", (E,)),
                 (p + "attn.c_attn.weight", "mat", (E, 3 * E)), (p + "attn.c_attn.bias", "bias", (3 * E,)),
                 (p + "attn.c_proj.weight", "mat", (E, E)), (p + "attn.c_proj.bias", "bias", (E,)),
                 (p + "ln_2.weight", "norm", (E,)), (p + "ln_2.bias", "bias", (E,)),
                 (p + "mlp.c_fc.weight", "mat", (E, inner)), (p + "mlp.c_fc.bias", "bias", (inner,)),
                 (p + "mlp.c_proj.weight", "mat", (inner, E)), (p + "mlp.c_proj.bias", "bias", (E,))]
    return sorted(spec, key=lambda entry: entry[0].encode())


def safetensors_header(spec):
    """The header as safetensors' serialiser writes it: 8-byte little-endian length N, N bytes of
    compact JSON ("__metadata__" first, then the tensors in data order), padded with spaces to a
    multiple of 8, so that the data (contiguous, in that order) starts 8-aligned."""
    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, _, shape in spec:
        size = 4 * math.prod(shape)
        header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text, offset


def initial(kind, shape):
    """GPT-2's initialisation (GPT2PreTrainedModel._init_weights, without the 1/sqrt(2 n_layer)
    scaling of the c_proj weights): what a freshly made model holds."""
    if kind == "mat":
        return torch.empty(shape, dtype=torch.float32).normal_(mean=0.0, std=0.02)
    return (torch.ones if kind == "norm" else torch.zeros)(shape, dtype=torch.float32)


def write_checkpoint(out, layers, hidden, heads, vocab, positions, seed):
    assert sys.byteorder == "little"  # the tensors' bytes go to the file as they are in memory
    cfg = gpt2_config(layers, hidden, heads, vocab, positions)
    out.mkdir(parents=True, exist_ok=True)
    # save_pretrained: json.dumps(..., indent=2, sort_keys=True) and a newline
    (out / "config.json").write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    spec = gpt2_tensors(cfg)
    header, data_size = safetensors_header(spec)
    torch.manual_seed(seed)
    path = out / "model.safetensors"
    with open(path, "wb") as f:
        f.write(header)
        for _, kind, shape in spec:
            f.write(initial(kind, shape).numpy().data)  # a view of the tensor: no second copy
    parameters = sum(math.prod(shape) for _, _, shape in spec)
    assert path.stat().st_size == len(header) + data_size == len(header) + 4 * parameters
    return path, parameters


def read_safetensors(path):
    """{name: float32 tensor} from a safetensors file: the whole file read into one buffer, the
    tensors views of it (F32) or widened from it (F16, BF16); the header checked as strictly as
    the fixture script's reader checks it."""
    with open(path, "rb", buffering=0) as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n).decode())
        size = path.stat().st_size - 8 - n
        data = bytearray(size)  # writable, so torch.frombuffer shares it without a warning
        view, done = memoryview(data), 0
        while done < size:
            got = f.readinto(view[done:])
            if not got:
                raise ValueError(f"{path}: the file ended at byte {8 + n + done}")
            done += got
    tensors, expect = {}, 0
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        if begin != expect:
            raise ValueError(f"{path}: {name} is not contiguous with the tensor before it")
        expect = end
        dtype = STORAGE[info["dtype"]]
        count = math.prod(info["shape"])
        if end - begin != count * torch.finfo(dtype).bits // 8:
            raise ValueError(f"{path}: {name}'s offsets do not fit its shape")
        t = torch.frombuffer(data, dtype=dtype, count=count, offset=begin) if count else torch.empty(0, dtype=dtype)
        tensors[name] = t.view(info["shape"]).to(torch.float32)  # no copy for F32
    if expect != size:
        raise ValueError(f"{path}: {size - expect} bytes after the last tensor")
    return tensors


def load_weights(checkpoint):
    """What from_pretrained does with a GPT-2 file's keys: strips "transformer.", drops the old
    causal-mask buffers (h.N.attn.bias, attn.masked_bias: the model makes its own)."""
    cfg = json.loads((checkpoint / "config.json").read_text(encoding="utf-8"))
    W = {}
    for key, value in read_safetensors(checkpoint / "model.safetensors").items():
        key = key[len("transformer."):] if key.startswith("transformer.") else key
        if key.endswith(".attn.bias") or key.endswith(".attn.masked_bias"):
            continue
        W[key] = value
    return cfg, W


# --------------------------------------------------------------------------------------------
# The model: GPT2LMHeadModel's eager forward, module names as Hugging Face's (state_dict keys
# equal the file's), weights shared with the loaded buffer rather than copied.
# --------------------------------------------------------------------------------------------


def frozen(tensor):
    return nn.Parameter(tensor, requires_grad=False)


class Conv1D(nn.Module):
    """pytorch_utils.Conv1D: a linear layer whose weight is stored [in, out]."""

    def __init__(self, weight, bias):
        super().__init__()
        self.weight, self.bias = frozen(weight), frozen(bias)

    def forward(self, x):
        size_out = x.size()[:-1] + (self.weight.size(1),)
        return torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight).view(size_out)


class LayerNorm(nn.Module):
    def __init__(self, weight, bias, eps):
        super().__init__()
        self.weight, self.bias, self.eps = frozen(weight), frozen(bias), eps
        self.shape = tuple(weight.shape)  # plain ints: the ONNX exporter needs them constant

    def forward(self, x):
        return F.layer_norm(x, self.shape, self.weight, self.bias, self.eps)


class Embedding(nn.Module):
    def __init__(self, weight):
        super().__init__()
        self.weight = frozen(weight)

    def forward(self, ids):
        return F.embedding(ids, self.weight)


def gelu_new(x):
    """activations.NewGELUActivation: the tanh approximation, in its own formula."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class Attention(nn.Module):
    """GPT2Attention.forward and _attn (not reorder_and_upcast_attn, which GPT-2 small does not use)."""

    def __init__(self, W, p, cfg, layer_idx):
        super().__init__()
        self.c_attn = Conv1D(W[p + "c_attn.weight"], W[p + "c_attn.bias"])
        self.c_proj = Conv1D(W[p + "c_proj.weight"], W[p + "c_proj.bias"])
        self.embed_dim, self.num_heads = cfg["n_embd"], cfg["n_head"]
        self.head_dim = self.embed_dim // self.num_heads
        self.scale_attn_weights = cfg.get("scale_attn_weights", True)
        self.inverse_layer = cfg.get("scale_attn_by_inverse_layer_idx", False)
        self.layer_idx = layer_idx
        assert not cfg.get("reorder_and_upcast_attn", False)

    def split_heads(self, x):
        return x.view(x.size()[:-1] + (self.num_heads, self.head_dim)).permute(0, 2, 1, 3)

    def merge_heads(self, x):
        x = x.permute(0, 2, 1, 3).contiguous()
        return x.view(x.size()[:-2] + (self.embed_dim,))

    def forward(self, x, layer_past, causal_mask):
        query, key, value = self.c_attn(x).split(self.embed_dim, dim=2)
        query, key, value = self.split_heads(query), self.split_heads(key), self.split_heads(value)
        if layer_past is not None:
            key = torch.cat((layer_past[0], key), dim=-2)
            value = torch.cat((layer_past[1], value), dim=-2)
        present = (key, value)
        weights = torch.matmul(query, key.transpose(-1, -2))
        if self.scale_attn_weights:
            # value.size(-1) in Hugging Face's code: the head width, known here without tracing a size
            weights = weights / torch.full([], self.head_dim ** 0.5, dtype=weights.dtype)
        if self.inverse_layer:
            weights = weights / float(self.layer_idx + 1)
        mask_value = torch.full([], torch.finfo(weights.dtype).min, dtype=weights.dtype)
        weights = torch.where(causal_mask, weights, mask_value)
        weights = F.softmax(weights, dim=-1)
        output = self.c_proj(self.merge_heads(torch.matmul(weights, value)))
        return output, present, weights


class MLP(nn.Module):
    def __init__(self, W, p):
        super().__init__()
        self.c_fc = Conv1D(W[p + "c_fc.weight"], W[p + "c_fc.bias"])
        self.c_proj = Conv1D(W[p + "c_proj.weight"], W[p + "c_proj.bias"])

    def forward(self, x):
        return self.c_proj(gelu_new(self.c_fc(x)))


class Block(nn.Module):
    """GPT2Block: pre-LayerNorm attention and MLP, each added to its input."""

    def __init__(self, W, l, cfg):
        super().__init__()
        p, eps = f"h.{l}.", cfg["layer_norm_epsilon"]
        self.ln_1 = LayerNorm(W[p + "ln_1.weight"], W[p + "ln_1.bias"], eps)
        self.attn = Attention(W, p + "attn.", cfg, l)
        self.ln_2 = LayerNorm(W[p + "ln_2.weight"], W[p + "ln_2.bias"], eps)
        self.mlp = MLP(W, p + "mlp.")

    def forward(self, h, layer_past, causal_mask):
        a, present, weights = self.attn(self.ln_1(h), layer_past, causal_mask)
        h = a + h
        return h + self.mlp(self.ln_2(h)), present, weights


class GPT2(nn.Module):
    """GPT2LMHeadModel in eval mode, batch 1. forward(input_ids [1, T], past) -> (logits
    [1, T, vocab], presents, attentions): past and presents are tuples of per-layer (key, value),
    each [1, heads, length, head_dim]; attentions [layers, heads, T, past + T] or None."""

    def __init__(self, cfg, W):
        super().__init__()
        self.config = cfg
        self.wte, self.wpe = Embedding(W["wte.weight"]), Embedding(W["wpe.weight"])
        self.h = nn.ModuleList(Block(W, l, cfg) for l in range(cfg["n_layer"]))
        self.ln_f = LayerNorm(W["ln_f.weight"], W["ln_f.bias"], cfg["layer_norm_epsilon"])
        untied = not cfg.get("tie_word_embeddings", True) and "lm_head.weight" in W
        self.lm_head = frozen(W["lm_head.weight"]) if untied else None
        # GPT2Attention's "bias" buffer, one for all layers: they slice it alike
        P = cfg["n_positions"]
        self.register_buffer("bias", torch.tril(torch.ones((P, P), dtype=torch.bool)).view(1, 1, P, P),
                             persistent=False)
        self.register_buffer("no_bias", torch.zeros(()), persistent=False)

    def forward(self, input_ids, past=None, output_attentions=False):
        length = input_ids.size(-1)
        past_length = 0 if past is None else past[0][0].size(-2)
        position_ids = torch.arange(past_length, past_length + length, dtype=torch.long).unsqueeze(0)
        h = self.wte(input_ids) + self.wpe(position_ids)
        # _attn: bias[:, :, key_length - query_length : key_length, :key_length]
        causal_mask = self.bias[:, :, past_length:past_length + length, :past_length + length]
        presents, attentions = [], []
        for l, block in enumerate(self.h):
            h, present, weights = block(h, None if past is None else past[l], causal_mask)
            presents.append(present)
            attentions.append(weights)
        h = self.ln_f(h)
        # lm_head: nn.Linear(n_embd, vocab, bias=False), its weight wte's unless untied. The same
        # product (one sgemm on wte transposed) written as addmm with beta 0, so that the ONNX
        # exporter makes it a Gemm with transB = 1 on wte itself: as F.linear it exports
        # MatMul(h, Transpose(wte)), which constant folding turns into a second, transposed copy
        # of the 154 MB embeddings. beta 0: the bias is not read (ATen and ONNX's Gemm alike).
        head = self.wte.weight if self.lm_head is None else self.lm_head
        logits = torch.addmm(self.no_bias, h.view(-1, h.size(-1)), head.t(), beta=0)
        logits = logits.view(h.size()[:-1] + (head.size(0),))
        return logits, tuple(presents), torch.cat(attentions, dim=0) if output_attentions else None


def load_model(checkpoint):
    cfg, W = load_weights(checkpoint)
    return GPT2(cfg, W).eval()


def greedy(model, prompt, steps):
    """The prompt's forward pass, then `steps` one-token steps on the cache; returns the new ids."""
    logits, past, _ = model(prompt)
    ids = [int(logits[0, -1].argmax())]
    for _ in range(steps - 1):
        logits, past, _ = model(torch.tensor([[ids[-1]]]), past)
        ids.append(int(logits[0, -1].argmax()))
    return ids


# --------------------------------------------------------------------------------------------
# ONNX export.
# --------------------------------------------------------------------------------------------


class FullForward(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids):
        logits, _, attentions = self.model(input_ids, output_attentions=True)
        return logits, attentions


class DecodeStep(nn.Module):
    """The past as flat inputs (key, value, key, value, ...), as ONNX graphs take them."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, *flat_past):
        past = tuple((flat_past[2 * l], flat_past[2 * l + 1]) for l in range(len(flat_past) // 2))
        logits, presents, _ = self.model(input_ids, past)
        return (logits,) + tuple(t for kv in presents for t in kv)


def kv_names(prefix, layers):
    return [f"{prefix}.{l}.{part}" for l in range(layers) for part in ("key", "value")]


def export_onnx(model, out, tokens, opset):
    """Both graphs; returns onnx.json's content. torch.onnx.export traces the module: the shapes
    named in dynamic_axes stay symbolic, everything else is fixed at the example's."""
    cfg = model.config
    L, H, D = cfg["n_layer"], cfg["n_head"], cfg["n_embd"] // cfg["n_head"]
    V = cfg["vocab_size"]
    out.mkdir(parents=True, exist_ok=True)
    gen = torch.Generator().manual_seed(IDS_SEED)
    ids = torch.randint(V, (1, min(tokens, cfg["n_positions"])), generator=gen)
    manifest = {"opset": opset, "torch": torch.__version__, "config": cfg, "graphs": {}}

    start = time.perf_counter()
    path = out / "gpt2_forward.onnx"
    torch.onnx.export(FullForward(model), (ids,), str(path), input_names=["input_ids"],
                      output_names=["logits", "attentions"],
                      dynamic_axes={"input_ids": {1: "sequence"}, "logits": {1: "sequence"},
                                    "attentions": {2: "sequence", 3: "sequence"}},
                      opset_version=opset, do_constant_folding=True)
    manifest["graphs"]["forward"] = {
        "file": path.name, "bytes": path.stat().st_size, "seconds": round(time.perf_counter() - start, 1),
        "inputs": {"input_ids": ["int64", [1, "sequence"]]},
        "outputs": {"logits": ["float32", [1, "sequence", V]],
                    "attentions": ["float32", [L, H, "sequence", "sequence"]]}}

    # the example past: a real cache of a few tokens, the step one token, as decoding runs
    start = time.perf_counter()
    _, past, _ = model(ids[:, :3])
    flat_past = tuple(t for kv in past for t in kv)
    path = out / "gpt2_decode.onnx"
    past_names, present_names = kv_names("past_key_values", L), kv_names("present", L)
    dynamic = {"input_ids": {1: "sequence"}, "logits": {1: "sequence"}}
    dynamic.update({name: {2: "past_sequence"} for name in past_names})
    dynamic.update({name: {2: "total_sequence"} for name in present_names})
    torch.onnx.export(DecodeStep(model), (ids[:, 3:4],) + flat_past, str(path),
                      input_names=["input_ids"] + past_names, output_names=["logits"] + present_names,
                      dynamic_axes=dynamic, opset_version=opset, do_constant_folding=True)
    kv = ["float32", [1, H, "past_sequence", D]]
    manifest["graphs"]["decode"] = {
        "file": path.name, "bytes": path.stat().st_size, "seconds": round(time.perf_counter() - start, 1),
        "inputs": {"input_ids": ["int64", [1, "sequence"]], **{name: kv for name in past_names}},
        "outputs": {"logits": ["float32", [1, "sequence", V]],
                    **{name: ["float32", [1, H, "total_sequence", D]] for name in present_names}},
        "note": "total_sequence = past_sequence + sequence; the prompt can run with an empty past "
                "(past_sequence 0); position ids start at past_sequence"}
    (out / "onnx.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


# --------------------------------------------------------------------------------------------
# Timing.
# --------------------------------------------------------------------------------------------


def openblas():
    """The OpenBLAS this process loaded (Debian's torch calls the system's libblas.so.3, which
    may be OpenBLAS), as a ctypes library, and its file; (None, None) if it is another BLAS."""
    with open("/proc/self/maps") as maps:
        files = sorted({line.split()[-1] for line in maps if "openblas" in line.rsplit("/", 1)[-1]})
    for path in files:
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            lib.openblas_get_config.restype = ctypes.c_char_p
            return lib, path
        except (OSError, AttributeError):
            continue
    return None, None


def set_threads(threads):
    """torch.set_num_threads governs ATen's OpenMP pool, not OpenBLAS's own threads (one per
    core by default), which torch's matrix products run on: both get the same number."""
    torch.set_num_threads(threads)
    lib, path = openblas()
    if lib is None:
        return None
    lib.openblas_set_num_threads(threads)
    return {"file": path, "core": lib.openblas_get_corename().decode(),
            "config": lib.openblas_get_config().decode(), "threads": lib.openblas_get_num_threads()}


def cpu_name():
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Model name")), None)


def median_ms(run, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def time_load(checkpoint, repeats=3):
    """MB/s (10^6 bytes) of reading model.safetensors into tensors and making the model of them;
    the median of `repeats` loads, each one's tensors freed before the next."""
    size = (checkpoint / "model.safetensors").stat().st_size
    ms = median_ms(lambda: load_model(checkpoint), repeats)
    return size / 1e6 / (ms / 1000)


def time_forward(model, ids, repeats=5):
    model(ids, output_attentions=True)  # warm-up: first-call allocations, OpenBLAS's buffers
    return median_ms(lambda: model(ids, output_attentions=True), repeats)


def time_generate(model, prompt, steps):
    """Greedy decoding on the cache: the prompt's pass untimed, then each step (the one-token
    forward and the argmax) timed; the median step in ms."""
    logits, past, _ = model(prompt)
    token, times = int(logits[0, -1].argmax()), []
    for _ in range(steps):
        start = time.perf_counter()
        logits, past, _ = model(torch.tensor([[token]]), past)
        token = int(logits[0, -1].argmax())
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def run_timings(checkpoint, tokens, steps, threads):
    blas = set_threads(threads)
    if blas is None:
        print("BLAS: not OpenBLAS (no libopenblas in this process)", file=sys.stderr)
    else:
        print(f"BLAS: OpenBLAS core {blas['core']}, {blas['threads']} thread(s), {blas['config']} "
              f"({blas['file']})", file=sys.stderr)
    with torch.inference_mode():
        load = time_load(checkpoint)
        model = load_model(checkpoint)
        cfg = model.config
        gen = torch.Generator().manual_seed(IDS_SEED)
        ids = torch.randint(cfg["vocab_size"], (1, tokens), generator=gen)
        forward = time_forward(model, ids)
        prompt = ids[:, :PROMPT_TOKENS]
        assert PROMPT_TOKENS + steps <= cfg["n_positions"]
        generate = time_generate(model, prompt, steps)
    return {"torch": torch.__version__, "threads": threads, "loadMBps": round(load, 1),
            "forwardMs": round(forward, 2), "generateMsPerToken": round(generate, 2), "cpu": cpu_name(),
            "blas": None if blas is None else blas["core"]}


def parity(checkpoint, ids):
    torch.set_num_threads(1)
    with torch.inference_mode():
        model = load_model(checkpoint)
        logits, _, attentions = model(torch.tensor([ids]), output_attentions=True)
    return {"ids": ids, "logits": logits[0, -1, :5].tolist(), "attention": attentions[0, 0, -1, :5].tolist()}


# --------------------------------------------------------------------------------------------
# Command line.
# --------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("write", help="a random GPT-2 checkpoint in Hugging Face's layout")
    w.add_argument("--out", type=pathlib.Path, required=True)
    for name, default in [("layers", 12), ("hidden", 768), ("heads", 12), ("vocab", 50257), ("positions", 1024),
                          ("seed", 0)]:
        w.add_argument(f"--{name}", type=int, default=default)
    e = sub.add_parser("export", help="the forward pass and the decoding step as ONNX graphs")
    e.add_argument("--checkpoint", type=pathlib.Path, required=True)
    e.add_argument("--out", type=pathlib.Path, required=True)
    e.add_argument("--tokens", type=int, default=128, help="the example's length (the axis stays dynamic)")
    e.add_argument("--opset", type=int, default=14)
    t = sub.add_parser("time", help="PyTorch's load, forward and generation times, one JSON line")
    t.add_argument("--checkpoint", type=pathlib.Path, required=True)
    t.add_argument("--tokens", type=int, default=128)
    t.add_argument("--generate", type=int, default=32)
    t.add_argument("--threads", type=int, default=1)
    c = sub.add_parser("check", help="logits[-1][:5] and attentions[0][0][-1][:5] for some ids, as JSON")
    c.add_argument("--checkpoint", type=pathlib.Path, required=True)
    c.add_argument("--ids", required=True, help="comma-separated token ids")
    args = parser.parse_args()

    if args.command == "write":
        torch.set_num_threads(1)
        path, parameters = write_checkpoint(args.out, args.layers, args.hidden, args.heads, args.vocab,
                                            args.positions, args.seed)
        print(json.dumps({"file": str(path), "parameters": parameters, "bytes": path.stat().st_size}))
    elif args.command == "export":
        set_threads(1)  # a shared machine: tracing and constant folding need no more
        with torch.no_grad():
            manifest = export_onnx(load_model(args.checkpoint), args.out, args.tokens, args.opset)
        print(json.dumps({name: {k: g[k] for k in ("file", "bytes", "seconds")}
                          for name, g in manifest["graphs"].items()}))
    elif args.command == "time":
        print(json.dumps(run_timings(args.checkpoint, args.tokens, args.generate, args.threads)))
    else:
        set_threads(1)
        print(json.dumps(parity(args.checkpoint, [int(i) for i in args.ids.split(",")])))


if __name__ == "__main__":
    main()

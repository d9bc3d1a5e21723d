#!/usr/bin/python3
"""Trains the small GPT-2 that the page ships (web/models/demo-gpt2/), from scratch, on one CPU core.

    apt-get install python3-torch python3-numpy python3-regex sword-text-web
    /usr/bin/python3 scripts/train_demo_checkpoint.py          # no arguments: the shipped model

It writes, into web/models/demo-gpt2/, what Hugging Face's save_pretrained and tokenizer.save write for a
GPT2LMHeadModel and its fast tokenizer: config.json, model.safetensors, tokenizer.json and
tokenizer_config.json; and, for the page and its tests, heldout.txt (the start of the held-out text) and
heads.json (each head's mean attention on the previous and on the first token of held-out windows).
README.md there is the model card (written by hand, from this script's output). Nothing is downloaded
and nothing here imports transformers, safetensors or tokenizers: the files are written to those
libraries' formats by hand, as tests/fixtures/make_pretrained_fixtures.py writes its checkpoints.

The corpus
    Debian package sword-text-web (426.0-1 in bookworm): the World English Bible with Deuterocanon as a
    SWORD zText module, /usr/share/sword/modules/texts/ztext/engWEB2015eb/{ot,nt}.{bzs,bzv,bzz}
    (OSIS markup in zlib-compressed blocks). /usr/share/doc/sword-text-web/copyright says:
        License: public-domain
         The World English Bible is in the Public Domain. That means that it is not copyrighted.
         .
         However, "World English Bible" is a Trademark of eBible.org. [...] All we ask is that if you
         CHANGE the actual text of the World English Bible in any way, you not call the result the World
         English Bible any more.
    This script keeps the text of the preface, the 80 books and the glossary and drops the markup
    (Strong's numbers, cross-references) and the footnotes, so what the model reads is text FROM the
    World English Bible, not the World English Bible itself. About 4.9 MB of modern English prose and
    poetry, with curly quotes and dashes.

Steps (each timed):
  1. the corpus: every verse entry of the module in order, footnotes removed, paragraphs, poetry lines,
     chapters and titles as newlines, other markup removed; one document a book (the preface and the
     glossary are documents too);
  2. the split: the last HELDOUT_FRACTION of the characters (cut at a line start) is held out; the
     first HELDOUT_FILE_BYTES of it (whole lines) are heldout.txt;
  3. a byte-level BPE learned from the training text alone, GPT-2's way: GPT-2's pre-tokenisation
     regex, its bytes_to_unicode table, merges learned by counting adjacent pairs over the words
     (the most frequent pair first; ties to the smallest pair, as make_pretrained_fixtures.py), until
     256 bytes + merges + <|endoftext|> make VOCAB tokens;
  4. the model: GPT2LMHeadModel's eager forward in plain PyTorch (pre-LN blocks, gelu_new, learned
     positions, fused c_attn = q|k|v in Conv1D layout [in, out], scores / sqrt(head_dim), causal mask
     with finfo.min, lm_head tied to wte), initialised as GPT2PreTrainedModel._init_weights does;
     trained with AdamW on random 128-token windows of the training stream (documents separated by
     <|endoftext|>, as GPT-2's training data), each window <|endoftext|> and 127 tokens of the stream
     (the tokenizer's post-processor begins every text with it too, as Llama's tokenizers begin with
     <|begin_of_text|>: the model always reads the same first token), float32, no dropout, one thread;
  5. the files, weights stored in F16 (the page's other shipped models are float16 too: half the
     download, and the rounding costs < 0.01 nats of held-out loss, printed below); heads.json and the
     held-out loss are computed from the F16 weights read back from the file, as an engine reads them.

Re-running gives the same files on the same kind of machine (torch.manual_seed, numpy RandomState,
one thread); a CPU whose BLAS takes another kernel path may differ in the last bits of the training.
Optional arguments exist only to debug quickly (e.g. --steps 20 --vocab 512 --out /tmp/x).
"""
import argparse
import heapq
import json
import math
import pathlib
import re
import struct
import sys
import time
import zlib

try:
    import numpy as np
    import regex
    import torch
    import torch.nn.functional as F
except ImportError as error:
    sys.exit(f"{error}: run  apt-get install python3-torch python3-numpy python3-regex  and use /usr/bin/python3")

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "fixtures"))
from hf_files import bytes_to_unicode, json_text, merge_pair, read_safetensors, safetensors_bytes  # noqa: E402
PACKAGE = "sword-text-web"
MODULE = pathlib.Path("/usr/share/sword/modules/texts/ztext/engWEB2015eb")
COPYRIGHT = pathlib.Path("/usr/share/doc/sword-text-web/copyright")

SEED = 0
HELDOUT_FRACTION = 0.03
HELDOUT_FILE_BYTES = 20_000
VOCAB = 4096                  # 256 bytes + 3839 merges + <|endoftext|>
EOT = "<|endoftext|>"
N_LAYER, N_HEAD, N_EMBD, N_POSITIONS = 4, 4, 128, 128
LN_EPS = 1e-5
STEPS, BATCH, LR, MIN_LR, WARMUP, WEIGHT_DECAY, CLIP = 4000, 16, 3e-3, 3e-4, 100, 0.1, 1.0
EVAL_EVERY = 400
PROMPTS = ["In the beginning", "Jesus said to them,", "The Lord is my shepherd", "Blessed are",
           "The king of Egypt", "The cat sat on the"]
GENERATE = 24
TRANSFORMERS_VERSION = "4.48.0"

CLOCK = time.time()


def say(*parts):
    print(f"[{time.time() - CLOCK:7.1f} s]", *parts, flush=True)


# --------------------------------------------------------------------------------------------
# 1. The corpus
# --------------------------------------------------------------------------------------------

def module_entries():
    """The module's entries in versification order: .bzs lists the compressed blocks (offset, size,
    uncompressed size: u32 LE each), .bzv each entry (block, offset in it: u32, size: u16), .bzz the
    zlib blocks."""
    for testament in ("ot", "nt"):
        bzs, bzv, bzz = ((MODULE / f"{testament}.{ext}").read_bytes() for ext in ("bzs", "bzv", "bzz"))
        blocks = []
        for i in range(len(bzs) // 12):
            offset, size, unpacked = struct.unpack_from("<III", bzs, 12 * i)
            block = zlib.decompress(bzz[offset:offset + size])
            assert len(block) == unpacked, (testament, i)
            blocks.append(block)
        for i in range(len(bzv) // 10):
            block, offset, size = struct.unpack_from("<IIH", bzv, 10 * i)
            if size:
                yield blocks[block][offset:offset + size].decode("utf-8")


def read_corpus():
    if not (MODULE / "ot.bzz").exists() or not COPYRIGHT.exists():
        sys.exit(f"{MODULE} is missing: the corpus is Debian's {PACKAGE} package.\n"
                 f"    apt-get update && apt-get install -y {PACKAGE}")
    raw = " ".join(module_entries())
    # footnotes and cross-references go; where one stood between two words, a space stays
    text = re.sub(r"<note\b[^>]*>.*?</note>", "\x01", raw, flags=re.S)
    text = re.sub(r"\x01+(?=<w\b|[A-Za-z])", " ", text).replace("\x01", "")
    # documents: the preface, each book, the glossary
    text = re.sub(r'<div\b(?=[^>]*type="(?:book|glossary)")(?=[^>]*\bsID=)[^>]*/>', "\x00", text)
    # paragraphs, line breaks, poetry lines (their end), chapters, titles and list items: newlines
    text = re.sub(r'<(?:div|lb)\b[^>]*type="x-p"[^>]*/>|<l\b[^>]*\beID="[^"]*"[^>]*/>|<chapter\b[^>]*/>'
                  r"|</?title\b[^>]*>|</?item\b[^>]*>", "\n", text)
    text = re.sub(r"<[^>]*>", "", text)
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r" *\n *", "\n", text)
    text = re.sub(r"\n{2,}", "\n", text)
    documents = [d.strip() for d in text.split("\x00")]
    documents = [d for d in documents if d]
    assert "<" not in "".join(documents) and EOT not in "".join(documents)
    return documents


def split_corpus(documents):
    """The last HELDOUT_FRACTION of the characters, from the first line start at or after the cut."""
    total = sum(len(d) for d in documents)
    cut, at = total * (1 - HELDOUT_FRACTION), 0
    for i, d in enumerate(documents):
        if at + len(d) > cut:
            j = d.find("\n", int(cut - at))
            j = len(d) if j < 0 else j + 1
            train = documents[:i] + ([d[:j].rstrip("\n")] if j > 0 else [])
            heldout = ([d[j:]] if j < len(d) else []) + documents[i + 1:]
            return train, heldout
        at += len(d)
    raise AssertionError("empty corpus")


def heldout_file_text(heldout):
    """Whole lines from the start of the held-out text, at most HELDOUT_FILE_BYTES bytes of UTF-8."""
    out, size = [], 0
    for line in heldout[0].split("\n"):
        n = len(line.encode()) + 1
        if size + n > HELDOUT_FILE_BYTES:
            break
        out.append(line)
        size += n
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------------------------
# 3. Byte-level BPE, GPT-2's way
# --------------------------------------------------------------------------------------------
# GPT-2's pattern (openai/gpt-2 src/encoder.py; the regex that tokenizers' ByteLevel pre-tokenizer uses)
GPT2_PATTERN = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")


BYTE_ORDER = bytes_to_unicode()
BYTE_ENCODER = dict(BYTE_ORDER)
BYTE_DECODER = {c: b for b, c in BYTE_ORDER}


def to_unicode(piece):
    return "".join(BYTE_ENCODER[b] for b in piece.encode("utf-8"))


def learn_bpe(texts, vocab_size):
    """Merges until the vocabulary (256 bytes, the merges' new tokens, <|endoftext|>) has vocab_size
    tokens. Pair counts are kept up to date word by word; a heap of (-count, pair) finds the most
    frequent pair, the smallest of equal ones (stale entries are skipped)."""
    counts = {}
    for text in texts:
        for piece in GPT2_PATTERN.findall(text):
            counts[piece] = counts.get(piece, 0) + 1
    words = [list(to_unicode(p)) for p in counts]
    freq = list(counts.values())
    pairs, where = {}, {}
    for w, (word, f) in enumerate(zip(words, freq)):
        for pair in zip(word, word[1:]):
            pairs[pair] = pairs.get(pair, 0) + f
            where.setdefault(pair, set()).add(w)
    heap = [(-c, p) for p, c in pairs.items()]
    heapq.heapify(heap)
    vocab = {c: i for i, (_, c) in enumerate(BYTE_ORDER)}
    merges, done = [], set()
    while len(vocab) < vocab_size - 1 and heap:
        negative, pair = heapq.heappop(heap)
        if pairs.get(pair, 0) != -negative or negative == 0 or pair in done:
            continue  # stale, or a pair merged before that later merges made again
        merges.append(pair)
        done.add(pair)
        token = pair[0] + pair[1]
        if token not in vocab:
            vocab[token] = len(vocab)
        changed = set()
        for w in sorted(where.pop(pair)):
            word, f = words[w], freq[w]
            if len(word) < 2:
                continue
            new = merge_pair(word, pair)
            if len(new) == len(word):
                continue
            for p in zip(word, word[1:]):
                pairs[p] -= f
                changed.add(p)
            for p in zip(new, new[1:]):
                pairs[p] = pairs.get(p, 0) + f
                where.setdefault(p, set()).add(w)
                changed.add(p)
            words[w] = new
        for p in changed:
            if pairs[p] > 0:
                heapq.heappush(heap, (-pairs[p], p))
            else:
                del pairs[p]
    vocab[EOT] = len(vocab)
    return merges, vocab, len(counts)


class Tokenizer:
    def __init__(self, merges, vocab):
        self.merges, self.vocab = merges, vocab
        self.ranks = {m: r for r, m in enumerate(merges)}
        self.inverse = {i: t for t, i in vocab.items()}
        self.eot = vocab[EOT]
        self.cache = {}

    def bpe(self, piece):
        """The lowest-ranked adjacent pair first, all its occurrences left to right, until none."""
        tokens = self.cache.get(piece)
        if tokens is None:
            word = list(to_unicode(piece))
            while len(word) > 1:
                rank, pair = min((self.ranks.get(p, math.inf), p) for p in zip(word, word[1:]))
                if rank == math.inf:
                    break
                word = merge_pair(word, pair)
            tokens = self.cache[piece] = [self.vocab[t] for t in word]
        return tokens

    def encode(self, text):
        """As tokenizers does with this tokenizer.json: <|endoftext|> split out first (an added token),
        then the ByteLevel pre-tokenizer (GPT-2's regex, bytes as characters) and the BPE model."""
        ids = []
        for k, part in enumerate(text.split(EOT)):
            if k:
                ids.append(self.eot)
            for piece in GPT2_PATTERN.findall(part):
                ids += self.bpe(piece)
        return ids

    def decode(self, ids):
        data = bytearray()
        for i in ids:
            token = self.inverse[i]
            data += token.encode() if i == self.eot else bytes(BYTE_DECODER[c] for c in token)
        return data.decode("utf-8", errors="replace")

    def tokenizer_json(self):
        """tokenizers' Tokenizer.save for GPT-2's tokenizer (as the hub's gpt2 tokenizer.json: the
        vocabulary holds <|endoftext|> too, the merges are "a b" strings)."""
        added = [{"id": self.eot, "content": EOT, "single_word": False, "lstrip": False, "rstrip": False,
                  "normalized": True, "special": True}]
        return {"version": "1.0", "truncation": None, "padding": None, "added_tokens": added, "normalizer": None,
                "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                                  "use_regex": True},
                "post_processor": {"type": "Sequence", "processors": [
                    {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
                    {"type": "TemplateProcessing",
                     "single": [{"SpecialToken": {"id": EOT, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
                     "pair": [{"SpecialToken": {"id": EOT, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                              {"SpecialToken": {"id": EOT, "type_id": 1}}, {"Sequence": {"id": "B", "type_id": 1}}],
                     "special_tokens": {EOT: {"id": EOT, "ids": [self.eot], "tokens": [EOT]}}}]},
                "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
                "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                          "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False,
                          "vocab": self.vocab, "merges": [f"{a} {b}" for a, b in self.merges]}}

    def tokenizer_config(self):
        decoder = {str(self.eot): {"content": EOT, "lstrip": False, "normalized": True, "rstrip": False,
                                   "single_word": False, "special": True}}
        return {"add_bos_token": True, "add_prefix_space": False, "added_tokens_decoder": decoder,
                "bos_token": EOT, "clean_up_tokenization_spaces": False, "eos_token": EOT, "errors": "replace",
                "model_max_length": N_POSITIONS, "pad_token": None, "tokenizer_class": "GPT2Tokenizer",
                "unk_token": EOT}


def token_stream(tokenizer, documents):
    """Each document's tokens followed by <|endoftext|>."""
    ids = []
    for d in documents:
        ids += tokenizer.encode(d)
        ids.append(tokenizer.eot)
    return torch.tensor(ids, dtype=torch.long)


# --------------------------------------------------------------------------------------------
# 4. GPT-2 (transformers' modeling_gpt2.py, eager path; weights named as GPT2LMHeadModel's state_dict
#    without the "transformer." prefix; Conv1D weights [in, out])
# --------------------------------------------------------------------------------------------

def parameter_spec(cfg):
    E, V, P, L = cfg["n_embd"], cfg["vocab_size"], cfg["n_positions"], cfg["n_layer"]
    I = 4 * E  # n_inner null
    spec = [("wte.weight", "normal", (V, E)), ("wpe.weight", "normal", (P, E))]
    for l in range(L):
        p = f"h.{l}."
        spec += [(p + "ln_1.weight", "ones", (E,)), (p + "ln_1.bias", "zeros", (E,)),
                 (p + "attn.c_attn.weight", "normal", (E, 3 * E)), (p + "attn.c_attn.bias", "zeros", (3 * E,)),
                 (p + "attn.c_proj.weight", "residual", (E, E)), (p + "attn.c_proj.bias", "zeros", (E,)),
                 (p + "ln_2.weight", "ones", (E,)), (p + "ln_2.bias", "zeros", (E,)),
                 (p + "mlp.c_fc.weight", "normal", (E, I)), (p + "mlp.c_fc.bias", "zeros", (I,)),
                 (p + "mlp.c_proj.weight", "residual", (I, E)), (p + "mlp.c_proj.bias", "zeros", (E,))]
    return spec + [("ln_f.weight", "ones", (E,)), ("ln_f.bias", "zeros", (E,))]


def init_parameters(cfg):
    """GPT2PreTrainedModel._init_weights: N(0, 0.02) for Conv1D weights and embeddings, c_proj weights
    N(0, 0.02 / sqrt(2 n_layer)), LayerNorm 1 and 0, biases 0."""
    std = cfg["initializer_range"]
    W = {}
    for name, kind, shape in parameter_spec(cfg):
        if kind == "normal":
            value = torch.randn(shape) * std
        elif kind == "residual":
            value = torch.randn(shape) * (std / math.sqrt(2 * cfg["n_layer"]))
        else:
            value = torch.ones(shape) if kind == "ones" else torch.zeros(shape)
        W[name] = value.requires_grad_()
    return W


def gelu_new(x):
    """activations.NewGELUActivation, 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), computed by
    PyTorch's fused tanh-approximated gelu: the same function (make_pretrained_fixtures.py checks the two
    agree to 1e-14 in float64), in a third less training time than the formula's five operations."""
    return F.gelu(x, approximate="tanh")


def forward(W, cfg, ids, attentions=False):
    """ids [B, T] -> logits [B, T, V] (and each layer's softmax weights [B, H, T, T])."""
    B, T = ids.shape
    E, H = cfg["n_embd"], cfg["n_head"]
    D = E // H
    eps = cfg["layer_norm_epsilon"]
    h = W["wte.weight"][ids] + W["wpe.weight"][torch.arange(T)]
    causal = torch.tril(torch.ones((T, T), dtype=torch.bool))
    weights_of = []
    for l in range(cfg["n_layer"]):
        p = f"h.{l}."
        x = F.layer_norm(h, (E,), W[p + "ln_1.weight"], W[p + "ln_1.bias"], eps)
        q, k, v = (x @ W[p + "attn.c_attn.weight"] + W[p + "attn.c_attn.bias"]).split(E, dim=-1)
        q, k, v = (t.view(B, T, H, D).transpose(1, 2) for t in (q, k, v))
        w = (q @ k.transpose(-1, -2)) / torch.full([], v.size(-1) ** 0.5, dtype=q.dtype)
        w = torch.where(causal, w, torch.full([], torch.finfo(w.dtype).min, dtype=w.dtype))
        w = torch.softmax(w, dim=-1)
        if attentions:
            weights_of.append(w)
        o = (w @ v).transpose(1, 2).reshape(B, T, E)
        h = h + (o @ W[p + "attn.c_proj.weight"] + W[p + "attn.c_proj.bias"])
        x = F.layer_norm(h, (E,), W[p + "ln_2.weight"], W[p + "ln_2.bias"], eps)
        h = h + gelu_new(x @ W[p + "mlp.c_fc.weight"] + W[p + "mlp.c_fc.bias"]) @ W[p + "mlp.c_proj.weight"] \
            + W[p + "mlp.c_proj.bias"]
    h = F.layer_norm(h, (E,), W["ln_f.weight"], W["ln_f.bias"], eps)
    logits = h @ W["wte.weight"].T  # lm_head tied to wte
    return (logits, weights_of) if attentions else logits


def windows(stream, size, eot):
    """Consecutive, non-overlapping (inputs, targets) windows of `size` tokens, each input <|endoftext|> and
    the next size - 1 tokens of the stream (as the tokenizer begins every text), each target those size
    tokens; the remainder is dropped."""
    n = len(stream) // size
    y = stream[:n * size].view(n, size)
    x = torch.cat([torch.full((n, 1), eot, dtype=y.dtype), y[:, :-1]], dim=1)
    return x, y


@torch.no_grad()
def mean_loss(W, cfg, stream, batch=32):
    x, y = windows(stream, cfg["n_positions"], cfg["eot"])
    total = 0.0
    for i in range(0, len(x), batch):
        logits = forward(W, cfg, x[i:i + batch])
        total += float(F.cross_entropy(logits.reshape(-1, logits.shape[-1]), y[i:i + batch].reshape(-1),
                                       reduction="sum"))
    return total / y.numel(), y.numel()


def train(W, cfg, stream, heldout_stream, heldout_file_ids, steps):
    rng = np.random.RandomState(SEED)
    decay = [v for k, v in W.items() if v.dim() == 2 and k != "wpe.weight"]
    rest = [v for k, v in W.items() if not (v.dim() == 2 and k != "wpe.weight")]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": WEIGHT_DECAY},
                                   {"params": rest, "weight_decay": 0.0}], lr=LR, betas=(0.9, 0.95), eps=1e-8)
    T = cfg["n_positions"]
    offsets = torch.arange(T)
    bos = torch.full((BATCH, 1), cfg["eot"], dtype=stream.dtype)
    start, history = time.time(), []
    for step in range(1, steps + 1):
        lr = LR * step / WARMUP if step <= WARMUP else \
            MIN_LR + 0.5 * (LR - MIN_LR) * (1 + math.cos(math.pi * (step - WARMUP) / max(1, steps - WARMUP)))
        for group in optimizer.param_groups:
            group["lr"] = lr
        starts = torch.from_numpy(rng.randint(0, len(stream) - T, size=BATCH)).long()
        targets = stream[starts[:, None] + offsets[None, :]]
        inputs = torch.cat([bos, targets[:, :-1]], dim=1)
        logits = forward(W, cfg, inputs)
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), targets.reshape(-1))
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(list(W.values()), CLIP)
        optimizer.step()
        if step % EVAL_EVERY == 0 or step == steps or step == 1:
            held, _ = mean_loss(W, cfg, heldout_stream)
            previous, first, _ = head_statistics(W, cfg, heldout_file_ids)
            top_previous, top_first = max(max(r) for r in previous), max(max(r) for r in first)
            elapsed = time.time() - start
            history.append({"step": step, "train_batch_loss": round(float(loss), 4), "heldout_loss": round(held, 4),
                            "top_previous": round(top_previous, 4), "top_first": round(top_first, 4),
                            "seconds": round(elapsed, 1)})
            say(f"  step {step:5d}/{steps}  lr {lr:.2e}  batch loss {float(loss):.3f}  held-out loss {held:.3f}"
                f"  top heads: previous {top_previous:.3f}, first {top_first:.3f}  ({elapsed:.0f} s, {elapsed / step:.2f} s/step)")
    return history, time.time() - start


# --------------------------------------------------------------------------------------------
# 5. Files: safetensors as safetensors.torch.save_file(metadata={"format": "pt"}) writes it (see
#    make_pretrained_fixtures.py: header padded with spaces to 8 bytes, tensors sorted by dtype then name)
# --------------------------------------------------------------------------------------------
def config_json(cfg):
    """GPT2Config as save_pretrained writes it (keys sorted). Dropouts 0: it was trained without."""
    return {"activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.0,
            "bos_token_id": cfg["eot"], "embd_pdrop": 0.0, "eos_token_id": cfg["eot"],
            "initializer_range": cfg["initializer_range"], "layer_norm_epsilon": cfg["layer_norm_epsilon"],
            "model_type": "gpt2", "n_embd": cfg["n_embd"], "n_head": cfg["n_head"], "n_inner": None,
            "n_layer": cfg["n_layer"], "n_positions": cfg["n_positions"], "reorder_and_upcast_attn": False,
            "resid_pdrop": 0.0, "scale_attn_by_inverse_layer_idx": False, "scale_attn_weights": True,
            "summary_activation": None, "summary_first_dropout": 0.1, "summary_proj_to_labels": True,
            "summary_type": "cls_index", "summary_use_proj": True, "tie_word_embeddings": True,
            "torch_dtype": "float16", "transformers_version": TRANSFORMERS_VERSION, "use_cache": True,
            "vocab_size": cfg["vocab_size"]}


@torch.no_grad()
def head_statistics(W, cfg, stream):
    """For each layer and head, over the windows of `stream`: the mean weight a query puts on the token
    before it (queries 1 .. T-1) and on the window's first token (queries 1 .. T-1; query 0 has only it)."""
    T = cfg["n_positions"]
    x, _ = windows(stream, T, cfg["eot"])
    n = len(x)
    _, attentions = forward(W, cfg, x, attentions=True)
    i = torch.arange(1, T)
    previous = [a[:, :, i, i - 1].mean(dim=(0, 2)).tolist() for a in attentions]
    first = [a[:, :, 1:, 0].mean(dim=(0, 2)).tolist() for a in attentions]
    return previous, first, n


@torch.no_grad()
def greedy(W, cfg, tokenizer, prompt, steps):
    ids = [tokenizer.eot] + tokenizer.encode(prompt)
    start = len(ids)
    for _ in range(steps):
        logits = forward(W, cfg, torch.tensor([ids[-cfg["n_positions"]:]]))
        ids.append(int(logits[0, -1].argmax()))
    return tokenizer.decode(ids[start:])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(ROOT / "web" / "models" / "demo-gpt2"), help="output folder")
    parser.add_argument("--steps", type=int, default=STEPS, help="training steps (debugging only)")
    parser.add_argument("--vocab", type=int, default=VOCAB, help="vocabulary size (debugging only)")
    args = parser.parse_args()
    out = pathlib.Path(args.out)
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    timings = {}

    def lap(name, since):
        timings[name] = round(time.time() - since, 1)
        return time.time()

    t = time.time()
    say(f"1. corpus: package {PACKAGE}, {MODULE}/{{ot,nt}}.bz[svz]")
    documents = read_corpus()
    total = sum(len(d.encode()) for d in documents)
    say(f"   {len(documents)} documents (preface, books, glossary), {total:,} bytes of UTF-8 text")
    t = lap("corpus", t)

    train_docs, heldout_docs = split_corpus(documents)
    heldout_text = heldout_file_text(heldout_docs)
    say(f"2. split: training {sum(len(d.encode()) for d in train_docs):,} bytes ({len(train_docs)} documents), "
        f"held out the last {HELDOUT_FRACTION:.0%}: {sum(len(d.encode()) for d in heldout_docs):,} bytes "
        f"({len(heldout_docs)} documents, from {heldout_docs[0][:40]!r}); heldout.txt: "
        f"{len(heldout_text.encode()):,} bytes")
    t = lap("split", t)

    say(f"3. byte-level BPE to {args.vocab} tokens, learned from the training text")
    merges, vocab, n_words = learn_bpe(train_docs, args.vocab)
    tokenizer = Tokenizer(merges, vocab)
    say(f"   {n_words:,} distinct pre-tokens, {len(merges)} merges, vocabulary {len(vocab)}; "
        f"last merges {[a + b for a, b in merges[-5:]]}")
    stream = token_stream(tokenizer, train_docs)
    heldout_stream = token_stream(tokenizer, heldout_docs)
    heldout_file_ids = torch.tensor(tokenizer.encode(heldout_text))
    assert tokenizer.decode(heldout_file_ids.tolist()) == heldout_text
    heldout_bytes = sum(len(d.encode()) + 1 for d in heldout_docs)  # each document and its end
    say(f"   training stream {len(stream):,} tokens ({total / (len(stream) + len(heldout_stream)):.2f} bytes a token),"
        f" held-out stream {len(heldout_stream):,}, heldout.txt {len(heldout_file_ids):,} tokens")
    t = lap("tokenizer", t)

    cfg = {"vocab_size": len(vocab), "n_positions": N_POSITIONS, "n_embd": N_EMBD, "n_layer": N_LAYER,
           "n_head": N_HEAD, "layer_norm_epsilon": LN_EPS, "initializer_range": 0.02, "eot": tokenizer.eot}
    W = init_parameters(cfg)
    n_params = sum(v.numel() for v in W.values())
    say(f"4. GPT-2: {N_LAYER} layers, {N_HEAD} heads, n_embd {N_EMBD}, n_positions {N_POSITIONS}, vocabulary "
        f"{cfg['vocab_size']}: {n_params:,} parameters (lm_head tied); {args.steps} steps of {BATCH} x {N_POSITIONS}"
        f" tokens, AdamW lr {LR} (warm-up {WARMUP}, cosine to {MIN_LR}), one thread")
    history, seconds = train(W, cfg, stream, heldout_stream, heldout_file_ids, args.steps)
    say(f"   trained in {seconds:.0f} s ({seconds / args.steps:.2f} s a step, "
        f"{args.steps * BATCH * N_POSITIONS / seconds:,.0f} tokens/s; {args.steps * BATCH * N_POSITIONS / len(stream):.2f} epochs)")
    t = lap("training", t)
    f32_loss, _ = mean_loss(W, cfg, heldout_stream)

    say(f"5. files in {out}")
    out.mkdir(parents=True, exist_ok=True)
    tensors = {"transformer." + k: ("F16", v.detach().numpy().astype(np.float16)) for k, v in W.items()}
    (out / "model.safetensors").write_bytes(safetensors_bytes(tensors))
    (out / "config.json").write_text(json_text(config_json(cfg), sort_keys=True), encoding="utf-8")
    (out / "tokenizer.json").write_text(json.dumps(tokenizer.tokenizer_json(), indent=2, ensure_ascii=False),
                                        encoding="utf-8")
    (out / "tokenizer_config.json").write_text(json_text(tokenizer.tokenizer_config(), sort_keys=True), encoding="utf-8")
    (out / "heldout.txt").write_text(heldout_text, encoding="utf-8")

    # everything from here on uses the weights as stored: F16, widened to float32
    stored = read_safetensors(out / "model.safetensors")
    assert set(stored) == set(tensors)
    S = {k[len("transformer."):]: torch.from_numpy(array.astype(np.float32)) for k, (_, array) in stored.items()}
    loss, n_targets = mean_loss(S, cfg, heldout_stream)
    file_loss, file_targets = mean_loss(S, cfg, heldout_file_ids)
    say(f"   held-out loss {loss:.4f} nats/token (perplexity {math.exp(loss):.1f}; "
        f"{loss * n_targets / math.log(2) / heldout_bytes:.3f} bits/byte) over {n_targets:,} tokens; "
        f"before F16 rounding {f32_loss:.4f}; on heldout.txt {file_loss:.4f} over {file_targets:,} tokens")
    previous, first, n_windows = head_statistics(S, cfg, heldout_file_ids)
    flat = [(l, h) for l in range(N_LAYER) for h in range(N_HEAD)]
    best_prev = max(flat, key=lambda lh: previous[lh[0]][lh[1]])
    best_first = max(flat, key=lambda lh: first[lh[0]][lh[1]])
    heads = {
        "text": "heldout.txt",
        "method": (f"heldout.txt tokenized with tokenizer.json (no special tokens added), cut into "
                   f"{n_windows} consecutive windows of n_positions - 1 = {N_POSITIONS - 1} tokens (the rest "
                   "dropped), each after <|endoftext|> as the tokenizer begins a text, each run alone from "
                   "position 0 through model.safetensors (F16 weights, computed in float32); "
                   "previous[l][h]: the mean over windows and queries i = 1 .. T-1 of head h's weight on key i-1 "
                   "in layer l; first[l][h]: the same mean of its weight on key 0"),
        "windows": n_windows, "window": N_POSITIONS, "layers": N_LAYER, "heads": N_HEAD,
        "previous": [[round(v, 4) for v in row] for row in previous],
        "first": [[round(v, 4) for v in row] for row in first],
        "top_previous": {"layer": best_prev[0], "head": best_prev[1],
                         "value": round(previous[best_prev[0]][best_prev[1]], 4)},
        "top_first": {"layer": best_first[0], "head": best_first[1],
                      "value": round(first[best_first[0]][best_first[1]], 4)},
        "heldout_loss": round(loss, 4), "heldout_tokens": n_targets,
    }
    (out / "heads.json").write_text(json.dumps(heads, indent=2) + "\n", encoding="utf-8")
    for name, table in (("previous token", previous), ("first token", first)):
        say(f"   mean weight on the {name} (rows: layers, columns: heads):")
        for l, row in enumerate(table):
            say(f"     layer {l}: " + "  ".join(f"{v:.3f}" for v in row))
    say(f"   top previous-token head: layer {best_prev[0]} head {best_prev[1]} ({heads['top_previous']['value']}); "
        f"top first-token head: layer {best_first[0]} head {best_first[1]} ({heads['top_first']['value']})")
    for prompt in PROMPTS:
        say(f"   greedy: {prompt!r} -> {greedy(S, cfg, tokenizer, prompt, GENERATE)!r}")
    t = lap("files and checks", t)
    for path in sorted(out.iterdir()):
        say(f"   {path.stat().st_size:9,d}  {path.name}")
    say(f"   total {sum(p.stat().st_size for p in out.iterdir()):,} bytes; timings (s): {timings}")
    ok = heads["top_previous"]["value"] > 0.5 and heads["top_first"]["value"] > 0.5
    say("   both patterns present (> 0.5)" if ok else "   WARNING: a pattern is missing (<= 0.5)")
    print(json.dumps({"history": history, "timings": timings}), flush=True)


if __name__ == "__main__":
    main()

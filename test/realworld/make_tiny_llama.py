#!/usr/bin/env python3
"""Writes a small LLaMA-architecture model with random weights as GGUF, for
llama.cpp's llama-bench (speed does not depend on what the weights say):

    make_tiny_llama.py GGUF_PY_DIR OUT.gguf [--type f16|q8_0|q4_0] [--seed N]

GGUF_PY_DIR is llama.cpp's own gguf-py (its writer and quantizers; needs
numpy). The shape is a 1B-class model cut down: 12 layers, 1024 wide, 16
query heads of 64 sharing 4 key/value heads, a 2816-wide SwiGLU, 32000
tokens, 4096 positions. There is no tokenizer (tokenizer.ggml.model
"no_vocab"): llama-bench feeds random token ids.
"""
import argparse
import sys

parser = argparse.ArgumentParser()
parser.add_argument("gguf_py")
parser.add_argument("out")
parser.add_argument("--type", default="f16", choices=["f16", "q8_0", "q4_0"])
parser.add_argument("--seed", type=int, default=1)
args = parser.parse_args()
sys.path.insert(0, args.gguf_py)
import numpy as np  # noqa: E402
import gguf  # noqa: E402

N_LAYER, N_EMBD, N_HEAD, N_HEAD_KV, N_FF = 12, 1024, 16, 4, 2816
N_VOCAB, N_CTX, EPS = 32000, 4096, 1e-5
HEAD_DIM = N_EMBD // N_HEAD
QTYPE = {"f16": gguf.GGMLQuantizationType.F16,
         "q8_0": gguf.GGMLQuantizationType.Q8_0,
         "q4_0": gguf.GGMLQuantizationType.Q4_0}[args.type]
FTYPE = {"f16": gguf.LlamaFileType.MOSTLY_F16,
         "q8_0": gguf.LlamaFileType.MOSTLY_Q8_0,
         "q4_0": gguf.LlamaFileType.MOSTLY_Q4_0}[args.type]

rng = np.random.default_rng(args.seed)
writer = gguf.GGUFWriter(args.out, "llama")
writer.add_name("mycc tiny llama (random weights)")
writer.add_context_length(N_CTX)
writer.add_embedding_length(N_EMBD)
writer.add_block_count(N_LAYER)
writer.add_feed_forward_length(N_FF)
writer.add_head_count(N_HEAD)
writer.add_head_count_kv(N_HEAD_KV)
writer.add_rope_dimension_count(HEAD_DIM)
writer.add_rope_freq_base(10000.0)
writer.add_layer_norm_rms_eps(EPS)
writer.add_vocab_size(N_VOCAB)
writer.add_file_type(FTYPE)
writer.add_tokenizer_model("no_vocab")


def matrix(name, rows, cols):
    """A weight of `rows` outputs by `cols` inputs (ggml: ne = [cols, rows])."""
    w = (rng.standard_normal((rows, cols), dtype=np.float32) * 0.02)
    if QTYPE == gguf.GGMLQuantizationType.F16:
        writer.add_tensor(name, w.astype(np.float16))
    else:
        writer.add_tensor(name, gguf.quants.quantize(w, QTYPE), raw_dtype=QTYPE)


def norm(name):
    writer.add_tensor(name, np.ones(N_EMBD, dtype=np.float32))


# The embedding is read by row (get_rows) and stays in the model's type, as
# llama.cpp's own quantizer leaves it for these types.
matrix("token_embd.weight", N_VOCAB, N_EMBD)
for i in range(N_LAYER):
    b = f"blk.{i}."
    norm(b + "attn_norm.weight")
    matrix(b + "attn_q.weight", N_EMBD, N_EMBD)
    matrix(b + "attn_k.weight", N_HEAD_KV * HEAD_DIM, N_EMBD)
    matrix(b + "attn_v.weight", N_HEAD_KV * HEAD_DIM, N_EMBD)
    matrix(b + "attn_output.weight", N_EMBD, N_EMBD)
    norm(b + "ffn_norm.weight")
    matrix(b + "ffn_gate.weight", N_FF, N_EMBD)
    matrix(b + "ffn_up.weight", N_FF, N_EMBD)
    matrix(b + "ffn_down.weight", N_EMBD, N_FF)
norm("output_norm.weight")
matrix("output.weight", N_VOCAB, N_EMBD)

writer.write_header_to_file()
writer.write_kv_data_to_file()
writer.write_tensors_to_file()
writer.close()

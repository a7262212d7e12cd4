// Shorter live ranges in the NVPTX code generator. See LiveRanges.cpp.
#pragma once

namespace llvm {
class Function;
class LoopInfo;
} // namespace llvm

namespace mycc::offload {

// Three changes to a function's IR after CodeGenPrepare, all about how many
// values a GPU thread keeps live at once (its registers decide how many
// threads an SM runs):
//  - a WMMA load or store whose address is a constant offset from a base
//    computed in another block gets the offset added next to it, where the
//    access takes it as [base+offset] (as CodeGenPrepare does for loads and
//    stores), instead of each offset address staying live on its own;
//  - a cheap value computed from a bit-field extraction ((x >> s) & m and
//    the integer and address arithmetic on it) whose uses lie in other
//    blocks is recomputed there, from operands live there anyway, so that
//    the value itself need not stay live in between; the extraction is
//    recomputed as (x & (m << s)) >> s, which ptxas does not merge back
//    with the original;
//  - an instruction whose operands die at it and whose result is used only
//    in later blocks is kept where it is: LLVM's machine sinking, which sees
//    no register pressure on NVPTX, would move it next to its uses and keep
//    its operands live instead of its result.
// Returns whether the function changed.
bool shortenLiveRanges(llvm::Function &function, llvm::LoopInfo &loops);

// Adds shortenLiveRanges to the NVPTX code generation pipeline of every
// target machine created afterwards (at -O1 and above), right after
// CodeGenPrepare, the last IR pass that merges or sinks computations.
// Idempotent.
void registerShortenLiveRanges();

} // namespace mycc::offload

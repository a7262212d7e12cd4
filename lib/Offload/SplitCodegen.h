// -split-compile: the PTX of one optimised device module, emitted by several
// threads. The optimisation pipeline has already run on the whole module, so
// every function's IR is what a single-threaded compile would give it; only
// code generation is split. The functions are grouped so that none calls
// into another group (internal functions stay with their callers), the
// groups are spread over the parts by size, global variables go to a part
// of their own, and each part is emitted in its own LLVM context. The parts'
// PTX is then joined into one module: one header, every definition once,
// declarations of what another part defines turned into forward
// declarations or dropped.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace mycc::offload {

// Emits one part's PTX. On failure an empty `error` means "emit the module
// whole instead" (for errors that only the whole module can report well;
// a crash or an LLVM fatal error in a part counts as such a failure).
using EmitPart =
    std::function<bool(llvm::Module &part, std::string &ptx, std::string &error)>;

enum class SplitResult { Done, NotSplit, Failed };

// At most `parts` parts, emitted on `threads` threads: the PTX depends on
// the parts, never on the threads. NotSplit: the module has one group of
// functions, or debug information (whose file table is per module); the
// caller emits it whole.
SplitResult emitPtxInParts(llvm::Module &module, unsigned parts,
                           unsigned threads, const EmitPart &emit,
                           std::string &ptx, std::string &error);

// Joins the PTX of parts of one module (the first part's header is kept).
std::string joinPtxParts(const std::vector<std::string> &parts);

} // namespace mycc::offload

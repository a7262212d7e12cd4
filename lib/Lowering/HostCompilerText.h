// What Clang needs changed in a host compiler's preprocessed text before it
// can parse it, and the way back. g++'s preprocessor answers
// __has_builtin for g++, so libstdc++ and CCCL spell some things with
// builtins only g++ has: `T<_Tp, __integer_pack(N)...>` is the one they
// use (and <compare> names GCC's __float80, glibc GCC 13's _Float32 and
// its kin). Clang parses `__make_integer_seq<T, _Tp, N>` instead (the spelling
// those headers choose under Clang, with the same meaning); the lowered text
// gets g++'s spelling back, so the host compiler compiles what it wrote.
// Every change keeps the line's number (no newline added or removed).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace mycc::lowering {

class HostCompilerText {
public:
  // `text` in Clang's spelling; remembers each change.
  std::string forClang(const std::string &input);
  // `lowered` (written from forClang's result) in the host compiler's
  // spelling again.
  std::string forHostCompiler(std::string lowered) const;

private:
  std::vector<std::pair<std::string, std::string>> swaps; // clang, original
};

} // namespace mycc::lowering

#include "HostCompilerText.h"

#include <algorithm>
#include <cctype>

namespace mycc::lowering {
namespace {

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':';
}

// The word (identifier, possibly qualified) that ends at `end` (exclusive),
// skipping spaces before it; npos when there is none.
size_t wordStart(const std::string &text, size_t &end) {
  while (end > 0 && text[end - 1] == ' ') --end;
  size_t begin = end;
  while (begin > 0 && isWordChar(text[begin - 1])) --begin;
  return begin == end ? std::string::npos : begin;
}

constexpr const char kPack[] = "__integer_pack(";

// libstdc++'s _Build_index_tuple has no type argument; its Clang branch
// names an alias template first (bits/utility.h).
constexpr const char kIndexTupleGcc[] =
    "using __type = _Index_tuple<__integer_pack(_Num)...>;";
constexpr const char kIndexTupleClang[] =
    "template<typename _Tp, _Tp... _Indices> using _IdxTuple = "
    "_Index_tuple<_Indices...>; using __type = __make_integer_seq<_IdxTuple, "
    "size_t, _Num>;";

// Fixed spellings: g++'s, and Clang's with the same meaning, spelled so
// that the way back finds only what was changed. libstdc++'s <compare>
// (C++20) tests for GCC's __float80, which is long double on x86-64 and a
// type Clang does not know.
// libstdc++ 13 names GCC 13's __remove_reference, which Clang spells
// __remove_reference_t. glibc's _FORTIFY_SOURCE wrappers (printf, open...:
// Ubuntu's g++ defines _FORTIFY_SOURCE when optimising) pass their variadic
// arguments on with GCC's __builtin_va_arg_pack, which Clang lacks; for its
// parse of these inline bodies, which never reach device code, a 0 will do.
constexpr std::pair<const char *, const char *> kFixed[] = {
    {"__is_same(_Tp, __float80)", "__is_same(_Tp,long double)"},
    {"using type = __remove_reference(_Tp);",
     "using type = __remove_reference_t(_Tp);"},
    {"__builtin_va_arg_pack ()", "(0 /*mycc_va_arg_pack*/)"},
    {"__builtin_va_arg_pack_len ()", "(0 /*mycc_va_arg_pack_len*/)"}};

// GCC 13's C++ has the _FloatN types of ISO/IEC TS 18661-3 as keywords, and
// glibc (2.37 on) then declares its strtof32, f32add... with them instead of
// typedefs of its own; Clang's C++ has none but _Float16. For Clang each is
// the type glibc's typedefs name (x86-64), in a spelling that no source
// writes (g++'s preprocessed text has no comments), so that the way back
// finds only these; `_Complex` takes no typeof.
constexpr std::pair<const char *, const char *> kFloatN[] = {
    {"_Float32x", "double"}, {"_Float64x", "long double"},
    {"_Float32", "float"},   {"_Float64", "double"},
    {"_Float128", "__float128"}};

// `text` with `word` replaced by `by` where it is not part of a longer
// identifier; false if there was none (one pass over the text).
bool replaceWhole(std::string &text, const char *word, const char *by) {
  size_t length = std::char_traits<char>::length(word);
  bool found = false;
  std::string out;
  size_t copied = 0;
  for (size_t at = text.find(word); at != std::string::npos;
       at = text.find(word, at + length)) {
    auto ident = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    if ((at > 0 && ident(text[at - 1])) ||
        (at + length < text.size() && ident(text[at + length])))
      continue;
    out.append(text, copied, at - copied);
    out += by;
    copied = at + length;
    found = true;
  }
  if (!found) return false;
  out.append(text, copied, std::string::npos);
  text = std::move(out);
  return true;
}

// Whether `text` has a line `typedef ... NAME;`.
bool declaresTypedef(const std::string &text, const char *name) {
  std::string end = std::string(" ") + name + ";";
  for (size_t at = text.find(end); at != std::string::npos;
       at = text.find(end, at + 1)) {
    size_t line = text.rfind('\n', at);
    line = line == std::string::npos ? 0 : line + 1;
    while (line < at && (text[line] == ' ' || text[line] == '\t')) ++line;
    if (text.compare(line, 8, "typedef ") == 0) return true;
  }
  return false;
}

} // namespace

std::string HostCompilerText::forClang(const std::string &input) {
  std::string text = input;
  for (const auto &[gcc, clang] : kFixed)
    if (replaceWhole(text, gcc, clang)) swaps.emplace_back(clang, gcc);
  for (const auto &[gcc, type] : kFloatN) {
    if (declaresTypedef(text, gcc)) continue; // glibc's own (GCC before 13)
    // glibc's <math.h> specialises __iseqsig_type for each type, which for
    // Clang would redefine float's, double's...: a class of its own.
    std::string iseqsig = std::string("struct __iseqsig_type<") + gcc + ">";
    std::string clangIseqsig =
        std::string("struct __iseqsig_type<struct __mycc_iseqsig") + gcc + ">";
    if (replaceWhole(text, iseqsig.c_str(), clangIseqsig.c_str()))
      swaps.emplace_back(clangIseqsig, iseqsig);
    std::string complex = std::string("_Complex ") + gcc;
    // (The comments' words are no _FloatN identifier themselves.)
    std::string clangComplex =
        "_Complex " + std::string(type) + " /*mycc_Complex" + gcc + "*/";
    if (replaceWhole(text, complex.c_str(), clangComplex.c_str()))
      swaps.emplace_back(clangComplex, complex);
    std::string clang = "__typeof__(" + std::string(type) + " /*mycc" + gcc + "*/)";
    if (replaceWhole(text, gcc, clang.c_str())) swaps.emplace_back(clang, gcc);
  }
  std::string out;
  out.reserve(text.size());
  size_t copied = 0;
  for (size_t at = text.find(kPack); at != std::string::npos;
       at = text.find(kPack, at + 1)) {
    if (at >= 28 && at - 28 >= copied &&
        text.compare(at - 28, sizeof(kIndexTupleGcc) - 1, kIndexTupleGcc) == 0) {
      size_t begin = at - 28;
      out.append(text, copied, begin - copied);
      out += kIndexTupleClang;
      copied = begin + sizeof(kIndexTupleGcc) - 1;
      swaps.emplace_back(kIndexTupleClang, kIndexTupleGcc);
      continue;
    }
    // NAME<TYPE, __integer_pack(EXPR)...>
    size_t close = at + sizeof(kPack) - 1;
    int depth = 1;
    for (; close < text.size() && depth > 0; ++close) {
      if (text[close] == '(') ++depth;
      if (text[close] == ')') --depth;
      if (text[close] == '\n') break;
    }
    if (depth != 0 || text.compare(close, 4, "...>") != 0) continue;
    size_t end = at;
    while (end > 0 && text[end - 1] == ' ') --end;
    if (end == 0 || text[end - 1] != ',') continue;
    --end;
    size_t typeBegin = wordStart(text, end);
    if (typeBegin == std::string::npos) continue;
    std::string type = text.substr(typeBegin, end - typeBegin);
    size_t lt = typeBegin;
    while (lt > 0 && text[lt - 1] == ' ') --lt;
    if (lt == 0 || text[lt - 1] != '<' || lt - 1 < copied) continue;
    size_t nameEnd = lt - 1;
    size_t nameBegin = wordStart(text, nameEnd);
    if (nameBegin == std::string::npos || nameBegin < copied) continue;
    std::string original = text.substr(nameBegin, close + 4 - nameBegin);
    std::string expr = text.substr(at + sizeof(kPack) - 1,
                                   close - 1 - (at + sizeof(kPack) - 1));
    std::string clang = "__make_integer_seq<" +
                        text.substr(nameBegin, nameEnd - nameBegin) + ", " +
                        type + ", " + expr + ">";
    out.append(text, copied, nameBegin - copied);
    out += clang;
    copied = close + 4;
    swaps.emplace_back(clang, original);
  }
  out.append(text, copied, std::string::npos);
  return out;
}

std::string HostCompilerText::forHostCompiler(std::string lowered) const {
  for (const auto &[clang, original] : swaps)
    for (size_t at = lowered.find(clang); at != std::string::npos;
         at = lowered.find(clang, at + original.size()))
      lowered.replace(at, clang.size(), original);
  return lowered;
}

} // namespace mycc::lowering

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
constexpr std::pair<const char *, const char *> kFixed[] = {
    {"__is_same(_Tp, __float80)", "__is_same(_Tp,long double)"}};

} // namespace

std::string HostCompilerText::forClang(const std::string &input) {
  std::string text = input;
  for (const auto &[gcc, clang] : kFixed) {
    bool found = false;
    for (size_t at = text.find(gcc); at != std::string::npos;
         at = text.find(gcc, at + 1)) {
      text.replace(at, std::char_traits<char>::length(gcc), clang);
      found = true;
    }
    if (found) swaps.emplace_back(clang, gcc);
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

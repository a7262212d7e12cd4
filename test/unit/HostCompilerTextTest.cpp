// The host compiler's preprocessed text in Clang's spelling and back
// (HostCompilerText.h): GCC 13's _FloatN keywords, which glibc's headers use
// in C++ when the host compiler is GCC 13 or later.
#include "HostCompilerText.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

using mycc::lowering::HostCompilerText;

namespace {

// glibc 2.39's <stdlib.h> as g++ 13 preprocesses it, and user code.
const char *kGcc13Text =
    "# 0 \"x.cu\"\n"
    "extern _Float32 strtof32 (const char *__restrict __nptr,\n"
    "     char **__restrict __endptr) noexcept (true);\n"
    "extern _Float64x strtof64x (const char *, char **); _Float128 q;\n"
    "extern _Complex _Float32 cf;\n"
    "int _Float32_count; float my_Float32; _Float16 h;\n";

TEST(HostCompilerText, FloatNTypesForClangAndBack) {
  HostCompilerText text;
  std::string clang = text.forClang(kGcc13Text);
  EXPECT_NE(clang.find("extern __typeof__(float /*mycc_Float32*/) strtof32 ("),
            std::string::npos);
  EXPECT_NE(clang.find("extern __typeof__(long double /*mycc_Float64x*/) strtof64x"),
            std::string::npos);
  EXPECT_NE(clang.find("__typeof__(__float128 /*mycc_Float128*/) q;"), std::string::npos);
  EXPECT_NE(clang.find("extern _Complex float /*mycc_Complex_Float32*/ cf;"),
            std::string::npos);
  // Longer identifiers and Clang's own _Float16 stay.
  EXPECT_NE(clang.find("int _Float32_count; float my_Float32; _Float16 h;"),
            std::string::npos);
  // Every line keeps its number.
  EXPECT_EQ(std::count(clang.begin(), clang.end(), '\n'),
            std::count(kGcc13Text, kGcc13Text + strlen(kGcc13Text), '\n'));
  // What the lowering writes from it goes back to g++'s spelling.
  EXPECT_EQ(text.forHostCompiler(clang), kGcc13Text);
}

// glibc before 2.37, or with GCC before 13, declares them as typedefs.
TEST(HostCompilerText, GlibcTypedefsStay) {
  HostCompilerText text;
  std::string gcc12 = "typedef float _Float32;\ntypedef double _Float64;\n"
                      "extern _Float32 strtof32 (const char *, char **);\n";
  EXPECT_EQ(text.forClang(gcc12), gcc12);
}

// glibc's specialisations for each _FloatN, libstdc++ 13's builtin trait,
// glibc's _FORTIFY_SOURCE wrappers: each in Clang's spelling and back.
TEST(HostCompilerText, GccBuiltinsForClangAndBack) {
  const char *gcc =
      "template<> struct __iseqsig_type<_Float32>\n{\n"
      "  static int __call (_Float32 __x, _Float32 __y) throw ()\n"
      "  { return __iseqsigf32 (__x, __y); }\n};\n"
      "template<typename _Tp> struct remove_reference\n"
      "    { using type = __remove_reference(_Tp); };\n"
      "int printf (const char *__restrict __fmt, ...)\n"
      "{ return __printf_chk (2 - 1, __fmt, __builtin_va_arg_pack ()); }\n"
      "int open (const char *__path, int __oflag, ...)\n"
      "{ if (__builtin_va_arg_pack_len () > 1) return -1; return 0; }\n";
  HostCompilerText text;
  std::string clang = text.forClang(gcc);
  EXPECT_NE(clang.find("struct __iseqsig_type<struct __mycc_iseqsig_Float32>"),
            std::string::npos);
  EXPECT_NE(clang.find("static int __call (__typeof__(float /*mycc_Float32*/) __x"),
            std::string::npos);
  EXPECT_NE(clang.find("using type = __remove_reference_t(_Tp);"), std::string::npos);
  EXPECT_NE(clang.find("__printf_chk (2 - 1, __fmt, (0 /*mycc_va_arg_pack*/))"),
            std::string::npos);
  EXPECT_NE(clang.find("if ((0 /*mycc_va_arg_pack_len*/) > 1)"), std::string::npos);
  EXPECT_EQ(text.forHostCompiler(clang), gcc);
}

TEST(HostCompilerText, TextWithoutThemIsUnchanged) {
  HostCompilerText text;
  std::string plain = "float f(double d) { return d; }\n";
  EXPECT_EQ(text.forClang(plain), plain);
  EXPECT_EQ(text.forHostCompiler(plain), plain);
}

} // namespace

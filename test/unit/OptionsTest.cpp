#include "Options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <initializer_list>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace mycc;
using namespace mycc::driver;

namespace {

using Strings = std::vector<std::string>;

ParseResult parse(std::initializer_list<std::string> args) {
  return parseCommandLine(Strings(args));
}

// Parses and requires success.
Options ok(std::initializer_list<std::string> args) {
  ParseResult result = parse(args);
  EXPECT_TRUE(result) << result.error;
  return result.options;
}

// Parses and requires failure; returns the error.
std::string fails(std::initializer_list<std::string> args) {
  ParseResult result = parse(args);
  EXPECT_FALSE(result) << "expected an error";
  EXPECT_EQ(result.error.find('\n'), std::string::npos) << result.error;
  EXPECT_NE(result.error.rfind("mycc", 0), 0u) << result.error;
  return result.error;
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

// "compute_80:sm_80,compute_80;compute_90:sm_90"
std::string targets(const Options &options) {
  std::string text;
  for (const TargetPair &pair : options.targets) {
    if (!text.empty())
      text += ";";
    text += pair.virtualArch.str() + ":";
    for (std::size_t i = 0; i < pair.codes.size(); ++i)
      text += (i ? "," : "") + pair.codes[i].str();
  }
  return text;
}

std::string targets(std::initializer_list<std::string> args) {
  return targets(ok(args));
}

} // namespace

//===----------------------------------------------------------------------===//
// Defaults and inputs
//===----------------------------------------------------------------------===//

TEST(Options, Defaults) {
  ParseResult result = parse({"x.cu"});
  ASSERT_TRUE(result) << result.error;
  const Options &o = result.options;
  EXPECT_EQ(o.inputs, Strings{"x.cu"});
  EXPECT_EQ(o.output, "");
  EXPECT_EQ(o.phase, Phase::Link);
  EXPECT_FALSE(o.language);
  EXPECT_EQ(targets(o), "compute_75:sm_75,compute_75");
  EXPECT_EQ(kDefaultSm, 75u);
  EXPECT_TRUE(o.includeDirs.empty());
  EXPECT_TRUE(o.macros.empty());
  EXPECT_EQ(o.std, "");
  EXPECT_EQ(o.hostOptLevel, 0u);
  EXPECT_FALSE(o.optLevelGiven);
  EXPECT_FALSE(o.debug);
  EXPECT_FALSE(o.lineInfo);
  EXPECT_EQ(o.cudart, CudartKind::Static);
  EXPECT_TRUE(o.xcompiler.empty() && o.xptxas.empty() && o.xlinker.empty());
  EXPECT_FALSE(o.keep);
  EXPECT_EQ(o.keepDir, "");
  EXPECT_FALSE(o.dryrun);
  EXPECT_FALSE(o.verbose);
  EXPECT_EQ(o.cudaPath, "");
  EXPECT_EQ(o.ccbin, "");
  EXPECT_FALSE(o.extendedLambda || o.relaxedConstexpr || o.noWarnings ||
               o.warningsAsErrors);
  EXPECT_TRUE(o.werrorKinds.empty());
  EXPECT_FALSE(o.showVersion || o.showHelp || o.listGpuArch || o.listGpuCode);
  EXPECT_TRUE(result.warnings.empty());
}

TEST(Options, EmptyCommandLine) {
  Options o = ok({});
  EXPECT_TRUE(o.inputs.empty());
  EXPECT_EQ(targets(o), "compute_75:sm_75,compute_75");
}

TEST(Options, InputsKeepOrderAroundOptions) {
  Options o = ok({"a.cu", "-c", "b.cpp", "-o", "out.o", "c.o", "-"});
  EXPECT_EQ(o.inputs, (Strings{"a.cu", "b.cpp", "c.o", "-"}));
  EXPECT_EQ(o.output, "out.o");
}

TEST(Options, CudaPathIsNotTakenFromEnvironment) {
  ::setenv("CUDA_PATH", "/from/env", 1);
  Options o = ok({"x.cu"});
  ::unsetenv("CUDA_PATH");
  EXPECT_EQ(o.cudaPath, "");
}

//===----------------------------------------------------------------------===//
// Output and phases
//===----------------------------------------------------------------------===//

TEST(Options, OutputFileSpellings) {
  EXPECT_EQ(ok({"-o", "a.out"}).output, "a.out");
  EXPECT_EQ(ok({"-o=b.out"}).output, "b.out");
  EXPECT_EQ(ok({"--output-file", "c.out"}).output, "c.out");
  EXPECT_EQ(ok({"--output-file=d.out"}).output, "d.out");
  // A value that starts with '-' is still the value.
  EXPECT_EQ(ok({"-o", "-weird"}).output, "-weird");
}

TEST(Options, OutputFileAttachedIsUnknown) {
  // nvcc rejects -oout.o too.
  EXPECT_TRUE(contains(fails({"-oout.o"}), "unknown option '-oout.o'"));
}

TEST(Options, OutputFileMissingValue) {
  std::string error = fails({"x.cu", "-o"});
  EXPECT_TRUE(contains(error, "'-o'")) << error;
  EXPECT_TRUE(contains(error, "value")) << error;
}

TEST(Options, OutputFileRedefinitionWarnsAndLastWins) {
  ParseResult r = parse({"-o", "a", "-o", "b"});
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r.options.output, "b");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(contains(r.warnings[0], "'-o'")) << r.warnings[0];
  // Same value twice: nothing to warn about.
  EXPECT_TRUE(parse({"-o", "a", "-o=a"}).warnings.empty());
}

TEST(Options, PhaseSpellings) {
  EXPECT_EQ(ok({"-c"}).phase, Phase::Compile);
  EXPECT_EQ(ok({"--compile"}).phase, Phase::Compile);
  EXPECT_EQ(ok({"-E"}).phase, Phase::Preprocess);
  EXPECT_EQ(ok({"--preprocess"}).phase, Phase::Preprocess);
  EXPECT_EQ(ok({"-ptx"}).phase, Phase::Ptx);
  EXPECT_EQ(ok({"--ptx"}).phase, Phase::Ptx);
  EXPECT_EQ(ok({"-cubin"}).phase, Phase::Cubin);
  EXPECT_EQ(ok({"--cubin"}).phase, Phase::Cubin);
  EXPECT_EQ(ok({"-fatbin"}).phase, Phase::Fatbin);
  EXPECT_EQ(ok({"--fatbin"}).phase, Phase::Fatbin);
  EXPECT_EQ(ok({"-cuda"}).phase, Phase::Cuda);
  EXPECT_EQ(ok({"--cuda"}).phase, Phase::Cuda);
}

TEST(Options, SamePhaseTwiceIsFine) {
  EXPECT_EQ(ok({"-c", "-c"}).phase, Phase::Compile);
  EXPECT_EQ(ok({"-c", "--compile"}).phase, Phase::Compile);
}

// The phase that stops earliest wins, in either order (nvcc 13.0's rule).
TEST(Options, SeveralPhasesTheEarliestWins) {
  for (auto [a, b, phase] :
       {std::tuple{"-c", "-E", Phase::Preprocess}, {"-c", "-M", Phase::Dependencies},
        {"-E", "-MM", Phase::Dependencies}, {"-ptx", "-cubin", Phase::Ptx},
        {"-cubin", "-fatbin", Phase::Cubin}, {"-fatbin", "-cuda", Phase::Fatbin},
        {"-cuda", "-c", Phase::Cuda}, {"-dc", "-dlink", Phase::Compile},
        {"-dlink", "-lib", Phase::DeviceLink}, {"-lib", "-c", Phase::Compile}}) {
    EXPECT_EQ(ok({a, b, "x.cu"}).phase, phase) << a << " " << b;
    EXPECT_EQ(ok({b, a, "x.cu"}).phase, phase) << b << " " << a;
  }
  EXPECT_TRUE(ok({"-dc", "-E", "x.cu"}).rdc);
  EXPECT_EQ(ok({"-c", "-c", "-ptx", "x.cu"}).phase, Phase::Ptx);
}

TEST(Options, FlagsTakeNoValue) {
  EXPECT_TRUE(contains(fails({"-c=1"}), "'-c' does not take a value"));
  EXPECT_TRUE(contains(fails({"--keep=yes"}), "'--keep' does not take a value"));
}

//===----------------------------------------------------------------------===//
// Dependency files (-M, -MM, -MD, -MMD, -MF, -MT, -MP)
//===----------------------------------------------------------------------===//

TEST(Dependencies, NoneByDefault) {
  Options o = ok({"-c", "x.cu"});
  EXPECT_FALSE(o.depsWithCompile);
  EXPECT_TRUE(o.depsFile.empty());
  EXPECT_TRUE(o.depsTarget.empty());
  EXPECT_FALSE(o.depsPhonyTargets);
}

TEST(Dependencies, OnlySpellings) {
  for (const char *m : {"-M", "--generate-dependencies"}) {
    Options o = ok({m, "x.cu"});
    EXPECT_EQ(o.phase, Phase::Dependencies) << m;
    EXPECT_TRUE(o.depsSystemHeaders) << m;
    EXPECT_FALSE(o.depsWithCompile) << m;
  }
  for (const char *m : {"-MM", "--generate-nonsystem-dependencies"}) {
    Options o = ok({m, "x.cu"});
    EXPECT_EQ(o.phase, Phase::Dependencies) << m;
    EXPECT_FALSE(o.depsSystemHeaders) << m;
  }
}

TEST(Dependencies, WithCompileSpellings) {
  for (const char *m : {"-MD", "--generate-dependencies-with-compile"}) {
    Options o = ok({m, "-c", "x.cu"});
    EXPECT_EQ(o.phase, Phase::Compile) << m;
    EXPECT_TRUE(o.depsWithCompile) << m;
    EXPECT_TRUE(o.depsSystemHeaders) << m;
  }
  for (const char *m : {"-MMD", "--generate-nonsystem-dependencies-with-compile"}) {
    Options o = ok({m, "x.cu"});
    EXPECT_EQ(o.phase, Phase::Link) << m;
    EXPECT_TRUE(o.depsWithCompile) << m;
    EXPECT_FALSE(o.depsSystemHeaders) << m;
  }
}

// Measured with nvcc 13.0: the non-system form wins in any order, and -M/-MM
// decide over -MD/-MMD.
TEST(Dependencies, Combinations) {
  EXPECT_FALSE(ok({"-M", "-MM"}).depsSystemHeaders);
  EXPECT_FALSE(ok({"-MM", "-M"}).depsSystemHeaders);
  EXPECT_FALSE(ok({"-MD", "-MMD"}).depsSystemHeaders);
  EXPECT_FALSE(ok({"-MMD", "-MD"}).depsSystemHeaders);
  Options o = ok({"-M", "-MMD"});
  EXPECT_EQ(o.phase, Phase::Dependencies);
  EXPECT_FALSE(o.depsWithCompile);
  EXPECT_TRUE(o.depsSystemHeaders);
  EXPECT_FALSE(ok({"-MM", "-MD"}).depsSystemHeaders);
}

TEST(Dependencies, FileTargetPhonySpellings) {
  Options o = ok({"-MD", "-MF", "a.d", "-MT", "obj/a.o", "-MP", "-c", "a.cu"});
  EXPECT_EQ(o.depsFile, "a.d");
  EXPECT_EQ(o.depsTarget, "obj/a.o");
  EXPECT_TRUE(o.depsPhonyTargets);
  o = ok({"-MD", "--dependency-output=b.d", "--dependency-target-name", "t",
          "--generate-dependency-targets", "-c", "a.cu"});
  EXPECT_EQ(o.depsFile, "b.d");
  EXPECT_EQ(o.depsTarget, "t");
  EXPECT_TRUE(o.depsPhonyTargets);
  EXPECT_EQ(ok({"-M", "-MF=c.d", "a.cu"}).depsFile, "c.d");
  // Inputs after -MF/-MT stay inputs.
  EXPECT_EQ(ok({"-MD", "-MT", "t", "a.cu"}).inputs, Strings{"a.cu"});
}

TEST(Dependencies, TargetTwiceWarnsAndLastWins) {
  ParseResult r = parse({"-M", "-MT", "foo", "-MT", "bar", "x.cu"});
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r.options.depsTarget, "bar");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(contains(r.warnings[0], "'-MT'")) << r.warnings[0];
  EXPECT_TRUE(parse({"-M", "-MT", "foo", "-MT", "foo", "x.cu"}).warnings.empty());
}

TEST(Dependencies, Errors) {
  EXPECT_EQ(fails({"-M", "x.cu", "-MF"}), "option '-MF' expects a value (<file>)");
  EXPECT_EQ(fails({"-M", "x.cu", "-MT"}), "option '-MT' expects a value (<target>)");
  EXPECT_EQ(fails({"-M", "-MF=", "x.cu"}), "option '-MF' expects a value (<file>)");
  // nvcc: "Option '--dependency-file' requires one of '-M', '-MM', '-MD' or
  // '-MMD' to be specified".
  EXPECT_TRUE(contains(fails({"-MF", "x.d", "-c", "x.cu"}), "requires one of -M"));
  // nvcc: "'-MD'/'-MMD' is not supported when '-E' is also specified".
  EXPECT_TRUE(contains(fails({"-MD", "-E", "x.cu"}), "-E"));
  EXPECT_TRUE(contains(fails({"-E", "-MMD", "x.cu"}), "-E"));
  // -M is a phase of its own: next to another phase option it wins, as
  // with nvcc.
  EXPECT_EQ(ok({"-M", "-c", "x.cu"}).phase, Phase::Dependencies);
  Options mm = ok({"-ptx", "-MM", "x.cu"});
  EXPECT_EQ(mm.phase, Phase::Dependencies);
  EXPECT_FALSE(mm.depsSystemHeaders);
  EXPECT_TRUE(contains(fails({"-MF=x.d", "x.cu"}), "-MF"));
}

// nvcc ignores -MT and -MP without one of the generating options.
TEST(Dependencies, TargetAndPhonyAloneAreIgnored) {
  Options o = ok({"-MT", "t", "-MP", "-c", "x.cu"});
  EXPECT_EQ(o.phase, Phase::Compile);
  EXPECT_FALSE(o.depsWithCompile);
}

//===----------------------------------------------------------------------===//
// Language
//===----------------------------------------------------------------------===//

TEST(Options, LanguageSpellings) {
  EXPECT_EQ(ok({"-x", "cu"}).language, "cu");
  EXPECT_EQ(ok({"-x=c++"}).language, "c++");
  EXPECT_EQ(ok({"--x", "c"}).language, "c");
  EXPECT_EQ(ok({"--x=cu"}).language, "cu");
  EXPECT_EQ(ok({"--x-language=c++"}).language, "c++");
}

TEST(Options, LanguageInvalid) {
  std::string error = fails({"-x", "fortran"});
  EXPECT_TRUE(contains(error, "'fortran'")) << error;
  EXPECT_TRUE(contains(error, "'-x'")) << error;
  EXPECT_TRUE(contains(error, "c, c++, cu")) << error;
  // nvcc has no attached form for -x.
  EXPECT_TRUE(contains(fails({"-xcu"}), "unknown option '-xcu'"));
}

TEST(Options, StdSpellings) {
  EXPECT_EQ(ok({"-std=c++17"}).std, "c++17");
  EXPECT_EQ(ok({"-std", "c++20"}).std, "c++20");
  EXPECT_EQ(ok({"--std=c++14"}).std, "c++14");
  EXPECT_EQ(ok({"--std", "c++11"}).std, "c++11");
  EXPECT_EQ(ok({"-std=c++03"}).std, "c++03");
}

TEST(Options, StdInvalid) {
  std::string error = fails({"-std=c++23"});
  EXPECT_TRUE(contains(error, "'c++23'")) << error;
  EXPECT_TRUE(contains(error, "'-std'")) << error;
  EXPECT_TRUE(contains(fails({"-stdc++17"}), "unknown option"));
}

TEST(Options, ExtendedLambdaSpellings) {
  for (const char *spelling : {"--extended-lambda", "-extended-lambda",
                               "--expt-extended-lambda", "-expt-extended-lambda"})
    EXPECT_TRUE(ok({spelling}).extendedLambda) << spelling;
}

TEST(Options, RelaxedConstexprSpellings) {
  EXPECT_TRUE(ok({"--expt-relaxed-constexpr"}).relaxedConstexpr);
  EXPECT_TRUE(ok({"-expt-relaxed-constexpr"}).relaxedConstexpr);
}

TEST(Options, DisableWarnings) {
  EXPECT_TRUE(ok({"-w"}).noWarnings);
  EXPECT_TRUE(ok({"--disable-warnings"}).noWarnings);
}

TEST(Options, WerrorSpellings) {
  for (auto args : {Strings{"-Werror"}, Strings{"-Werror", "all-warnings"},
                    Strings{"-Werror=all-warnings"}, Strings{"--Werror", "all-warnings"},
                    Strings{"--Werror=all-warnings"}, Strings{"--Werror"}}) {
    ParseResult r = parseCommandLine(args);
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.options.warningsAsErrors) << args[0];
    EXPECT_EQ(r.options.werrorKinds, Strings{"all-warnings"});
  }
}

TEST(Options, WerrorPlainDoesNotSwallowInput) {
  Options o = ok({"-Werror", "x.cu"});
  EXPECT_TRUE(o.warningsAsErrors);
  EXPECT_EQ(o.inputs, Strings{"x.cu"});
}

TEST(Options, WerrorKinds) {
  Options o = ok({"-Werror=reorder,deprecated-declarations", "-Werror", "reorder"});
  EXPECT_FALSE(o.warningsAsErrors);
  EXPECT_EQ(o.werrorKinds, (Strings{"reorder", "deprecated-declarations"}));
  Options all = ok({"-Werror=reorder,all-warnings"});
  EXPECT_TRUE(all.warningsAsErrors);
}

TEST(Options, WerrorInvalidKind) {
  EXPECT_TRUE(contains(fails({"-Werror="}), "'-Werror' expects a value"));
  std::string error = fails({"-Werror=bogus"});
  EXPECT_TRUE(contains(error, "'bogus'")) << error;
  EXPECT_TRUE(contains(error, "all-warnings")) << error;
}

//===----------------------------------------------------------------------===//
// Preprocessor
//===----------------------------------------------------------------------===//

TEST(Options, IncludePathSpellings) {
  Options o = ok({"-I/usr/a", "-I", "/usr/b", "-I=/usr/c", "--include-path=/usr/d",
                  "--include-path", "/usr/e", "-Irel"});
  EXPECT_EQ(o.includeDirs,
            (Strings{"/usr/a", "/usr/b", "/usr/c", "/usr/d", "/usr/e", "rel"}));
}

TEST(Options, IncludePathCommaList) {
  EXPECT_EQ(ok({"-I", "a,b"}).includeDirs, (Strings{"a", "b"}));
  EXPECT_EQ(ok({"--include-path=a,,b,"}).includeDirs, (Strings{"a", "b"}));
}

TEST(Options, SystemIncludeSpellings) {
  Options o = ok({"-isystem", "/s1", "-isystem=/s2", "--system-include", "/s3",
                  "--system-include=/s4,/s5"});
  EXPECT_EQ(o.systemIncludeDirs, (Strings{"/s1", "/s2", "/s3", "/s4", "/s5"}));
  EXPECT_TRUE(o.includeDirs.empty());
  // As in nvcc, -isystem has no attached form.
  EXPECT_FALSE(parse({"-isystem/usr/x"}));
}

TEST(Options, PreIncludeSpellings) {
  Options o = ok({"-include", "a.h", "-include=b.h", "--pre-include", "c.h",
                  "--pre-include=d.h,e.h"});
  EXPECT_EQ(o.preIncludes, (Strings{"a.h", "b.h", "c.h", "d.h", "e.h"}));
}

TEST(Options, MacrosKeepOrder) {
  Options o = ok({"-DA=1", "-U", "B", "-D", "C", "--define-macro=D=2", "-UE",
                  "--undefine-macro", "F", "-D=G", "--define-macro", "H"});
  EXPECT_EQ(o.macros, (Strings{"-DA=1", "-UB", "-DC", "-DD=2", "-UE", "-UF",
                               "-DG", "-DH"}));
}

TEST(Options, MacrosCommaList) {
  // Like nvcc: -DA=1,B=2 defines two macros.
  EXPECT_EQ(ok({"-DA=1,B=2"}).macros, (Strings{"-DA=1", "-DB=2"}));
  EXPECT_EQ(ok({"-U", "X,Y"}).macros, (Strings{"-UX", "-UY"}));
}

TEST(Options, MacroValueWithEquals) {
  EXPECT_EQ(ok({"-DX=a=b"}).macros, Strings{"-DX=a=b"});
  EXPECT_EQ(ok({"-D", "X=a=b"}).macros, Strings{"-DX=a=b"});
}

//===----------------------------------------------------------------------===//
// Optimisation and debug
//===----------------------------------------------------------------------===//

TEST(Options, OptLevelSpellings) {
  struct Case {
    Strings args;
    unsigned level;
  };
  for (const Case &c : {Case{{"-O0"}, 0}, Case{{"-O1"}, 1}, Case{{"-O2"}, 2},
                        Case{{"-O3"}, 3}, Case{{"-O", "2"}, 2}, Case{{"-O=1"}, 1},
                        Case{{"--optimize", "3"}, 3}, Case{{"--optimize=2"}, 2}}) {
    ParseResult r = parseCommandLine(c.args);
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.options.hostOptLevel, c.level) << c.args[0];
    EXPECT_TRUE(r.options.optLevelGiven) << c.args[0];
  }
}

TEST(Options, OptLevelLastWins) {
  ParseResult r = parse({"-O1", "-O3"});
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(r.options.hostOptLevel, 3u);
}

TEST(Options, OptLevelInvalid) {
  std::string error = fails({"-Os"});
  EXPECT_TRUE(contains(error, "'s'")) << error;
  EXPECT_TRUE(contains(error, "-O")) << error;
  EXPECT_FALSE(parse({"-O", "fast"}));
  EXPECT_FALSE(parse({"-O"}));
}

TEST(Options, DebugAndLineInfo) {
  EXPECT_TRUE(ok({"-g"}).debug);
  EXPECT_TRUE(ok({"--debug"}).debug);
  EXPECT_TRUE(ok({"-lineinfo"}).lineInfo);
  EXPECT_TRUE(ok({"--generate-line-info"}).lineInfo);
  // -lineinfo is not -l ineinfo.
  EXPECT_TRUE(ok({"-lineinfo"}).libs.empty());
}

//===----------------------------------------------------------------------===//
// Link
//===----------------------------------------------------------------------===//

TEST(Options, LibraryPathSpellings) {
  Options o = ok({"-L/a", "-L", "/b", "-L=/c", "--library-path=/d,/e",
                  "--library-path", "/f"});
  EXPECT_EQ(o.libDirs, (Strings{"/a", "/b", "/c", "/d", "/e", "/f"}));
}

TEST(Options, LibrarySpellings) {
  Options o = ok({"-lfoo", "-l", "bar", "-l=baz", "--library=m,dl", "--library", "rt"});
  EXPECT_EQ(o.libs, (Strings{"foo", "bar", "baz", "m", "dl", "rt"}));
}

TEST(Options, CudartSpellings) {
  EXPECT_EQ(ok({"-cudart", "shared"}).cudart, CudartKind::Shared);
  EXPECT_EQ(ok({"-cudart=none"}).cudart, CudartKind::None);
  EXPECT_EQ(ok({"--cudart", "static"}).cudart, CudartKind::Static);
  EXPECT_EQ(ok({"--cudart=shared"}).cudart, CudartKind::Shared);
}

TEST(Options, CudartInvalid) {
  std::string error = fails({"-cudart=Shared"});
  EXPECT_TRUE(contains(error, "'Shared'")) << error;
  EXPECT_TRUE(contains(error, "none, shared, static")) << error;
}

//===----------------------------------------------------------------------===//
// Pass-through options
//===----------------------------------------------------------------------===//

TEST(Options, XcompilerSpellings) {
  Options o = ok({"-Xcompiler", "-Wall,-fPIC", "-Xcompiler=-O2", "--compiler-options",
                  "-g", "--compiler-options=-DX=1", "x.cu"});
  EXPECT_EQ(o.xcompiler, (Strings{"-Wall", "-fPIC", "-O2", "-g", "-DX=1"}));
  EXPECT_EQ(o.inputs, Strings{"x.cu"});
  EXPECT_TRUE(o.macros.empty());
}

TEST(Options, XcompilerSplitsOnWhitespaceLikeNvccShell) {
  EXPECT_EQ(ok({"-Xcompiler", "-Wall -Wextra"}).xcompiler, (Strings{"-Wall", "-Wextra"}));
}

TEST(Options, XptxasSpellings) {
  Options o = ok({"-Xptxas", "-v", "-Xptxas=-O3,--warn-on-spills", "--ptxas-options",
                  "-dlcm=ca", "--ptxas-options=-g"});
  EXPECT_EQ(o.xptxas, (Strings{"-v", "-O3", "--warn-on-spills", "-dlcm=ca", "-g"}));
  EXPECT_FALSE(o.verbose);
}

TEST(Options, XlinkerSpellings) {
  Options o = ok({"-Xlinker", "-rpath,/opt/lib", "-Xlinker=--as-needed",
                  "--linker-options", "-z", "--linker-options=defs"});
  EXPECT_EQ(o.xlinker, (Strings{"-rpath", "/opt/lib", "--as-needed", "-z", "defs"}));
}

TEST(Options, XcompilerMissingValue) {
  EXPECT_TRUE(contains(fails({"-Xcompiler"}), "'-Xcompiler'"));
}

TEST(Options, XcudafeSpellingsAndSplitting) {
  Options o = ok({"-Xcudafe", "--diag_suppress=177,--diag_suppress=set_but_not_used",
                  "-Xcudafe=--display_error_number", "--cudafe-options",
                  "--diag_warning=550 --diag_error=20012", "--cudafe-options=--remarks",
                  "x.cu"});
  EXPECT_EQ(o.xcudafe,
            (Strings{"--diag_suppress=177", "--diag_suppress=set_but_not_used",
                     "--display_error_number", "--diag_warning=550",
                     "--diag_error=20012", "--remarks"}));
  EXPECT_EQ(o.inputs, Strings{"x.cu"});
  // nvcc's diagnostic numbers and names have no Clang meaning: ignored.
  EXPECT_FALSE(o.noWarnings);
  EXPECT_EQ(o.errorLimit, 0u);
  EXPECT_TRUE(o.xcompiler.empty());
}

TEST(Options, XcudafeUnknownOptionsAreIgnored) {
  Options o = ok({"-Xcudafe", "--no_such_front_end_option,--another=1", "x.cu"});
  EXPECT_EQ(o.xcudafe, (Strings{"--no_such_front_end_option", "--another=1"}));
  EXPECT_FALSE(o.noWarnings);
}

TEST(Options, XcudafeNoWarnings) {
  EXPECT_TRUE(ok({"-Xcudafe", "--no_warnings", "x.cu"}).noWarnings);
  EXPECT_TRUE(ok({"-Xcudafe", "-w", "x.cu"}).noWarnings);
  EXPECT_TRUE(ok({"-w", "x.cu"}).noWarnings);
  EXPECT_FALSE(ok({"x.cu"}).noWarnings);
}

TEST(Options, XcudafeErrorLimit) {
  EXPECT_EQ(ok({"-Xcudafe", "--error_limit=5", "x.cu"}).errorLimit, 5u);
  EXPECT_EQ(ok({"-Xcudafe", "--error_limit 7", "x.cu"}).errorLimit, 7u);
  EXPECT_EQ(ok({"-Xcudafe", "--error_limit,3", "x.cu"}).errorLimit, 3u);
  // The last one wins.
  EXPECT_EQ(ok({"-Xcudafe", "--error_limit=5", "-Xcudafe", "--error_limit=2", "x.cu"})
                .errorLimit,
            2u);
  std::string error = fails({"-Xcudafe", "--error_limit=0", "x.cu"});
  EXPECT_TRUE(contains(error, "invalid error limit '0'")) << error;
  EXPECT_TRUE(contains(error, "'-Xcudafe'")) << error;
  error = fails({"-Xcudafe", "--error_limit=many", "x.cu"});
  EXPECT_TRUE(contains(error, "'many'")) << error;
}

TEST(Options, XcudafeMissingValue) {
  EXPECT_TRUE(contains(fails({"-Xcudafe"}), "'-Xcudafe'"));
}

//===----------------------------------------------------------------------===//
// GPU targets: -arch / -code
//===----------------------------------------------------------------------===//

TEST(Targets, ArchRealIsShorthand) {
  EXPECT_EQ(targets({"-arch=sm_80"}), "compute_80:sm_80,compute_80");
  EXPECT_EQ(targets({"-arch", "sm_86"}), "compute_86:sm_86,compute_86");
  EXPECT_EQ(targets({"--gpu-architecture=sm_90"}), "compute_90:sm_90,compute_90");
  EXPECT_EQ(targets({"--gpu-architecture", "sm_120"}), "compute_120:sm_120,compute_120");
}

TEST(Targets, ArchVirtualAloneIsPtxOnly) {
  // Measured with nvcc 13.0: -arch=compute_80 embeds only the compute_80 PTX.
  EXPECT_EQ(targets({"-arch=compute_80"}), "compute_80:compute_80");
}

TEST(Targets, ArchSuffixedAlsoEmbedsPlainPtx) {
  // nvcc 13.0 adds the PTX of the plain virtual architecture.
  EXPECT_EQ(targets({"-arch=sm_90a"}),
            "compute_90:compute_90;compute_90a:sm_90a,compute_90a");
  EXPECT_EQ(targets({"-arch=sm_100f"}),
            "compute_100:compute_100;compute_100f:sm_100f,compute_100f");
  EXPECT_EQ(targets({"-arch=compute_90a"}), "compute_90:compute_90;compute_90a:compute_90a");
}

TEST(Targets, ArchWithCode) {
  EXPECT_EQ(targets({"-arch=compute_80", "-code=sm_80"}), "compute_80:sm_80");
  EXPECT_EQ(targets({"-arch=compute_80", "-code=sm_86,compute_80"}),
            "compute_80:sm_86,compute_80");
  EXPECT_EQ(targets({"-arch", "compute_80", "-code", "sm_80,sm_86"}),
            "compute_80:sm_80,sm_86");
  EXPECT_EQ(targets({"--gpu-architecture=compute_80", "--gpu-code=sm_80,compute_80"}),
            "compute_80:sm_80,compute_80");
  EXPECT_EQ(targets({"--gpu-architecture", "compute_80", "--gpu-code", "sm_89"}),
            "compute_80:sm_89");
  // Suffixed with -code: no extra plain PTX.
  EXPECT_EQ(targets({"-arch=compute_90a", "-code=sm_90a"}), "compute_90a:sm_90a");
}

TEST(Targets, CodeRepeatedAccumulatesAndDeduplicates) {
  EXPECT_EQ(targets({"-arch=compute_80", "-code=sm_80", "-code=sm_86,sm_80",
                     "-code=compute_80,,sm_86"}),
            "compute_80:sm_80,sm_86,compute_80");
}

TEST(Targets, EmptyCodeIsIgnored) {
  EXPECT_EQ(targets({"-arch=sm_80", "-code="}), "compute_80:sm_80,compute_80");
}

TEST(Targets, ArchRealWithCodeReadsAsVirtual) {
  // nvcc 13.0 rejects this ("must be a virtual code architecture"); mycc
  // accepts it as clang does: the codes are built from compute_80.
  EXPECT_EQ(targets({"-arch=sm_80", "-code=sm_80"}), "compute_80:sm_80");
  EXPECT_EQ(targets({"-arch=sm_80", "-code=sm_86,compute_80"}),
            "compute_80:sm_86,compute_80");
}

TEST(Targets, CodeWithoutArch) {
  EXPECT_TRUE(contains(fails({"-code=sm_80"}), "-arch"));
}

TEST(Targets, CodeOlderThanArch) {
  std::string error = fails({"-arch=compute_80", "-code=sm_75"});
  EXPECT_TRUE(contains(error, "incompatible")) << error;
  EXPECT_TRUE(contains(error, "arch='compute_80', code='sm_75'")) << error;
}

TEST(Targets, PtxMustBeTheArchItself) {
  EXPECT_TRUE(contains(fails({"-arch=compute_80", "-code=compute_86"}),
                       "arch='compute_80', code='compute_86'"));
}

TEST(Targets, CodeNewerThanArchIsFine) {
  EXPECT_EQ(targets({"-arch=compute_75", "-code=sm_120"}), "compute_75:sm_120");
}

TEST(Targets, ArchRedefinitionWarnsAndLastWins) {
  ParseResult r = parse({"-arch", "sm_80", "-arch", "sm_90"});
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(targets(r.options), "compute_90:sm_90,compute_90");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(contains(r.warnings[0], "-arch")) << r.warnings[0];
  EXPECT_TRUE(parse({"-arch=sm_80", "-arch", "sm_80"}).warnings.empty());
}

TEST(Targets, ArchIsNotAList) {
  // nvcc: Unsupported gpu architecture 'sm_80,sm_90'.
  EXPECT_TRUE(contains(fails({"-arch=sm_80,sm_90"}), "'sm_80,sm_90'"));
}

TEST(Targets, InvalidNames) {
  for (const char *bad : {"sm_81", "compute_70", "sm_52", "foo", "sm_90f", "sm_"}) {
    std::string error = fails({std::string("-arch=") + bad});
    EXPECT_TRUE(contains(error, std::string("'") + bad + "'")) << error;
    EXPECT_TRUE(contains(error, "sm_XY")) << error;
    EXPECT_TRUE(contains(error, "compute_XY")) << error;
    EXPECT_TRUE(contains(error, "75, 80, 86")) << error;
    EXPECT_TRUE(contains(error, "90a")) << error;
  }
  EXPECT_TRUE(contains(fails({"-arch=compute_80", "-code=sm_8O"}), "'sm_8O'"));
}

TEST(Targets, EmptyArch) {
  EXPECT_TRUE(contains(fails({"-arch="}), "'-arch' expects a value"));
  EXPECT_TRUE(contains(fails({"-o="}), "'-o' expects a value"));
  EXPECT_TRUE(contains(fails({"-std", ""}), "'-std' expects a value"));
}

//===----------------------------------------------------------------------===//
// GPU targets: -arch=all, -arch=all-major, -arch=native
//===----------------------------------------------------------------------===//

// What nvcc 13.0 embeds (`nvcc --dryrun -arch=all`): a cubin per architecture,
// each from its own PTX, plus the compute_120 PTX.
TEST(ArchKeywords, All) {
  EXPECT_EQ(targets({"-arch=all"}),
            "compute_75:sm_75;compute_80:sm_80;compute_86:sm_86;compute_87:sm_87;"
            "compute_88:sm_88;compute_89:sm_89;compute_90:sm_90;compute_100:sm_100;"
            "compute_103:sm_103;compute_110:sm_110;compute_120:sm_120,compute_120;"
            "compute_121:sm_121");
  EXPECT_EQ(targets({"--gpu-architecture", "all"}), targets({"-arch=all"}));
}

TEST(ArchKeywords, AllMajor) {
  EXPECT_EQ(targets({"-arch=all-major"}),
            "compute_75:sm_75;compute_80:sm_80;compute_90:sm_90;compute_100:sm_100;"
            "compute_110:sm_110;compute_120:sm_120,compute_120");
}

TEST(ArchKeywords, CombineWithGencode) {
  // nvcc 13.0: the -gencode images are added, each image once.
  EXPECT_EQ(targets({"-gencode", "arch=compute_90,code=compute_90", "-arch=all-major"}),
            "compute_75:sm_75;compute_80:sm_80;compute_90:sm_90,compute_90;"
            "compute_100:sm_100;compute_110:sm_110;compute_120:sm_120,compute_120");
  EXPECT_EQ(targets({"-arch=all", "-gencode", "arch=compute_80,code=sm_80"}),
            targets({"-arch=all"}));
}

TEST(ArchKeywords, LastArchWins) {
  ParseResult r = parse({"-arch=all-major", "-arch=sm_80"});
  ASSERT_TRUE(r) << r.error;
  EXPECT_EQ(targets(r.options), "compute_80:sm_80,compute_80");
  EXPECT_EQ(r.warnings.size(), 1u);
}

TEST(ArchKeywords, NotWithCode) {
  // nvcc 13.0: "Cannot use '-arch=all' with '--gpu-code (-code)'".
  for (const char *value : {"native", "all", "all-major"}) {
    std::string error = fails({std::string("-arch=") + value, "-code=sm_90"});
    EXPECT_TRUE(contains(error, std::string("-arch=") + value)) << error;
    EXPECT_TRUE(contains(error, "-code")) << error;
  }
}

TEST(ArchKeywords, OnlyAsArch) {
  // nvcc 13.0: "Unsupported gpu architecture 'all'" in -gencode, "Value 'all'
  // is not defined for option 'gpu-code'" in -code.
  for (const char *value : {"native", "all", "all-major"}) {
    std::string v = value;
    for (auto args : {Strings{"-gencode", "arch=" + v + ",code=sm_90"},
                      Strings{"-gencode", "arch=compute_80,code=" + v},
                      Strings{"-gencode", "arch=compute_80,code=[sm_80," + v + "]"},
                      Strings{"-arch=compute_80", "-code=" + v}}) {
      ParseResult r = parseCommandLine(args);
      ASSERT_FALSE(r) << args[1];
      EXPECT_TRUE(contains(r.error, "'" + v + "'")) << r.error;
      EXPECT_TRUE(contains(r.error, "only as the value of -arch")) << r.error;
    }
  }
}

TEST(ArchNative, WaitsForTheInstalledGpus) {
  Options o = ok({"-arch=native"});
  EXPECT_TRUE(o.nativeArch);
  EXPECT_TRUE(o.targets.empty()); // no default target in the meantime
  o = ok({"-arch", "native", "-gencode", "arch=compute_80,code=sm_80"});
  EXPECT_TRUE(o.nativeArch);
  EXPECT_EQ(targets(o), "compute_80:sm_80");
  EXPECT_FALSE(ok({"-arch=sm_80"}).nativeArch);
  EXPECT_FALSE(ok({"-arch=native", "-arch=sm_80"}).nativeArch);
}

TEST(ArchNative, OneCubinPerGpu) {
  // nvcc 13.0 on an H100 (`__nvcc_device_query` prints "90"): the sm_90 cubin
  // from compute_90, no PTX.
  Options o = ok({"-arch=native"});
  std::vector<std::string> warnings;
  EXPECT_EQ(addNativeTargets(o, {{90, ArchSuffix::None}}, warnings), "");
  EXPECT_EQ(targets(o), "compute_90:sm_90");
  EXPECT_FALSE(o.nativeArch);
  EXPECT_TRUE(warnings.empty());

  o = ok({"-arch=native"});
  EXPECT_EQ(addNativeTargets(o, {{80, ArchSuffix::None}, {90, ArchSuffix::None}}, warnings),
            "");
  EXPECT_EQ(targets(o), "compute_80:sm_80;compute_90:sm_90");
}

TEST(ArchNative, GpusComeBeforeGencodeAndMerge) {
  Options o = ok({"-gencode", "arch=compute_80,code=[sm_86,compute_80]", "-arch=native"});
  std::vector<std::string> warnings;
  EXPECT_EQ(addNativeTargets(o, {{80, ArchSuffix::None}, {90, ArchSuffix::None}}, warnings),
            "");
  EXPECT_EQ(targets(o), "compute_80:sm_80,sm_86,compute_80;compute_90:sm_90");
}

TEST(ArchNative, UnsupportedGpusAreSkipped) {
  Options o = ok({"-arch=native"});
  std::vector<std::string> warnings;
  EXPECT_EQ(addNativeTargets(o, {{70, ArchSuffix::None}, {90, ArchSuffix::None}}, warnings),
            "");
  EXPECT_EQ(targets(o), "compute_90:sm_90");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(contains(warnings[0], "sm_70")) << warnings[0];

  // Only such GPUs: nvcc 13's default architecture, with its warning.
  o = ok({"-arch=native"});
  warnings.clear();
  EXPECT_EQ(addNativeTargets(o, {{70, ArchSuffix::None}}, warnings), "");
  EXPECT_EQ(targets(o), "compute_75:sm_75,compute_75");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[1], "Cannot find valid GPU for '-arch=native', default arch "
                         "is used (found sm_70)");
}

TEST(ArchNative, NoGpuBuildsForTheDefaultAsNvcc) {
  Options o = ok({"-arch=native"});
  std::vector<std::string> warnings;
  EXPECT_EQ(addNativeTargets(o, {}, warnings, "no driver"), "");
  EXPECT_EQ(targets(o), "compute_75:sm_75,compute_75");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "Cannot find valid GPU for '-arch=native', default arch "
                         "is used (no driver)");
  // Beside -gencode: only what -gencode asked for.
  o = ok({"-arch=native", "-gencode", "arch=compute_80,code=sm_80"});
  warnings.clear();
  EXPECT_EQ(addNativeTargets(o, {}, warnings), "");
  EXPECT_EQ(targets(o), "compute_80:sm_80");
}

TEST(Targets, LtoCodesAreDeviceLto) {
  EXPECT_TRUE(contains(fails({"-arch=lto_80"}), "must be a code"));
  // CMake's INTERPROCEDURAL_OPTIMIZATION: code=[compute_NN,lto_NN] with
  // -rdc=true is mycc's -dlto, and the device link makes sm_NN.
  Options o = ok({"-rdc=true", "-gencode", "arch=compute_80,code=[compute_80,lto_80]"});
  EXPECT_TRUE(o.deviceLto);
  EXPECT_EQ(targets(o), "compute_80:compute_80,sm_80");
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_80,code=lto_80"}),
                       "unless '-rdc=true'"));
}

//===----------------------------------------------------------------------===//
// GPU targets: -gencode
//===----------------------------------------------------------------------===//

TEST(Gencode, Spellings) {
  const char *expected = "compute_80:sm_80";
  EXPECT_EQ(targets({"-gencode", "arch=compute_80,code=sm_80"}), expected);
  EXPECT_EQ(targets({"-gencode=arch=compute_80,code=sm_80"}), expected);
  EXPECT_EQ(targets({"--generate-code", "arch=compute_80,code=sm_80"}), expected);
  EXPECT_EQ(targets({"--generate-code=arch=compute_80,code=sm_80"}), expected);
  EXPECT_EQ(targets({"-gencode", "code=sm_80,arch=compute_80"}), expected);
  EXPECT_EQ(targets({"-gencode", "arch=compute_80,code=sm_80,"}), expected);
}

TEST(Gencode, BracketList) {
  EXPECT_EQ(targets({"-gencode", "arch=compute_80,code=[sm_80,compute_80]"}),
            "compute_80:sm_80,compute_80");
  EXPECT_EQ(targets({"-gencode=arch=compute_80,code=[sm_86,sm_80]"}),
            "compute_80:sm_86,sm_80");
}

TEST(Gencode, LiteralQuotesAreStripped) {
  // What the program sees for the shell word code=\"compute_86,sm_86\".
  EXPECT_EQ(targets({"-gencode", "arch=compute_86,code=\"compute_86,sm_86\""}),
            "compute_86:compute_86,sm_86");
  EXPECT_EQ(targets({"-gencode=arch=\"compute_80\",code=\"sm_80\""}), "compute_80:sm_80");
}

TEST(Gencode, RepeatedAndDeduplicated) {
  EXPECT_EQ(targets({"-gencode", "arch=compute_90,code=sm_90", "-gencode",
                     "arch=compute_80,code=sm_80", "-gencode=arch=compute_80,code=[sm_86,sm_80,compute_80]",
                     "-gencode", "arch=compute_90,code=sm_90"}),
            "compute_90:sm_90;compute_80:sm_80,sm_86,compute_80");
}

TEST(Gencode, CombinesWithArch) {
  EXPECT_EQ(targets({"-arch=sm_80", "-gencode", "arch=compute_90,code=sm_90"}),
            "compute_80:sm_80,compute_80;compute_90:sm_90");
  // The -arch pair comes first whatever the order on the command line.
  EXPECT_EQ(targets({"-gencode", "arch=compute_90,code=sm_90", "-arch=sm_80"}),
            "compute_80:sm_80,compute_80;compute_90:sm_90");
  EXPECT_EQ(targets({"-gencode", "arch=compute_80,code=sm_80", "-arch=compute_80"}),
            "compute_80:compute_80,sm_80");
  EXPECT_EQ(targets({"-arch=compute_80", "-code=sm_86", "-gencode",
                     "arch=compute_80,code=sm_80"}),
            "compute_80:sm_86,sm_80");
}

TEST(Gencode, Compatibility) {
  EXPECT_EQ(targets({"-gencode", "arch=compute_80,code=sm_90"}), "compute_80:sm_90");
  EXPECT_EQ(targets({"-gencode", "arch=compute_90,code=sm_90a"}), "compute_90:sm_90a");
  EXPECT_EQ(targets({"-gencode", "arch=compute_100a,code=sm_100a"}), "compute_100a:sm_100a");
  // A plain cubin from family PTX becomes the family cubin, as in nvcc.
  EXPECT_EQ(targets({"-gencode", "arch=compute_100f,code=sm_103"}), "compute_100f:sm_103f");
  EXPECT_EQ(targets({"-gencode", "arch=compute_100f,code=[sm_100a,sm_103f]"}),
            "compute_100f:sm_100a,sm_103f");

  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_80,code=sm_75"}),
                       "arch='compute_80', code='sm_75'"));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_90a,code=sm_90"}),
                       "arch='compute_90a', code='sm_90'"));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_100f,code=sm_110"}),
                       "arch='compute_100f', code='sm_110'"));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_90,code=compute_90a"}),
                       "arch='compute_90', code='compute_90a'"));
}

// nvcc 13.0 (`nvcc --dryrun -arch=compute_X -code=sm_Y` for each pair): a
// plain virtual architecture yields any newer cubin, `a` ones included, but
// an `f` cubin only within its family; `a` PTX yields only `a` cubins, newer
// ones included.
TEST(Gencode, SuffixedCodesFromPlainPtx) {
  EXPECT_EQ(targets({"-arch=compute_80", "-code=sm_90a,sm_100a,sm_121"}),
            "compute_80:sm_90a,sm_100a,sm_121");
  EXPECT_EQ(targets({"-arch=compute_100", "-code=sm_100f,sm_103f,sm_103a"}),
            "compute_100:sm_100f,sm_103f,sm_103a");
  for (const char *code : {"sm_100f", "sm_103f", "sm_110f", "sm_121f"}) {
    std::string error = fails({"-arch=compute_80", std::string("-code=") + code});
    EXPECT_TRUE(contains(error, std::string("code='") + code + "'")) << error;
  }
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_100,code=sm_110f"}),
                       "arch='compute_100', code='sm_110f'"));
  EXPECT_EQ(targets({"-gencode", "arch=compute_90a,code=[sm_90a,sm_100a,sm_103a]"}),
            "compute_90a:sm_90a,sm_100a,sm_103a");
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_90a,code=sm_100f"}),
                       "arch='compute_90a', code='sm_100f'"));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_103f,code=sm_100f"}),
                       "arch='compute_103f', code='sm_100f'"));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_120f,code=sm_90a"}),
                       "arch='compute_120f', code='sm_90a'"));
  EXPECT_EQ(targets({"-gencode", "arch=compute_120f,code=[sm_120,sm_121,compute_120f]"}),
            "compute_120f:sm_120f,sm_121f,compute_120f");
}

TEST(Gencode, ListsAreMergedAcrossOptions) {
  // nvcc 13.0 embeds each image once: sm_80, sm_86 and compute_80 here.
  EXPECT_EQ(targets({"-gencode", "arch=compute_80,code=[sm_80,sm_80,compute_80]", "-gencode",
                     "arch=compute_80,code=sm_86"}),
            "compute_80:sm_80,compute_80,sm_86");
  EXPECT_EQ(targets({"-arch=compute_80", "-code=sm_86,sm_80,sm_86"}), "compute_80:sm_86,sm_80");
  // The family cubin asked for twice, once as sm_103 and once as sm_103f.
  EXPECT_EQ(targets({"-gencode", "arch=compute_100f,code=[sm_103,sm_103f]"}),
            "compute_100f:sm_103f");
}

TEST(Gencode, Errors) {
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_80"}), "missing code="));
  // Unbalanced lists and quotes, refused as by nvcc ("Stray '['").
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_90,code=[sm_90,compute_90", "x.cu"}),
                       "stray '['"));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_90,code=sm_90]", "x.cu"}), "stray ']'"));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_90,code=\"sm_90,compute_90", "x.cu"}),
                       "stray '\"'"));
  EXPECT_EQ(ok({"-gencode", "arch=compute_90,code=[sm_90,compute_90]", "x.cu"}).targets.size(), 1u);
  EXPECT_TRUE(contains(fails({"-gencode", "code=sm_80"}), "missing arch="));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_80,code="}), "missing code="));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_80,code=sm_80,compute_80"}),
                       "'compute_80'"));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_80,foo=bar,code=sm_80"}),
                       "unknown keyword 'foo'"));
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_80,code=sm_80,code=sm_86"}),
                       "'code' given twice"));
  std::string real = fails({"-gencode", "arch=sm_80,code=sm_80"});
  EXPECT_TRUE(contains(real, "virtual")) << real;
  EXPECT_TRUE(contains(fails({"-gencode", "arch=compute_81,code=sm_81"}), "'compute_81'"));
  EXPECT_TRUE(contains(fails({"-gencode"}), "'-gencode'"));
}

//===----------------------------------------------------------------------===//
// Driver behaviour and information
//===----------------------------------------------------------------------===//

TEST(Options, KeepSpellings) {
  EXPECT_TRUE(ok({"-keep"}).keep);
  EXPECT_TRUE(ok({"--keep"}).keep);
  EXPECT_EQ(ok({"-keep-dir", "d1"}).keepDir, "d1");
  EXPECT_EQ(ok({"-keep-dir=d2"}).keepDir, "d2");
  EXPECT_EQ(ok({"--keep-dir", "d3"}).keepDir, "d3");
  EXPECT_EQ(ok({"--keep-dir=d4"}).keepDir, "d4");
  EXPECT_FALSE(ok({"--keep-dir=d4"}).keep);
}

TEST(Options, DryrunAndVerbose) {
  EXPECT_TRUE(ok({"-dryrun"}).dryrun);
  EXPECT_TRUE(ok({"--dryrun"}).dryrun);
  EXPECT_TRUE(ok({"-v"}).verbose);
  EXPECT_TRUE(ok({"--verbose"}).verbose);
}

TEST(Options, InformationalRequests) {
  EXPECT_TRUE(ok({"-V"}).showVersion);
  EXPECT_TRUE(ok({"--version"}).showVersion);
  EXPECT_TRUE(ok({"-h"}).showHelp);
  EXPECT_TRUE(ok({"--help"}).showHelp);
  EXPECT_TRUE(ok({"-arch-ls"}).listGpuArch);
  EXPECT_TRUE(ok({"--list-gpu-arch"}).listGpuArch);
  EXPECT_TRUE(ok({"-code-ls"}).listGpuCode);
  EXPECT_TRUE(ok({"--list-gpu-code"}).listGpuCode);
  Options both = ok({"-arch-ls", "-code-ls"});
  EXPECT_TRUE(both.listGpuArch && both.listGpuCode);
}

TEST(Options, CudaPathAndCcbin) {
  EXPECT_EQ(ok({"--cuda-path=/opt/cuda"}).cudaPath, "/opt/cuda");
  EXPECT_EQ(ok({"--cuda-path", "/opt/cuda2"}).cudaPath, "/opt/cuda2");
  EXPECT_EQ(ok({"-ccbin", "g++-12"}).ccbin, "g++-12");
  EXPECT_EQ(ok({"-ccbin=clang++"}).ccbin, "clang++");
  EXPECT_EQ(ok({"--compiler-bindir", "/usr/bin"}).ccbin, "/usr/bin");
  EXPECT_EQ(ok({"--compiler-bindir=/opt/bin"}).ccbin, "/opt/bin");
}

//===----------------------------------------------------------------------===//
// Unknown options
//===----------------------------------------------------------------------===//

TEST(Unknown, NoSuggestionWhenNothingIsClose) {
  EXPECT_EQ(fails({"-foo"}), "unknown option '-foo'");
  EXPECT_EQ(fails({"-fPIC"}), "unknown option '-fPIC'");
  EXPECT_EQ(fails({"--frobnicate-everything"}), "unknown option '--frobnicate-everything'");
  // Too short for a meaningful guess.
  EXPECT_EQ(fails({"-q"}), "unknown option '-q'");
  EXPECT_EQ(fails({"--", "x.cu"}), "unknown option '--'");
}

TEST(Unknown, SuggestsNearestSpelling) {
  EXPECT_EQ(fails({"-gencod", "arch=compute_80,code=sm_80"}),
            "unknown option '-gencod'; did you mean '-gencode'?");
  EXPECT_EQ(fails({"--arch=sm_80"}), "unknown option '--arch'; did you mean '-arch'?");
  EXPECT_EQ(fails({"--c"}), "unknown option '--c'; did you mean '-c'?");
  EXPECT_EQ(fails({"--o", "x"}), "unknown option '--o'; did you mean '-o'?");
  EXPECT_EQ(fails({"-gpu-architecture=sm_80"}),
            "unknown option '-gpu-architecture'; did you mean '--gpu-architecture'?");
  EXPECT_EQ(fails({"-keepdir=d"}), "unknown option '-keepdir'; did you mean '-keep-dir'?");
  EXPECT_EQ(fails({"--expt-extended-lamda"}),
            "unknown option '--expt-extended-lamda'; did you mean '--expt-extended-lambda'?");
  EXPECT_EQ(fails({"-xcompiler", "-Wall"}),
            "unknown option '-xcompiler'; did you mean '-Xcompiler'?");
  EXPECT_EQ(fails({"--dry-run"}), "unknown option '--dry-run'; did you mean '--dryrun'?");
  EXPECT_EQ(fails({"--gpu-architectur=sm_80"}),
            "unknown option '--gpu-architectur'; did you mean '--gpu-architecture'?");
}

TEST(DeviceCode, ExtensibleWholeProgram) {
  Options o = ok({"-ewp", "-c", "x.cu"});
  EXPECT_TRUE(o.rdc && o.extensibleWholeProgram && !o.deviceLto);
  EXPECT_TRUE(ok({"--extensible-whole-program", "x.cu"}).extensibleWholeProgram);
  EXPECT_FALSE(ok({"-rdc=true", "-c", "x.cu"}).extensibleWholeProgram);
  EXPECT_EQ(fails({"-ewp", "-dc", "x.cu"}), "-dc is not compatible with -ewp");
  EXPECT_EQ(fails({"-ewp", "-rdc=true", "-c", "x.cu"}), "-rdc=true is not compatible with -ewp");
  EXPECT_EQ(fails({"-dlto", "-ewp", "-c", "x.cu"}), "-dlto is not compatible with -ewp");
}

TEST(DeviceCode, SwitchTablesEntriesRemarks) {
  EXPECT_EQ(ok({"x.cu"}).jumpTableDensity, 101u);
  EXPECT_EQ(ok({"-jtd", "10", "x.cu"}).jumpTableDensity, 10u);
  EXPECT_EQ(ok({"--jump-table-density=0", "x.cu"}).jumpTableDensity, 0u);
  EXPECT_TRUE(contains(fails({"-jtd", "102", "x.cu"}), "between 0 and 101"));
  EXPECT_TRUE(contains(fails({"-jtd", "-1", "x.cu"}), "between 0 and 101"));
  EXPECT_EQ(ok({"-e", "_Z1kv,k2", "--entries", "k3", "x.cu"}).entries,
            (Strings{"_Z1kv", "k2", "k3"}));
  EXPECT_FALSE(ok({"x.cu"}).inlineRemarks);
  EXPECT_TRUE(ok({"-opt-info", "inline", "x.cu"}).inlineRemarks);
  EXPECT_TRUE(ok({"--optimization-info=inline", "x.cu"}).inlineRemarks);
  EXPECT_TRUE(contains(fails({"-opt-info", "loop", "x.cu"}), "expected one of: inline"));
}

TEST(DriverBehaviour, ObjtempAndTimeTrace) {
  EXPECT_FALSE(ok({"-c", "x.cu"}).objectDirAsTemp);
  EXPECT_TRUE(ok({"-objtemp", "-c", "x.cu"}).objectDirAsTemp);
  EXPECT_TRUE(ok({"--objdir-as-tempdir", "-c", "x.cu"}).objectDirAsTemp);
  EXPECT_EQ(ok({"x.cu"}).timeTraceFile, "");
  EXPECT_EQ(ok({"-fdevice-time-trace", "t", "x.cu"}).timeTraceFile, "t");
  EXPECT_EQ(ok({"--fdevice-time-trace=-", "x.cu"}).timeTraceFile, "-");
}

TEST(Unknown, NvccOptionsNotImplemented) {
  std::string error = fails({"-optix-ir"});
  EXPECT_TRUE(contains(error, "-optix-ir (--optix-ir)")) << error;
  EXPECT_TRUE(contains(error, "not supported")) << error;
  EXPECT_TRUE(contains(fails({"-ltoir"}), "-ltoir (--ltoir)"));
  // -lib is nvcc's library mode, not -l ib.
  EXPECT_EQ(ok({"-lib", "x.cu"}).phase, Phase::Lib);
  EXPECT_TRUE(ok({"-lib", "x.cu"}).libs.empty());
  // -dlto implies -rdc=true, as nvcc's, even after -rdc=false.
  Options lto = ok({"-rdc=false", "-dlto", "-c", "x.cu"});
  EXPECT_TRUE(lto.rdc && lto.deviceLto);
  EXPECT_TRUE(contains(fails({"--ltoir"}), "not supported"));
}

TEST(NvccOptions, PhasesAndAliases) {
  Options dw = ok({"-rdc=true", "-dw", "x.cu"});
  EXPECT_EQ(dw.phase, Phase::Compile);
  EXPECT_FALSE(dw.rdc); // -dw is -c -rdc=false
  EXPECT_EQ(ok({"-link", "x.cu"}).phase, Phase::Link);
  EXPECT_EQ(ok({"-link", "-c", "x.cu"}).phase, Phase::Compile);
  EXPECT_TRUE(ok({"--lto", "-c", "x.cu"}).deviceLto);
  Options both = ok({"-forward-unknown-opts", "-fopenmp", "x.cu"});
  EXPECT_EQ(both.xcompiler, Strings{"-fopenmp"});
  EXPECT_EQ(both.xlinker, Strings{"-fopenmp"});
}

TEST(NvccOptions, HostAndDiagnostics) {
  Options pg = ok({"-pg", "-noeh", "x.cu"});
  EXPECT_EQ(pg.xcompiler, (Strings{"-pg", "-fno-exceptions"}));
  Options brief = ok({"-brief-diag=true", "x.cu"});
  EXPECT_NE(std::find(brief.clangFlags.begin(), brief.clangFlags.end(),
                      "-fno-caret-diagnostics"),
            brief.clangFlags.end());
  EXPECT_TRUE(ok({"--brief-diagnostics", "false", "x.cu"}).clangFlags.empty());
  // Accepted, no effect on Linux or for mycc (docs/options.md says why).
  for (Strings args :
       {Strings{"-noprof"}, {"-use-local-env"}, {"-force-cl-env-setup"},
        {"--no-align-double"}, {"-idp", "/c/"}, {"-ddp=/c/"}, {"-dp", "/c/"},
        {"-qpp-config", "gcc_ntox86_64"}, {"-err-no"}, {"-no-err-no"},
        {"-nohdinitlist"}, {"-nohdmoveforward"}, {"-Wext-lambda-captures-this"},
        {"-device-stack-protector=false"}, {"-static-global-template-stub=false"},
        {"--device-entity-has-hidden-visibility", "false"}}) {
    args.push_back("x.cu");
    ParseResult r = parseCommandLine(args);
    ASSERT_TRUE(r) << args[0] << ": " << r.error;
    EXPECT_TRUE(r.options.xcompiler.empty() && r.options.clangFlags.empty()) << args[0];
  }
  EXPECT_TRUE(contains(fails({"-device-stack-protector=true", "x.cu"}),
                       "not supported"));
  // -static-global-template-stub: nvcc 13's default true, or false.
  EXPECT_TRUE(ok({"x.cu"}).staticTemplateStubs);
  EXPECT_TRUE(ok({"-static-global-template-stub=true", "x.cu"}).staticTemplateStubs);
  EXPECT_FALSE(ok({"-static-global-template-stub=false", "x.cu"}).staticTemplateStubs);
  EXPECT_TRUE(contains(fails({"-static-global-template-stub=maybe", "x.cu"}),
                       "true, false"));
  // -device-entity-has-hidden-visibility: nvcc 13's default true, or false.
  EXPECT_TRUE(ok({"x.cu"}).hiddenDeviceEntities);
  EXPECT_FALSE(ok({"-device-entity-has-hidden-visibility=false", "x.cu"})
                   .hiddenDeviceEntities);
  EXPECT_TRUE(contains(fails({"-brief-diag=maybe", "x.cu"}), "true, false"));
}

// ptxas's instrumentation and tools patch code, as nvcc 13 passes them.
TEST(NvccOptions, SanitizeAndToolsPatch) {
  EXPECT_EQ(ok({"x.cu"}).sanitize, "");
  EXPECT_EQ(ok({"-sanitize", "memcheck", "x.cu"}).sanitize, "memcheck");
  EXPECT_EQ(ok({"--sanitize=memcheck", "-sanitize=threadsteer", "x.cu"}).sanitize,
            "threadsteer");
  Options patch = ok({"-astoolspatch", "-cubin", "x.cu"});
  EXPECT_TRUE(patch.toolsPatch);
  EXPECT_TRUE(patch.keepDeviceFunctions);
  EXPECT_TRUE(ok({"--compile-as-tools-patch", "-ptx", "x.cu"}).toolsPatch);
  EXPECT_TRUE(contains(fails({"-astoolspatch", "-c", "x.cu"}),
                       "requires -ptx, -cubin or -fatbin"));
  EXPECT_TRUE(contains(fails({"-astoolspatch", "-fatbin", "-rdc=true", "x.cu"}),
                       "not compatible with -rdc=true"));
  EXPECT_TRUE(contains(fails({"-astoolspatch", "-fatbin", "-ewp", "x.cu"}),
                       "not compatible with -ewp"));
}

// -r: nvcc's relocatable link; its sources compile with relocatable device
// code whatever -rdc says; -c, an earlier phase, wins.
TEST(NvccOptions, RelocatableLink) {
  Options r = ok({"-r", "a.o", "b.cu"});
  EXPECT_EQ(r.phase, Phase::RelocatableLink);
  EXPECT_TRUE(r.rdc);
  EXPECT_TRUE(ok({"--relocatable-link", "-rdc=false", "b.cu"}).rdc);
  EXPECT_EQ(ok({"-r", "-c", "b.cu"}).phase, Phase::Compile);
  EXPECT_TRUE(contains(fails({"-r", "-dlto", "b.cu"}), "nvlink -r cannot link"));
  EXPECT_TRUE(contains(fails({"-r", "-ewp", "b.cu"}), "-r is not compatible with -ewp"));
}

TEST(NvccOptions, DoptWithDeviceDebug) {
  Options g = ok({"-G", "-dopt", "on", "x.cu"});
  EXPECT_FALSE(g.deviceDebug);
  EXPECT_TRUE(g.lineInfo);
  Options plain = ok({"-dopt=on", "x.cu"});
  EXPECT_FALSE(plain.deviceDebug);
  EXPECT_FALSE(plain.lineInfo);
  EXPECT_TRUE(contains(fails({"-dopt=off", "x.cu"}), "on"));
}

TEST(NvccOptions, OutputDirectoryCleanAndNoDeviceLink) {
  Options o = ok({"-odir", "out", "-clean", "-nodlink", "x.cu"});
  EXPECT_EQ(o.outputDir, "out");
  EXPECT_TRUE(o.cleanTargets);
  EXPECT_TRUE(o.noDeviceLink);
  EXPECT_EQ(ok({"--output-directory=o2", "x.cu"}).outputDir, "o2");
}

// Every option `nvcc --help` lists, in both spellings, is known to mycc
// (accepted, or refused by name as not supported) and docs/options.md
// names it.
TEST(NvccOptions, EveryOptionOfNvccHelpIsKnownAndDocumented) {
  std::FILE *pipe = popen((std::string("'") + MYCC_TEST_NVCC + "' --help 2>/dev/null").c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string help;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) help.append(buffer, n);
  if (pclose(pipe) != 0 || help.empty()) GTEST_SKIP() << "no nvcc at " << MYCC_TEST_NVCC;
  std::ifstream docFile(MYCC_TEST_OPTIONS_DOC);
  std::stringstream doc;
  doc << docFile.rdbuf();
  ASSERT_FALSE(doc.str().empty()) << MYCC_TEST_OPTIONS_DOC;
  // "--long-name <value> (-short)" at the start of a line.
  std::regex line(R"(^(--[A-Za-z0-9_+=-]+)[^\n(]*\((-[A-Za-z0-9_+-]+)\))",
                  std::regex::multiline);
  unsigned options = 0, refused = 0;
  for (std::sregex_iterator it(help.begin(), help.end(), line), end; it != end; ++it) {
    ++options;
    std::string spellings[] = {(*it)[1].str(), (*it)[2].str()};
    bool documented = false;
    for (const std::string &spelling : spellings) {
      ParseResult r = parseCommandLine({spelling});
      EXPECT_FALSE(!r && contains(r.error, "unknown option")) << r.error;
      if (!r && contains(r.error, "not supported by mycc") && spelling[1] == '-') ++refused;
      for (const char *after : {"`", " ", "=", "<", "["})
        documented |= contains(doc.str(), "`" + spelling + after);
    }
    EXPECT_TRUE(documented) << spellings[0] << " (" << spellings[1]
                            << ") is not in docs/options.md";
  }
  EXPECT_GE(options, 140u); // nvcc 13.0 lists 143
  std::printf("nvcc --help: %u options, %u of them refused as not supported\n",
              options, refused);
}

TEST(Environment, PrependAndAppendFlags) {
  EXPECT_EQ(withEnvironmentFlags({"-c", "x.cu"}, "-DPRE=2 -lineinfo", "-DAPP=\"a b\""),
            (Strings{"-DPRE=2", "-lineinfo", "-c", "x.cu", "-DAPP=a b"}));
  EXPECT_EQ(withEnvironmentFlags({"x.cu"}, "", "  "), Strings{"x.cu"});
}

TEST(DeviceMath, DefaultsAreIeee) {
  Options o = ok({"x.cu"});
  EXPECT_FALSE(o.fastMath);
  EXPECT_FALSE(o.ftz);
  EXPECT_TRUE(o.precDiv);
  EXPECT_TRUE(o.precSqrt);
  EXPECT_TRUE(o.fmad);
  EXPECT_EQ(o.maxRegCount, 0u);
  EXPECT_FALSE(o.resourceUsage);
}

TEST(DeviceMath, FastMathImpliesTheFourUnlessGiven) {
  Options o = ok({"-use_fast_math", "x.cu"});
  EXPECT_TRUE(o.fastMath);
  EXPECT_TRUE(o.ftz);
  EXPECT_FALSE(o.precDiv);
  EXPECT_FALSE(o.precSqrt);
  EXPECT_TRUE(o.fmad);
  // Given before or after it, an explicit value wins (nvcc 13's cicc line).
  o = ok({"-prec-div=true", "--use_fast_math", "--ftz", "false", "-fmad=false", "x.cu"});
  EXPECT_TRUE(o.fastMath);
  EXPECT_FALSE(o.ftz);
  EXPECT_TRUE(o.precDiv);
  EXPECT_FALSE(o.precSqrt);
  EXPECT_FALSE(o.fmad);
}

TEST(DeviceMath, ValuesAreTrueOrFalse) {
  EXPECT_EQ(fails({"-ftz=1", "x.cu"}),
            "invalid value '1' for option '-ftz'; expected one of: true, false");
  EXPECT_TRUE(contains(fails({"--prec-sqrt=yes", "x.cu"}), "'-prec-sqrt'"));
  ParseResult r = parse({"-fmad=false", "-fmad=true", "x.cu"});
  ASSERT_TRUE(r);
  EXPECT_TRUE(r.options.fmad);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_TRUE(contains(r.warnings[0], "'-fmad'")) << r.warnings[0];
}

TEST(DeviceMath, RegistersAndResourceUsage) {
  Options o = ok({"-maxrregcount=32", "--resource-usage", "x.cu"});
  EXPECT_EQ(o.maxRegCount, 32u);
  EXPECT_TRUE(o.resourceUsage);
  EXPECT_EQ(ok({"--maxrregcount", "64", "x.cu"}).maxRegCount, 64u);
  EXPECT_TRUE(contains(fails({"-maxrregcount=many", "x.cu"}), "'-maxrregcount'"));
}

TEST(SeparateCompilation, RdcDcAndDlink) {
  EXPECT_FALSE(ok({"x.cu"}).rdc);
  EXPECT_TRUE(ok({"-rdc=true", "-c", "x.cu"}).rdc);
  EXPECT_TRUE(ok({"--relocatable-device-code", "true", "x.cu"}).rdc);
  EXPECT_FALSE(ok({"-rdc=true", "-rdc=false", "x.cu"}).rdc);
  Options dc = ok({"-dc", "x.cu"});
  EXPECT_TRUE(dc.rdc);
  EXPECT_EQ(dc.phase, Phase::Compile);
  EXPECT_TRUE(ok({"--device-c", "-c", "x.cu"}).rdc); // -dc -c: one phase
  EXPECT_EQ(ok({"-dlink", "a.o"}).phase, Phase::DeviceLink);
  EXPECT_EQ(ok({"--device-link", "a.o"}).phase, Phase::DeviceLink);
  EXPECT_TRUE(contains(fails({"-rdc=yes", "x.cu"}), "expected one of: true, false"));
  EXPECT_EQ(ok({"-dlink", "-c", "a.o"}).phase, Phase::Compile); // as nvcc
  // A device link without targets takes the objects'; with, the command's.
  EXPECT_FALSE(ok({"-dlink", "a.o"}).targetsGiven);
  EXPECT_TRUE(ok({"-dlink", "-arch=sm_90", "a.o"}).targetsGiven);
}

TEST(Unknown, ErrorsAreOneLineWithoutPrefix) {
  for (auto args : {Strings{"-foo"}, Strings{"-c=1"}, Strings{"-arch=sm_1"},
                    Strings{"-o"}, Strings{"-std=c++99"}, Strings{"-gencode", "x"}}) {
    ParseResult r = parseCommandLine(args);
    ASSERT_FALSE(r) << args[0];
    EXPECT_FALSE(r.error.empty());
    EXPECT_EQ(r.error.find('\n'), std::string::npos) << r.error;
    EXPECT_NE(r.error.rfind("mycc", 0), 0u) << r.error;
    EXPECT_NE(r.error.back(), '\n');
  }
}

//===----------------------------------------------------------------------===//
// Help
//===----------------------------------------------------------------------===//

TEST(Help, ListsEverySupportedSpelling) {
  std::string help = helpText();
  for (const char *spelling :
       {"--output-file", "(-o)", "--compile", "(-c)", "--preprocess", "(-E)", "--ptx",
        "--cubin", "--fatbin", "--cuda", "--x", "(-x)", "--include-path", "(-I)",
        "--define-macro", "(-D)", "--undefine-macro", "(-U)", "--system-include",
        "(-isystem)", "--pre-include", "(-include)", "--std", "(-std)", "--optimize",
        "(-O)", "--debug", "(-g)", "--generate-line-info", "(-lineinfo)",
        "--library-path", "(-L)", "--library", "(-l)", "--cudart", "--compiler-options",
        "(-Xcompiler)", "--ptxas-options", "(-Xptxas)", "--linker-options", "(-Xlinker)",
        "--gpu-architecture", "(-arch)", "--gpu-code", "(-code)", "--generate-code",
        "(-gencode)", "--keep", "--keep-dir", "--dryrun", "--verbose", "(-v)",
        "--version", "(-V)", "--help", "(-h)", "--list-gpu-arch", "(-arch-ls)",
        "--list-gpu-code", "(-code-ls)", "--cuda-path", "--compiler-bindir", "(-ccbin)",
        "--extended-lambda", "--expt-extended-lambda", "--expt-relaxed-constexpr",
        "--disable-warnings", "(-w)", "--Werror", "(-Werror)"})
    EXPECT_TRUE(contains(help, spelling)) << spelling;
  EXPECT_TRUE(contains(help, "Usage"));
  EXPECT_FALSE(contains(help, "--x-language"));
}

TEST(Help, OneLinePerOption) {
  std::string help = helpText();
  std::size_t start = 0;
  int optionLines = 0;
  while (start < help.size()) {
    std::size_t end = help.find('\n', start);
    std::string line = help.substr(start, end - start);
    if (line.rfind("--", 0) == 0) {
      ++optionLines;
      EXPECT_GT(line.size(), 40u) << "no description: " << line;
    }
    start = end == std::string::npos ? help.size() : end + 1;
  }
  EXPECT_GE(optionLines, 40);
}

//===----------------------------------------------------------------------===//
// What build systems send (docs/build-systems.md)
//===----------------------------------------------------------------------===//

TEST(BuildSystems, ForwardUnknownToHostCompiler) {
  EXPECT_EQ(fails({"-fopenmp", "x.cu"}), "unknown option '-fopenmp'");
  // Wherever the flag is; each unknown option as one word, in order among
  // the -Xcompiler options; a separate word after it stays an input.
  Options o = ok({"-fopenmp", "-Xcompiler", "-Wall", "-fvisibility=hidden",
                  "-forward-unknown-to-host-compiler", "x.cu"});
  EXPECT_EQ(o.xcompiler, (Strings{"-fopenmp", "-Wall", "-fvisibility=hidden"}));
  EXPECT_TRUE(o.xlinker.empty());
  EXPECT_EQ(o.inputs, Strings{"x.cu"});
  // nvcc options mycc does not implement are not unknown.
  EXPECT_TRUE(contains(fails({"--forward-unknown-to-host-compiler", "-optix-ir"}),
                       "not supported"));
}

TEST(BuildSystems, ForwardUnknownToHostLinker) {
  Options o = ok({"-forward-unknown-to-host-linker", "-Wl,--gc-sections", "x.o"});
  EXPECT_EQ(o.xlinker, Strings{"-Wl,--gc-sections"});
  EXPECT_TRUE(o.xcompiler.empty());
  // Both: to both, as nvcc 13.0 does.
  o = ok({"-forward-unknown-to-host-linker", "-forward-unknown-to-host-compiler", "-pthread"});
  EXPECT_EQ(o.xlinker, Strings{"-pthread"});
  EXPECT_EQ(o.xcompiler, Strings{"-pthread"});
}

TEST(BuildSystems, XcompilerEscapedCommas) {
  // Meson: -Xcompiler=-Wl\,-rpath\,/r; -Xlinker keeps nvcc's plain split.
  EXPECT_EQ(ok({"-Xcompiler=-Wl\\,-rpath\\,/r,-fPIC"}).xcompiler,
            (Strings{"-Wl,-rpath,/r", "-fPIC"}));
  EXPECT_EQ(ok({"-Xlinker=-soname,libx.so"}).xlinker, (Strings{"-soname", "libx.so"}));
}

TEST(BuildSystems, SharedDeviceDebugAndAccepted) {
  EXPECT_TRUE(ok({"-shared"}).shared);
  EXPECT_TRUE(ok({"--shared"}).shared);
  EXPECT_FALSE(ok({}).shared);
  EXPECT_TRUE(ok({"-G"}).deviceDebug);
  EXPECT_TRUE(ok({"--device-debug"}).deviceDebug);
  ok({"-Wno-deprecated-gpu-targets", "--Wno-deprecated-gpu-targets"});
  EXPECT_EQ(ok({"--std=c++17"}).std, "c++17");
  EXPECT_EQ(ok({"-std=c++03"}).std, "c++03");
  Options o = ok({"-Werror", "all-warnings", "x.cu"});
  EXPECT_TRUE(o.warningsAsErrors);
  EXPECT_EQ(o.inputs, Strings{"x.cu"});
}

TEST(BuildSystems, Run) {
  Options o = ok({"--run", "\"/tmp/a.exe\"", "--run-args", "1,2"});
  EXPECT_TRUE(o.run);
  EXPECT_EQ(o.inputs, Strings{"\"/tmp/a.exe\""});
  EXPECT_EQ(o.runArgs, (Strings{"1", "2"}));
  EXPECT_TRUE(contains(fails({"-run", "-c", "x.cu"}), "-run links and runs"));
}

// Writes `text` to a temporary file and returns its name.
std::string optionsFile(const std::string &name, const std::string &text) {
  std::string path = testing::TempDir() + name;
  FILE *f = std::fopen(path.c_str(), "wb");
  EXPECT_NE(f, nullptr) << path;
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  return path;
}

TEST(BuildSystems, OptionsFileWords) {
  // nvcc 13.0's reading, measured: words, "..." groups, \ escapes, then each
  // word unquoted once more.
  std::string file = optionsFile(
      "mycc-optf-words.txt",
      "-DA=1 \"-DB=two words\"\n  -I/o1\t-DC=\\\"q\\\" -DF=\"a b\"c\n"
      "-DP=a\\\\\\\\b -DR=x\"\\\\\"y -DE=x\\y\n"
      "\"--generate-code=arch=compute_80,code=[compute_80,sm_80]\" x.cu");
  Options o = ok({"--options-file", file});
  EXPECT_EQ(o.macros, (Strings{"-DA=1", "-DB=two words", "-DC=q", "-DF=a bc", "-DP=a\\b",
                               "-DR=x\"y", "-DE=xy"}));
  EXPECT_EQ(o.includeDirs, Strings{"/o1"});
  EXPECT_EQ(o.inputs, Strings{"x.cu"});
  ASSERT_EQ(o.targets.size(), 1u);
  EXPECT_EQ(o.targets[0].virtualArch.str(), "compute_80");
}

TEST(BuildSystems, OptionsFileNestingAndLists) {
  std::string inner = optionsFile("mycc-optf-inner.txt", "-DINNER -isystem=/sys");
  std::string outer = optionsFile("mycc-optf-outer.txt", "-optf " + inner + " -DOUTER");
  std::string second = optionsFile("mycc-optf-second.txt", "-DSECOND");
  Options o = ok({"-DFIRST", "-optf=" + outer + "," + second, "-DLAST"});
  EXPECT_EQ(o.macros, (Strings{"-DFIRST", "-DINNER", "-DOUTER", "-DSECOND", "-DLAST"}));
  EXPECT_EQ(o.systemIncludeDirs, Strings{"/sys"});
  EXPECT_EQ(ok({"-optf", optionsFile("mycc-optf-empty.txt", "")}).inputs, Strings{});
  EXPECT_EQ(fails({"-optf", "/nonexistent/options.txt"}),
            "cannot read options file '/nonexistent/options.txt'");
  std::string loop = testing::TempDir() + "mycc-optf-loop.txt";
  optionsFile("mycc-optf-loop.txt", "-optf " + loop);
  EXPECT_TRUE(contains(fails({"-optf", loop}), "nested more than 32 deep"));
  EXPECT_TRUE(contains(fails({"--options-file"}), "expects a value"));
}

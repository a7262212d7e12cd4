// Job graphs for representative command lines, checked without running
// anything: which jobs, in which order, and the edges between them.
#include "Graph.h"
#include "InternalTools.h"
#include "Options.h"
#include "Planner.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

using namespace mycc;
using namespace mycc::driver;

namespace {

using Strings = std::vector<std::string>;

// Every file exists.
class FakeProbe : public InputProbe {
public:
  bool exists(const std::string &) const override { return true; }
};

Toolkit testToolkit() {
  Toolkit t;
  t.cudaPath = MYCC_TEST_CUDA_PATH;
  t.ptxas = t.cudaPath + "/bin/ptxas";
  t.nvlink = t.cudaPath + "/bin/nvlink";
  t.linkStub = t.cudaPath + "/bin/crt/link.stub";
  t.prelinkStub = t.cudaPath + "/bin/crt/prelink.stub";
  t.hostCompiler = "/usr/bin/g++";
  t.prefix = "/opt/mycc";
  t.self = "/opt/mycc/bin/mycc";
  t.prelude = "/opt/mycc/include/mycc/prelude.h";
  t.version = {13, 0, 88};
  return t;
}

// A temporary directory of this process's own, removed at exit: ctest runs
// the cases as processes side by side, and a scan's manifest lives there.
// The name is never destroyed: the exit handler runs after the static
// destructors registered later, and still reads it.
const std::string &processTempDir() {
  static const std::string *dir = [] {
    std::string pattern = ::testing::TempDir() + "mycc-planner-XXXXXX";
    if (!mkdtemp(pattern.data())) return new std::string(::testing::TempDir());
    std::atexit([] { std::filesystem::remove_all(processTempDir()); });
    return new std::string(pattern);
  }();
  return *dir;
}

struct Planned {
  Graph graph;
  std::string error;
  bool ok = false;

  // The kinds of the jobs, in plan order.
  std::vector<std::string> kinds() const {
    std::vector<std::string> out;
    for (const Job &job : graph.jobs()) out.push_back(jobKindName(job.kind));
    return out;
  }
  std::vector<const Job *> of(JobKind kind) const {
    std::vector<const Job *> out;
    for (const Job &job : graph.jobs())
      if (job.kind == kind) out.push_back(&job);
    return out;
  }
  // Whether `to` reads a file `from` writes (an edge).
  bool edge(const Job *from, const Job *to) const {
    unsigned index = 0;
    while (&graph.jobs()[index] != from) ++index;
    return std::find(to->deps.begin(), to->deps.end(), index) != to->deps.end();
  }
  // Runs what follows a scan-device-code job that found `manifest`.
  bool afterScan(const std::string &manifest) {
    for (unsigned i = 0; i < graph.jobs().size(); ++i)
      if (const Graph::Extension *extend = graph.extensionAfter(i)) {
        std::FILE *f = std::fopen(graph.jobs()[i].outputs[0].c_str(), "w");
        std::fputs(manifest.c_str(), f);
        std::fclose(f);
        return (*extend)(graph, error);
      }
    return false;
  }
  Options options;
  Toolkit toolkit = testToolkit();
  std::string tempDir = processTempDir();
};

// Planned in place: the graph's extensions refer to its options.
void plan(Planned &p, const Strings &args) {
  ParseResult parsed = parseCommandLine(args);
  EXPECT_TRUE(parsed) << parsed.error;
  p.options = parsed.options;
  p.toolkit.hostCompilerPipeline = !p.options.hostInProcess; // as discovered
  p.ok = planGraph(p.options, p.toolkit, p.tempDir, FakeProbe(), p.graph,
                   p.error);
}

Planned plan(const Strings &args) {
  Planned p;
  ParseResult parsed = parseCommandLine(args);
  EXPECT_TRUE(parsed) << parsed.error;
  static Options options;
  options = parsed.options;
  p.toolkit.hostCompilerPipeline = !options.hostInProcess; // as discovered
  p.ok = planGraph(options, p.toolkit, "/tmp/t", FakeProbe(), p.graph, p.error);
  return p;
}

std::string word(const Job &job, const std::string &option) {
  for (size_t i = 0; i + 1 < job.command.size(); ++i)
    if (job.command[i] == option) return job.command[i + 1];
  return "";
}

// --keep: nvcc's steps and files (docs/build-systems.md, "sccache"), in the
// shape sccache reads from --dryrun --keep; each named step maps back to its
// -cc1 tool, in mycc's order and in the order sccache gives the words.
TEST(Planner, KeepHasNvccSteps) {
  Planned p;
  p.tempDir = ".";
  plan(p, {"--keep", "-c", "-arch=sm_90", "x.cu", "-o", "x.o"});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.kinds(),
            (Strings{"preprocess-host", "preprocess-device", "compile-device",
                     "ptxas", "bundle", "lower-host", "compile-host"}));
  const Job *pp = p.of(JobKind::PreprocessDevice)[0];
  const Job *cicc = p.of(JobKind::CompileDevice)[0];
  const Job *ptxas = p.of(JobKind::Ptxas)[0];
  const Job *bundle = p.of(JobKind::Bundle)[0];
  const Job *lower = p.of(JobKind::LowerHost)[0];
  const Job *host = p.of(JobKind::CompileHost)[0];
  EXPECT_EQ(word(*pp, "-o"), "x.compute_90.cpp1.ii");
  EXPECT_TRUE(p.edge(pp, cicc));
  EXPECT_TRUE(p.edge(bundle, host)); // the lowered unit includes its text
  const Strings &c = cicc->command;
  EXPECT_EQ(c[0], "/opt/mycc/libexec/mycc/cicc");
  ASSERT_GE(c.size(), 4u);
  EXPECT_EQ(Strings(c.end() - 3, c.end()),
            (Strings{"x.compute_90.cpp1.ii", "-o", "x.compute_90.ptx"}));
  EXPECT_EQ(ptxas->command[ptxas->command.size() - 3], "x.compute_90.ptx");
  EXPECT_EQ(bundle->command[0], "/opt/mycc/libexec/mycc/fatbinary");
  EXPECT_EQ(word(*bundle, "-fatbin-text"), "x.fatbin.c");
  EXPECT_EQ(lower->command[0], "/opt/mycc/libexec/mycc/cudafe++");
  EXPECT_EQ(lower->command.back(), "x.cpp4.ii");
  EXPECT_EQ(word(*lower, "--gen_c_file_name"), "x.cudafe1.cpp");
  EXPECT_EQ(word(*lower, "-fatbin-text"), "x.fatbin.c");
  EXPECT_EQ(host->command[3], "c++"); // g++ -c -x c++

  Strings internal = internalFormOf(c);
  EXPECT_EQ(Strings(internal.begin() + 1, internal.begin() + 3),
            (Strings{"-cc1", "compile-device"}));
  EXPECT_EQ(internal.back(), "x.compute_90.cpp1.ii");
  auto dashes = std::find(internal.begin(), internal.end(), "--");
  EXPECT_EQ(*(dashes - 1), "x.compute_90.ptx");
  EXPECT_EQ(*(dashes - 2), "-o");

  // sccache's cudafe++ line: --gen_module_id_file added before
  // --module_id_file_name, the outputs after the other words.
  Strings cached = lower->command;
  auto id = std::find(cached.begin(), cached.end(), "--module_id_file_name");
  ASSERT_NE(id, cached.end());
  cached.insert(id, "--gen_module_id_file");
  Strings lowered = internalFormOf(cached);
  EXPECT_EQ(lowered[2], "lower-host");
  EXPECT_EQ(std::count(lowered.begin(), lowered.end(), "--gen_module_id_file"), 0);
  EXPECT_EQ(std::count(lowered.begin(), lowered.end(), "--gen_c_file_name"), 0);
  auto split = std::find(lowered.begin(), lowered.end(), "--");
  Strings options(lowered.begin() + 3, split);
  auto value = [&](const char *option) {
    auto it = std::find(options.begin(), options.end(), option);
    return it == options.end() || it + 1 == options.end() ? std::string()
                                                          : *(it + 1);
  };
  EXPECT_EQ(value("-o"), "x.cudafe1.cpp");
  EXPECT_EQ(value("-module-id-file"), "x.module_id");
  EXPECT_EQ(lowered.back(), "x.cpp4.ii");

  // Without --keep: mycc's own plan.
  Planned plain = plan({"-c", "-arch=sm_90", "x.cu", "-o", "x.o"});
  ASSERT_TRUE(plain.ok) << plain.error;
  EXPECT_EQ(plain.of(JobKind::PreprocessDevice).size(), 0u);
  EXPECT_EQ(plain.of(JobKind::CompileDevice)[0]->command[1], "-cc1");
}

// nvcc's host half: the host compiler preprocesses, mycc lowers the text,
// the host compiler compiles it, and the fat binary goes into its object.
TEST(Planner, WholeProgram) {
  Planned p = plan({"app.cu", "-arch=sm_80", "-o", "app"});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.kinds(), (Strings{"preprocess-host", "compile-device", "ptxas",
                                "bundle", "lower-host", "compile-host",
                                "embed-device-code", "link"}));
  const Job *preprocess = p.of(JobKind::PreprocessHost)[0];
  const Job *lower = p.of(JobKind::LowerHost)[0];
  const Job *host = p.of(JobKind::CompileHost)[0];
  const Job *embed = p.of(JobKind::EmbedDeviceCode)[0];
  EXPECT_EQ(preprocess->command[0], "/usr/bin/g++");
  EXPECT_FALSE(preprocess->inProcess);
  EXPECT_TRUE(p.edge(preprocess, lower));
  EXPECT_TRUE(p.of(JobKind::CompileDevice)[0]->deps.empty());
  EXPECT_TRUE(p.edge(lower, host));
  // The host compiler runs beside the device side: only the embedding
  // waits for both.
  EXPECT_EQ(host->deps.size(), 1u);
  EXPECT_EQ(host->command[0], "/usr/bin/g++");
  EXPECT_FALSE(host->inProcess);
  EXPECT_TRUE(p.edge(host, embed));
  EXPECT_TRUE(p.edge(p.of(JobKind::Bundle)[0], embed));
  EXPECT_EQ(word(*embed, "-fatbin"), p.of(JobKind::Bundle)[0]->outputs[0]);
  EXPECT_TRUE(embed->inProcess);
  EXPECT_TRUE(p.edge(embed, p.of(JobKind::Link)[0]));
  EXPECT_NE(std::find(lower->command.begin(), lower->command.end(),
                      "-device-code-later"),
            lower->command.end());

  // Under the host compiler's link-time optimisation the lowered unit
  // includes the bundle's C text of the fat binary, and the host compiler
  // waits for the device side.
  Planned lto = plan({"app.cu", "-arch=sm_80", "-Xcompiler", "-flto", "-o", "app"});
  ASSERT_TRUE(lto.ok) << lto.error;
  EXPECT_TRUE(lto.of(JobKind::EmbedDeviceCode).empty());
  const Job *ltoBundle = lto.of(JobKind::Bundle)[0];
  EXPECT_TRUE(lto.edge(ltoBundle, lto.of(JobKind::CompileHost)[0]));
  ASSERT_EQ(ltoBundle->outputs.size(), 2u);
  EXPECT_EQ(word(*lto.of(JobKind::LowerHost)[0], "-fatbin-text"),
            ltoBundle->outputs[1]);
  Planned noLto = plan({"app.cu", "-arch=sm_80", "-Xcompiler", "-flto=auto,-fno-lto",
                        "-o", "app"});
  ASSERT_TRUE(noLto.ok) << noLto.error;
  EXPECT_EQ(noLto.of(JobKind::EmbedDeviceCode).size(), 1u);
}

// With --host-in-process, Clang lowers and compiles the host half.
TEST(Planner, WholeProgramHostInProcess) {
  Planned p = plan({"app.cu", "-arch=sm_80", "-o", "app", "--host-in-process"});
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.kinds(), (Strings{"preprocess-host", "lower-host", "host-ir",
                                "compile-device", "ptxas", "bundle",
                                "compile-host", "link"}));
  const Job &device = *p.of(JobKind::CompileDevice)[0];
  EXPECT_TRUE(device.inProcess);
  EXPECT_EQ(device.command[0], "/opt/mycc/bin/mycc");
  EXPECT_EQ(device.command[1], "-cc1");
  EXPECT_EQ(word(device, "-arch"), "compute_80");
  EXPECT_EQ(device.target->str(), "compute_80");
  // The device side starts from the source, beside the host side.
  EXPECT_TRUE(device.deps.empty());
  const Job *host = p.of(JobKind::CompileHost)[0];
  const Job *ir = p.of(JobKind::HostIR)[0];
  EXPECT_TRUE(p.edge(p.of(JobKind::LowerHost)[0], ir));
  EXPECT_TRUE(ir->deps.size() == 1); // not the device side
  EXPECT_TRUE(p.edge(ir, host));
  EXPECT_TRUE(p.edge(p.of(JobKind::Bundle)[0], host));
  EXPECT_TRUE(p.edge(host, p.of(JobKind::Link)[0]));
  EXPECT_EQ(p.of(JobKind::Link)[0]->outputs, Strings{"app"});
  EXPECT_FALSE(p.of(JobKind::Link)[0]->inProcess);
}

TEST(Planner, CompileWithThreeGencodes) {
  Planned p = plan({"-c", "k.cu", "-gencode", "arch=compute_80,code=sm_80",
                    "-gencode", "arch=compute_89,code=sm_89", "-gencode",
                    "arch=compute_90,code=[sm_90,compute_90]"});
  ASSERT_TRUE(p.ok) << p.error;
  auto devices = p.of(JobKind::CompileDevice);
  auto ptxas = p.of(JobKind::Ptxas);
  ASSERT_EQ(devices.size(), 3u);
  ASSERT_EQ(ptxas.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(p.edge(devices[i], ptxas[i]));
  const Job *bundle = p.of(JobKind::Bundle)[0];
  // Cubins first, then the PTX: nvcc's container order.
  ASSERT_EQ(bundle->inputs.size(), 4u);
  EXPECT_EQ(bundle->inputs[3], devices[2]->outputs[0]);
  EXPECT_EQ(bundle->deps.size(), 4u);
  EXPECT_EQ(p.of(JobKind::EmbedDeviceCode)[0]->outputs, Strings{"k.o"});
  EXPECT_TRUE(p.of(JobKind::Link).empty());
}

TEST(Planner, SeparateCompilationAndDeviceLink) {
  // nvcc's format: PTX, a relocatable cubin (ptxas --compile-only) and the
  // relocatable fat binary the lowered unit embeds.
  Planned dc = plan({"-dc", "a.cu", "-arch=sm_90", "-o", "a.o"});
  ASSERT_TRUE(dc.ok) << dc.error;
  EXPECT_EQ(dc.kinds(), (Strings{"preprocess-host", "compile-device", "ptxas",
                                 "bundle", "lower-host", "compile-host",
                                 "embed-device-code"}));
  const Job &ptxas = *dc.of(JobKind::Ptxas)[0];
  EXPECT_NE(std::find(ptxas.command.begin(), ptxas.command.end(),
                      "--compile-only"),
            ptxas.command.end());
  const Job &lower = *dc.of(JobKind::LowerHost)[0];
  EXPECT_FALSE(word(lower, "-unit-id").empty());
  EXPECT_EQ(word(*dc.of(JobKind::EmbedDeviceCode)[0], "-relfatbin"),
            dc.of(JobKind::Bundle)[0]->outputs[0]);
  EXPECT_EQ(dc.of(JobKind::EmbedDeviceCode)[0]->outputs, Strings{"a.o"});

  // Without targets on the command line, what the objects hold decides the
  // device link: a job finds it, then the rest is planned: nvlink per SM,
  // the fat binary with its C text, link.stub through the host compiler.
  Planned dlink;
  plan(dlink, {"-dlink", "a.o", "b.o", "-o", "d.o"});
  ASSERT_TRUE(dlink.ok) << dlink.error;
  EXPECT_EQ(dlink.kinds(), Strings{"scan-device-code"});
  EXPECT_EQ(dlink.graph.jobs()[0].inputs, (Strings{"a.o", "b.o"}));
  ASSERT_TRUE(dlink.afterScan("relfatbin sm_90,compute_90\nrelfatbin sm_90\n"))
      << dlink.error;
  EXPECT_EQ(dlink.kinds(), (Strings{"scan-device-code", "device-link",
                                    "bundle", "device-link-host"}));
  const Job &nvlink = *dlink.of(JobKind::DeviceLink)[0];
  EXPECT_EQ(nvlink.target->str(), "sm_90");
  EXPECT_EQ(nvlink.command[0], std::string(MYCC_TEST_CUDA_PATH) + "/bin/nvlink");
  const Job &stub = *dlink.of(JobKind::DeviceLinkHost)[0];
  EXPECT_EQ(stub.outputs, Strings{"d.o"});
  EXPECT_TRUE(stub.inProcess);
  EXPECT_EQ(word(stub, "-link-stub"),
            std::string(MYCC_TEST_CUDA_PATH) + "/bin/crt/link.stub");
  EXPECT_TRUE(dlink.edge(&nvlink, &stub));

  // Both kinds in one link: an error.
  Planned mixed;
  plan(mixed, {"-dlink", "a.o", "b.o", "-o", "d.o"});
  EXPECT_FALSE(mixed.afterScan("relfatbin sm_90\nimage compute_90 sm_90\n"));
}

// -r: nvlink -r per SM of what the objects hold, the fat binary as the C
// text of a unit, prelink.stub with the output's module id, then the host
// compiler's -r of that object and the inputs' objects.
TEST(Planner, RelocatableLink) {
  Planned r;
  plan(r, {"-r", "a.cu", "b.o", "-o", "ab.o"});
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_TRUE(r.afterScan("relfatbin sm_90,compute_90\n")) << r.error;
  EXPECT_EQ(r.kinds(), (Strings{"preprocess-host", "compile-device", "ptxas",
                                "bundle", "lower-host", "compile-host",
                                "embed-device-code", "scan-device-code", "device-link", "bundle",
                                "device-link-host", "link"}));
  const Job &nvlink = *r.of(JobKind::DeviceLink)[0];
  EXPECT_NE(std::find(nvlink.command.begin(), nvlink.command.end(), "-r"),
            nvlink.command.end());
  EXPECT_EQ(std::count_if(nvlink.command.begin(), nvlink.command.end(),
                          [](const std::string &w) {
                            return w.rfind("--register-link-binaries", 0) == 0;
                          }),
            0);
  const Job &stub = *r.of(JobKind::DeviceLinkHost)[0];
  EXPECT_EQ(word(stub, "-link-stub"),
            std::string(MYCC_TEST_CUDA_PATH) + "/bin/crt/prelink.stub");
  EXPECT_EQ(word(stub, "-module-id").rfind("_mycc_", 0), 0u);
  EXPECT_TRUE(word(stub, "-register").empty());
  const Job &link = *r.of(JobKind::Link)[0];
  EXPECT_EQ(link.outputs, Strings{"ab.o"});
  EXPECT_EQ(Strings(link.command.begin(), link.command.begin() + 5),
            (Strings{"/usr/bin/g++", "-m64", "-r", "-nostdlib", "-Wl,--start-group"}));
  EXPECT_EQ(link.command[5], stub.outputs[0]); // the linked unit first
  EXPECT_TRUE(r.edge(&stub, &link));
  // The unit compiled here is relocatable device code.
  const Job &ptxas = *r.of(JobKind::Ptxas)[0];
  EXPECT_NE(std::find(ptxas.command.begin(), ptxas.command.end(), "--compile-only"),
            ptxas.command.end());

  // Only PTX: nvlink -r would write nothing; the objects are joined as
  // they are, and the program's device link links their code.
  Planned ptx;
  plan(ptx, {"-r", "a.o", "-arch=compute_90", "-code=compute_90", "-o", "x.o"});
  ASSERT_TRUE(ptx.ok) << ptx.error;
  ASSERT_TRUE(ptx.afterScan("relfatbin compute_90\n")) << ptx.error;
  EXPECT_EQ(ptx.kinds(), (Strings{"scan-device-code", "link"}));
  // -dlto's bitcode is not nvlink's.
  Planned lto;
  plan(lto, {"-r", "a.o", "-o", "x.o"});
  EXPECT_FALSE(lto.afterScan("image compute_90 sm_90\n"));
}

TEST(Planner, SeparateCompilationWithDeviceLto) {
  Planned dc = plan({"-dc", "-dlto", "a.cu", "-arch=sm_90", "-o", "a.o"});
  ASSERT_TRUE(dc.ok) << dc.error;
  EXPECT_EQ(dc.kinds(), (Strings{"preprocess-host", "compile-device",
                                 "lower-host", "compile-host",
                                 "embed-device-code"}));
  EXPECT_EQ(word(*dc.of(JobKind::EmbedDeviceCode)[0], "-rdc-image"),
            dc.of(JobKind::CompileDevice)[0]->outputs[0]);
  const Job &device = *dc.of(JobKind::CompileDevice)[0];
  EXPECT_NE(std::find(device.command.begin(), device.command.end(), "-rdc"),
            device.command.end());
  EXPECT_FALSE(word(device, "-unit-id").empty());

  Planned dlink;
  plan(dlink, {"-dlink", "a.o", "b.o", "-o", "d.o"});
  ASSERT_TRUE(dlink.ok) << dlink.error;
  ASSERT_TRUE(dlink.afterScan("image compute_90 sm_90\nimage compute_90 sm_90\n"))
      << dlink.error;
  EXPECT_EQ(dlink.kinds(), (Strings{"scan-device-code", "device-link", "ptxas",
                                    "bundle", "device-link-host"}));
  // Without targets on the command line: those the objects carry.
  EXPECT_EQ(dlink.of(JobKind::DeviceLink)[0]->target->str(), "compute_90");
  EXPECT_EQ(dlink.of(JobKind::DeviceLinkHost)[0]->outputs, Strings{"d.o"});
}

TEST(Planner, RdcProgramInOneCommand) {
  Planned p = plan({"-rdc=true", "a.cu", "b.cu", "-gencode",
                    "arch=compute_80,code=sm_80", "-gencode",
                    "arch=compute_90,code=sm_90", "-o", "app"});
  ASSERT_TRUE(p.ok) << p.error;
  auto links = p.of(JobKind::DeviceLink);
  ASSERT_EQ(links.size(), 2u);
  auto hosts = p.of(JobKind::EmbedDeviceCode);
  ASSERT_EQ(hosts.size(), 2u);
  // Each arch's device link reads both units' objects.
  for (const Job *link : links)
    for (const Job *host : hosts) EXPECT_TRUE(p.edge(host, link));
  const Job *final = p.of(JobKind::Link)[0];
  EXPECT_TRUE(p.edge(p.of(JobKind::DeviceLinkHost)[0], final));
  // Two units, two ids.
  EXPECT_NE(word(*p.of(JobKind::LowerHost)[0], "-unit-id"),
            word(*p.of(JobKind::LowerHost)[1], "-unit-id"));
}

TEST(Planner, MixedInputsLink) {
  Planned p;
  plan(p, {"k.cu", "main.cpp", "lib.o", "-arch=sm_80", "-o", "app"});
  ASSERT_TRUE(p.ok) << p.error;
  // lib.o might hold relocatable device code: the link waits for the scan.
  EXPECT_TRUE(p.of(JobKind::Link).empty());
  ASSERT_EQ(p.of(JobKind::ScanDeviceCode).size(), 1u);
  EXPECT_EQ(p.of(JobKind::ScanDeviceCode)[0]->inputs, Strings{"lib.o"});
  ASSERT_TRUE(p.afterScan("")) << p.error;
  const Job *source = p.of(JobKind::CompileSource)[0];
  EXPECT_EQ(source->command[0], "/usr/bin/g++");
  const Job *link = p.of(JobKind::Link)[0];
  EXPECT_TRUE(p.edge(source, link));
  EXPECT_TRUE(p.edge(p.of(JobKind::EmbedDeviceCode)[0], link));
  EXPECT_NE(std::find(link->inputs.begin(), link->inputs.end(), "lib.o"),
            link->inputs.end());
  // lib.o has no relocatable device code: no device link.
  EXPECT_TRUE(p.of(JobKind::DeviceLink).empty());
}

TEST(Planner, ArchiveWithDeviceCode) {
  Planned p;
  plan(p, {"main.o", "-L", "lib", "-lkernels", "-arch=sm_90", "-o", "app"});
  ASSERT_TRUE(p.ok) << p.error;
  const Job *scan = p.of(JobKind::ScanDeviceCode)[0];
  EXPECT_NE(std::find(scan->command.begin(), scan->command.end(), "kernels"),
            scan->command.end());
  ASSERT_TRUE(p.afterScan("archive lib/libkernels.a\nimage compute_90 sm_90\n"))
      << p.error;
  const Job *link = p.of(JobKind::DeviceLink)[0];
  EXPECT_EQ(link->inputs, (Strings{"main.o", "lib/libkernels.a"}));
  EXPECT_EQ(p.of(JobKind::Link)[0]->inputs[0],
            p.of(JobKind::DeviceLinkHost)[0]->outputs[0]);
}

TEST(Planner, PreprocessAndDependencies) {
  // -E: every side's text (the device side's first), joined to stdout.
  Planned e = plan({"-E", "k.cu"});
  ASSERT_TRUE(e.ok) << e.error;
  EXPECT_EQ(e.kinds(), (Strings{"preprocess-device", "preprocess-host", "join"}));
  const Job *join = e.of(JobKind::Join)[0];
  EXPECT_EQ(join->outputs, Strings{"-"});
  EXPECT_EQ(join->inputs, (Strings{e.of(JobKind::PreprocessDevice)[0]->outputs[0],
                                   e.of(JobKind::PreprocessHost)[0]->outputs[0]}));
  EXPECT_TRUE(e.edge(e.of(JobKind::PreprocessDevice)[0], join));
  EXPECT_TRUE(e.edge(e.of(JobKind::PreprocessHost)[0], join));

  Planned m = plan({"-M", "k.cu", "-MF", "k.d"});
  ASSERT_TRUE(m.ok) << m.error;
  // The rule joins the host side's and each device side's (nvcc's too).
  EXPECT_EQ(m.kinds(), (Strings{"preprocess-host", "preprocess-device", "depfile"}));
  EXPECT_EQ(m.of(JobKind::Depfile)[0]->outputs, Strings{"k.d"});
  EXPECT_TRUE(m.edge(m.of(JobKind::PreprocessHost)[0], m.of(JobKind::Depfile)[0]));
  EXPECT_TRUE(m.edge(m.of(JobKind::PreprocessDevice)[0], m.of(JobKind::Depfile)[0]));
  Planned two = plan({"-M", "k.cu", "-gencode", "arch=compute_80,code=sm_80",
                      "-gencode", "arch=compute_90,code=sm_90"});
  ASSERT_TRUE(two.ok) << two.error;
  EXPECT_EQ(two.of(JobKind::PreprocessDevice).size(), 2u);
  EXPECT_EQ(two.of(JobKind::Depfile)[0]->inputs.size(), 3u);

  Planned md = plan({"-c", "-MD", "k.cu", "-arch=sm_80", "-o", "k.o"});
  ASSERT_TRUE(md.ok) << md.error;
  EXPECT_EQ(md.of(JobKind::Depfile)[0]->outputs, Strings{"k.d"});
}

TEST(Planner, DeviceOnlyPhases) {
  Planned ptx = plan({"-ptx", "k.cu", "-arch=sm_80"});
  ASSERT_TRUE(ptx.ok) << ptx.error;
  EXPECT_EQ(ptx.kinds(), Strings{"compile-device"});
  EXPECT_EQ(ptx.graph.jobs()[0].outputs, Strings{"k.ptx"});

  Planned cubin = plan({"-cubin", "k.cu", "-arch=sm_80"});
  ASSERT_TRUE(cubin.ok) << cubin.error;
  EXPECT_EQ(cubin.kinds(), (Strings{"compile-device", "ptxas"}));
  EXPECT_EQ(cubin.of(JobKind::Ptxas)[0]->outputs, Strings{"k.cubin"});

  Planned fatbin = plan({"-fatbin", "k.cu", "-arch=sm_80"});
  ASSERT_TRUE(fatbin.ok) << fatbin.error;
  EXPECT_EQ(fatbin.kinds(), (Strings{"compile-device", "ptxas", "bundle"}));
  EXPECT_EQ(fatbin.of(JobKind::Bundle)[0]->outputs, Strings{"k.fatbin"});

  Planned two = plan({"-ptx", "k.cu", "-gencode", "arch=compute_80,code=sm_80",
                      "-gencode", "arch=compute_90,code=sm_90"});
  EXPECT_FALSE(two.ok);
  EXPECT_NE(two.error.find("-ptx is not allowed"), std::string::npos);
}

TEST(Planner, TemporariesAreNamedOnce) {
  Planned p = plan({"x/k.cu", "y/k.cu", "-arch=sm_80"});
  ASSERT_TRUE(p.ok) << p.error;
  std::set<std::string> outputs;
  for (const Job &job : p.graph.jobs())
    for (const std::string &out : job.outputs)
      EXPECT_TRUE(outputs.insert(out).second) << out << " written twice";
}

} // namespace

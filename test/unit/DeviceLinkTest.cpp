// Relocatable device code as objects carry it (lib/Offload/DeviceLink.h):
// the offload binary round trip and what a reader refuses; the device link's
// check of the code's data layout (lib/Offload/DeviceCodegen.h).
#include "DeviceCodegen.h"
#include "DeviceLink.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

#include <gtest/gtest.h>

using namespace mycc;
using namespace mycc::offload;

namespace {

std::string writeTemp(const std::string &bytes) {
  llvm::SmallString<128> path;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("mycc-dlink", "bin", path));
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  os << bytes;
  return std::string(path);
}

RelocatableImage sample(const std::string &unit, const std::string &arch) {
  RelocatableImage image;
  image.unitId = unit;
  image.source = "dir/" + unit + ".cu";
  image.virtualArch = *parseTarget("compute_" + arch);
  image.codes = {*parseTarget("sm_" + arch), *parseTarget("compute_" + arch)};
  image.target.cpu = "sm_" + arch;
  image.target.features = "+ptx88";
  image.bitcode = std::string("BC\xC0\xDE", 4) + unit + arch;
  return image;
}

// A unit of relocatable device code as bitcode: one kernel reading and
// writing a shared array, compiled for the data layout of ABI `abi` ("" or
// "shortptr", LLVM's names).
DeviceBitcodeInput sharedMemoryUnit(const std::string &abi) {
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string ir = "target datalayout = \"" + triple.computeDataLayout(abi) + "\"\n" +
                   "target triple = \"nvptx64-nvidia-cuda\"\n" + R"(
@counts = internal addrspace(3) global [256 x i32] undef, align 4
define ptx_kernel void @swap(ptr %out, i32 %i) {
  %p = getelementptr inbounds [256 x i32], ptr addrspace(3) @counts, i32 0, i32 %i
  store i32 %i, ptr addrspace(3) %p
  %j = xor i32 %i, 1
  %q = getelementptr inbounds [256 x i32], ptr addrspace(3) @counts, i32 0, i32 %j
  %v = load i32, ptr addrspace(3) %q
  store i32 %v, ptr %out
  ret void
}
)";
  llvm::LLVMContext context;
  llvm::SMDiagnostic diag;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(ir, diag, context);
  EXPECT_TRUE(module) << diag.getMessage().str();
  DeviceBitcodeInput unit;
  unit.name = "swap.o";
  unit.source = "swap.cu";
  llvm::raw_string_ostream os(unit.bitcode);
  llvm::WriteBitcodeToFile(*module, os);
  return unit;
}

} // namespace

TEST(DeviceLinkDataLayout, SharedMemoryTakesThirtyTwoBitAddresses) {
  std::string ptx, error;
  ASSERT_TRUE(linkDeviceToPtx({sharedMemoryUnit("shortptr")}, {"sm_90", "+ptx88"}, {}, ptx,
                              error))
      << error;
  EXPECT_NE(ptx.find("st.shared.b32 \t[%r"), std::string::npos) << ptx;
  EXPECT_EQ(ptx.find("cvta.shared.u64"), std::string::npos) << ptx;
}

// Bitcode built for 64-bit shared pointers (another mycc) would be
// miscompiled by this backend: the link refuses it and says why.
TEST(DeviceLinkDataLayout, OtherLayoutIsAnError) {
  std::string ptx, error;
  EXPECT_FALSE(linkDeviceToPtx({sharedMemoryUnit("")}, {"sm_90", "+ptx88"}, {}, ptx, error));
  EXPECT_NE(error.find("data layout"), std::string::npos) << error;
  EXPECT_NE(error.find("another version of mycc"), std::string::npos) << error;
  EXPECT_TRUE(ptx.empty());
}

TEST(RelocatableImages, RoundTripOfSeveralImages) {
  std::string bytes = packRelocatableImage(sample("u1", "80")) +
                      packRelocatableImage(sample("u1", "90a")) +
                      packRelocatableImage(sample("u2", "90a"));
  std::string path = writeTemp(bytes);
  std::vector<RelocatableImage> images;
  std::string error;
  ASSERT_TRUE(readRelocatableImages(path, images, error)) << error;
  ASSERT_EQ(images.size(), 3u);
  EXPECT_EQ(images[0].unitId, "u1");
  EXPECT_EQ(images[0].virtualArch.str(), "compute_80");
  ASSERT_EQ(images[0].codes.size(), 2u);
  EXPECT_EQ(images[0].codes[0].str(), "sm_80");
  EXPECT_EQ(images[0].codes[1].str(), "compute_80");
  EXPECT_EQ(images[1].virtualArch.str(), "compute_90a");
  EXPECT_EQ(images[1].target.cpu, "sm_90a");
  EXPECT_EQ(images[1].target.features, "+ptx88");
  EXPECT_EQ(images[2].unitId, "u2");
  EXPECT_EQ(images[2].source, "dir/u2.cu");
  EXPECT_EQ(images[2].bitcode, sample("u2", "90a").bitcode);
  EXPECT_EQ(images[2].file, path);
  llvm::sys::fs::remove(path);
}

TEST(RelocatableImages, FileWithoutDeviceCodeHasNone) {
  std::string path = writeTemp("just some text, not an object");
  std::vector<RelocatableImage> images;
  std::string error;
  EXPECT_TRUE(readRelocatableImages(path, images, error)) << error;
  EXPECT_TRUE(images.empty());
  llvm::sys::fs::remove(path);
}

TEST(RelocatableImages, MissingFileIsAnError) {
  std::vector<RelocatableImage> images;
  std::string error;
  EXPECT_FALSE(readRelocatableImages("/nonexistent/x.o", images, error));
  EXPECT_NE(error.find("cannot read /nonexistent/x.o"), std::string::npos)
      << error;
}

TEST(RelocatableImages, MalformedImageIsAnError) {
  RelocatableImage bad = sample("u1", "80");
  bad.unitId.clear(); // an image must name its unit
  std::string path = writeTemp(packRelocatableImage(bad));
  std::vector<RelocatableImage> images;
  std::string error;
  EXPECT_FALSE(readRelocatableImages(path, images, error));
  EXPECT_NE(error.find("malformed relocatable device code"), std::string::npos)
      << error;
  llvm::sys::fs::remove(path);
}

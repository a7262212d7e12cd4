#include "Targets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

using namespace mycc;

namespace {

Target parsed(std::string_view text) {
  std::optional<Target> target = parseTarget(text);
  EXPECT_TRUE(target.has_value()) << text;
  return target.value_or(Target{});
}

} // namespace

TEST(Targets, ParsesRealAndVirtualTargets) {
  Target sm80 = parsed("sm_80");
  EXPECT_FALSE(sm80.isVirtual);
  EXPECT_EQ(sm80.arch.sm, 80u);
  EXPECT_EQ(sm80.arch.suffix, ArchSuffix::None);

  Target compute90a = parsed("compute_90a");
  EXPECT_TRUE(compute90a.isVirtual);
  EXPECT_EQ(compute90a.arch.sm, 90u);
  EXPECT_EQ(compute90a.arch.suffix, ArchSuffix::ArchSpecific);

  Target sm100f = parsed("sm_100f");
  EXPECT_FALSE(sm100f.isVirtual);
  EXPECT_EQ(sm100f.arch.sm, 100u);
  EXPECT_EQ(sm100f.arch.suffix, ArchSuffix::FamilySpecific);
  EXPECT_EQ(sm100f.arch.major(), 10u);
  EXPECT_EQ(sm100f.arch.minor(), 0u);

  Target sm121 = parsed("sm_121");
  EXPECT_EQ(sm121.arch.major(), 12u);
  EXPECT_EQ(sm121.arch.minor(), 1u);
}

TEST(Targets, RejectsMalformedNames) {
  for (const char *bad :
       {"", "sm_", "compute_", "sm80", "sm_8", "sm_1000", "sm_080", "SM_80",
        "sm_80A", "sm_80F", "sm_80b", "sm_80af", "sm_80 ", " sm_80", "sm_8x",
        "compute_90aa", "lto_80", "compute-80", "sm_-80", "sm_a", "sm_f",
        "gfx90a", "sm_80\n"})
    EXPECT_FALSE(parseTarget(bad).has_value()) << '"' << bad << '"';
}

TEST(Targets, PrintsNames) {
  EXPECT_EQ((GpuArch{90, ArchSuffix::ArchSpecific}.str()), "90a");
  EXPECT_EQ((GpuArch{100, ArchSuffix::FamilySpecific}.str()), "100f");
  EXPECT_EQ((GpuArch{75, ArchSuffix::None}.str()), "75");
  EXPECT_EQ((Target{true, {90, ArchSuffix::ArchSpecific}}.str()), "compute_90a");
  EXPECT_EQ((Target{false, {80, ArchSuffix::None}}.str()), "sm_80");
  EXPECT_EQ((Target{false, {121, ArchSuffix::FamilySpecific}}.str()),
            "sm_121f");
}

TEST(Targets, ParseAndPrintRoundTripForEveryKnownArch) {
  for (const GpuArch &arch : knownArchs()) {
    for (bool isVirtual : {false, true}) {
      Target target{isVirtual, arch};
      std::optional<Target> back = parseTarget(target.str());
      ASSERT_TRUE(back.has_value()) << target.str();
      EXPECT_EQ(*back, target) << target.str();
    }
  }
}

// The list CUDA 13.0 prints (nvcc --list-gpu-code) plus the suffixed forms
// its --gpu-architecture help allows, written out independently here.
TEST(Targets, KnownArchsAreCuda13sList) {
  std::vector<std::string> names;
  for (const GpuArch &arch : knownArchs())
    names.push_back(arch.str());
  std::vector<std::string> expected = {
      "75",   "80",   "86",   "87",   "88",   "89",   "90",   "90a",
      "100",  "100a", "100f", "103",  "103a", "103f", "110",  "110a",
      "110f", "120",  "120a", "120f", "121",  "121a", "121f"};
  EXPECT_EQ(names, expected);
  EXPECT_TRUE(std::is_sorted(knownArchs().begin(), knownArchs().end()));
}

TEST(Targets, KnownArchQueries) {
  EXPECT_TRUE(isKnownArch({75, ArchSuffix::None}));
  EXPECT_TRUE(isKnownArch({90, ArchSuffix::ArchSpecific}));
  EXPECT_TRUE(isKnownArch({103, ArchSuffix::FamilySpecific}));
  EXPECT_TRUE(isKnownArch({121, ArchSuffix::FamilySpecific}));
  // Dropped before CUDA 13, never existed, or no such suffix.
  EXPECT_FALSE(isKnownArch({70, ArchSuffix::None}));
  EXPECT_FALSE(isKnownArch({72, ArchSuffix::None}));
  EXPECT_FALSE(isKnownArch({101, ArchSuffix::None}));
  EXPECT_FALSE(isKnownArch({90, ArchSuffix::FamilySpecific}));
  EXPECT_FALSE(isKnownArch({80, ArchSuffix::ArchSpecific}));
  EXPECT_TRUE(isKnownArch({kDefaultSm, ArchSuffix::None}));
}

TEST(Targets, Ordering) {
  EXPECT_LT((GpuArch{90, ArchSuffix::None}), (GpuArch{90, ArchSuffix::ArchSpecific}));
  EXPECT_LT((GpuArch{90, ArchSuffix::ArchSpecific}), (GpuArch{100, ArchSuffix::None}));
  EXPECT_LT(parsed("sm_80"), parsed("compute_80"));
  EXPECT_LT(parsed("compute_80"), parsed("sm_86"));
}

namespace {

std::vector<std::string> names(const std::vector<GpuArch> &archs) {
  std::vector<std::string> out;
  for (const GpuArch &arch : archs)
    out.push_back(arch.str());
  return out;
}

} // namespace

TEST(Targets, ArchMacroValue) {
  EXPECT_EQ(archMacroValue({75, ArchSuffix::None}), 750u);
  EXPECT_EQ(archMacroValue({90, ArchSuffix::ArchSpecific}), 900u);
  EXPECT_EQ(archMacroValue({103, ArchSuffix::FamilySpecific}), 1030u);
  EXPECT_EQ(archMacroValue({121, ArchSuffix::None}), 1210u);
}

// The oldest `.version` ptxas 13.0 and LLVM 22 accept for each `.target`.
TEST(Targets, MinPtxVersion) {
  EXPECT_EQ(minPtxVersion({75, ArchSuffix::None}), 63u);
  EXPECT_EQ(minPtxVersion({80, ArchSuffix::None}), 70u);
  EXPECT_EQ(minPtxVersion({88, ArchSuffix::None}), 90u);
  EXPECT_EQ(minPtxVersion({90, ArchSuffix::None}), 78u);
  EXPECT_EQ(minPtxVersion({90, ArchSuffix::ArchSpecific}), 80u);
  EXPECT_EQ(minPtxVersion({100, ArchSuffix::None}), 86u);
  EXPECT_EQ(minPtxVersion({100, ArchSuffix::ArchSpecific}), 86u);
  EXPECT_EQ(minPtxVersion({100, ArchSuffix::FamilySpecific}), 88u);
  EXPECT_EQ(minPtxVersion({103, ArchSuffix::FamilySpecific}), 88u);
  EXPECT_EQ(minPtxVersion({110, ArchSuffix::None}), 90u);
  EXPECT_EQ(minPtxVersion({110, ArchSuffix::FamilySpecific}), 90u);
  EXPECT_EQ(minPtxVersion({120, ArchSuffix::None}), 87u);
  EXPECT_EQ(minPtxVersion({120, ArchSuffix::FamilySpecific}), 88u);
  EXPECT_EQ(minPtxVersion({121, ArchSuffix::FamilySpecific}), 88u);
  // A family target never needs less than its plain GPU.
  for (const GpuArch &arch : knownArchs()) {
    EXPECT_GE(minPtxVersion(arch), 63u) << arch.str();
    EXPECT_LE(minPtxVersion(arch), 90u) << arch.str();
    EXPECT_GE(minPtxVersion(arch), minPtxVersion({arch.sm, ArchSuffix::None}))
        << arch.str();
  }
}

// nvcc 13.0's expansion of -arch=all and -arch=all-major (nvcc --dryrun).
TEST(Targets, ArchKeywordExpansion) {
  EXPECT_EQ(names(keywordCubinArchs(ArchKeyword::All)),
            (std::vector<std::string>{"75", "80", "86", "87", "88", "89", "90",
                                      "100", "103", "110", "120", "121"}));
  EXPECT_EQ(names(keywordCubinArchs(ArchKeyword::AllMajor)),
            (std::vector<std::string>{"75", "80", "90", "100", "110", "120"}));
  EXPECT_EQ(keywordPtxArch(), (GpuArch{120, ArchSuffix::None}));
}

// __nvcc_device_query prints "%d," per GPU but the last, then "%d": sorted,
// no duplicates, no newline.
TEST(Targets, ParsesDeviceQueryOutput) {
  auto parse = [](std::string_view text) {
    std::optional<std::vector<GpuArch>> archs = parseDeviceQuery(text);
    return archs ? names(*archs) : std::vector<std::string>{"<invalid>"};
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(parse("90"), V{"90"});
  EXPECT_EQ(parse("80,90"), (V{"80", "90"}));
  EXPECT_EQ(parse("86,120\n"), (V{"86", "120"}));
  EXPECT_EQ(parse("90,90"), V{"90"});
  EXPECT_EQ(parse("70"), V{"70"}); // parsed; whether it is usable is the driver's call
  EXPECT_EQ(parse(""), V{});
  for (const char *bad : {"90,", ",90", "9", "90a", "sm_90", "nine", "90 80", "1000"})
    EXPECT_EQ(parse(bad), V{"<invalid>"}) << bad;
}

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

#include "Selection.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace mycc;

namespace {

std::vector<ImageDesc> images(std::initializer_list<const char *> names) {
  std::vector<ImageDesc> list;
  for (const char *name : names) {
    std::optional<Target> target = parseTarget(name);
    EXPECT_TRUE(target.has_value()) << name;
    list.push_back({target.value_or(Target{})});
  }
  return list;
}

// The chosen image's name, "none", or an error text if the selection is
// inconsistent (kind and image disagree, index out of range).
std::string chosen(const Selection &selection,
                   const std::vector<ImageDesc> &list) {
  if (selection.kind == Selection::Kind::None)
    return "none";
  if (selection.index >= list.size())
    return "bad index";
  const Target &target = list[selection.index].target;
  bool kindMatches = target.isVirtual == (selection.kind == Selection::Kind::PtxJit);
  return kindMatches ? target.str() : "kind mismatch for " + target.str();
}

std::string pick(unsigned deviceSm, const std::vector<ImageDesc> &list,
                 SelectionPolicy policy = {}) {
  return chosen(selectImage(deviceSm, list, policy), list);
}

// The compute capabilities of the devices CUDA 13 knows (plain numbers).
std::vector<unsigned> knownDevices() {
  std::set<unsigned> numbers;
  for (const GpuArch &arch : knownArchs())
    numbers.insert(arch.sm);
  return {numbers.begin(), numbers.end()};
}

struct Scenario {
  const char *name;
  std::vector<ImageDesc> list;
  std::map<unsigned, std::string> expected; // device SM -> chosen image
};

} // namespace

// Every device CUDA 13 knows against image sets that real builds produce;
// the expectations are written out by hand from the compatibility rules.
TEST(Selection, EveryKnownDeviceAgainstRepresentativeImageSets) {
  std::vector<Scenario> scenarios = {
      {"all-major (sm_X0 cubins + highest PTX)",
       images({"sm_75", "sm_80", "sm_90", "sm_100", "sm_110", "sm_120",
               "compute_120"}),
       {{75, "sm_75"}, {80, "sm_80"}, {86, "sm_80"}, {87, "sm_80"},
        {88, "sm_80"}, {89, "sm_80"}, {90, "sm_90"}, {100, "sm_100"},
        {103, "sm_100"}, {110, "sm_110"}, {120, "sm_120"}, {121, "sm_120"}}},
      {"-arch=sm_80 (sm_80 + compute_80)", images({"sm_80", "compute_80"}),
       {{75, "none"}, {80, "sm_80"}, {86, "sm_80"}, {87, "sm_80"},
        {88, "sm_80"}, {89, "sm_80"}, {90, "compute_80"},
        {100, "compute_80"}, {103, "compute_80"}, {110, "compute_80"},
        {120, "compute_80"}, {121, "compute_80"}}},
      {"-arch=sm_86 cubin and PTX", images({"compute_86", "sm_86"}),
       {{75, "none"}, {80, "none"}, {86, "sm_86"}, {87, "sm_86"},
        {88, "sm_86"}, {89, "sm_86"}, {90, "compute_86"},
        {100, "compute_86"}, {103, "compute_86"}, {110, "compute_86"},
        {120, "compute_86"}, {121, "compute_86"}}},
      {"PTX only", images({"compute_90", "compute_75"}),
       {{75, "compute_75"}, {80, "compute_75"}, {86, "compute_75"},
        {87, "compute_75"}, {88, "compute_75"}, {89, "compute_75"},
        {90, "compute_90"}, {100, "compute_90"}, {103, "compute_90"},
        {110, "compute_90"}, {120, "compute_90"}, {121, "compute_90"}}},
      {"-arch=sm_100f (compute_100, sm_100f, compute_100f)",
       images({"compute_100", "sm_100f", "compute_100f"}),
       {{75, "none"}, {80, "none"}, {86, "none"}, {87, "none"},
        {88, "none"}, {89, "none"}, {90, "none"}, {100, "sm_100f"},
        {103, "sm_100f"}, {110, "compute_100"}, {120, "compute_100"},
        {121, "compute_100"}}},
      {"suffixed only",
       images({"sm_90a", "compute_90a", "sm_100f", "compute_100f", "sm_120a",
               "compute_120f"}),
       {{75, "none"}, {80, "none"}, {86, "none"}, {87, "none"},
        {88, "none"}, {89, "none"}, {90, "sm_90a"}, {100, "sm_100f"},
        {103, "sm_100f"}, {110, "none"}, {120, "sm_120a"},
        {121, "compute_120f"}}},
  };
  // A cubin for every plain SM: each device gets its own.
  Scenario everySm{"a cubin per known SM", {}, {}};
  for (unsigned sm : knownDevices()) {
    everySm.list.push_back({Target{false, {sm, ArchSuffix::None}}});
    everySm.expected[sm] = "sm_" + std::to_string(sm);
  }
  scenarios.push_back(everySm);

  for (const Scenario &scenario : scenarios) {
    for (unsigned device : knownDevices()) {
      auto expected = scenario.expected.find(device);
      ASSERT_NE(expected, scenario.expected.end())
          << scenario.name << ": no expectation for device " << device;
      EXPECT_EQ(pick(device, scenario.list), expected->second)
          << scenario.name << ", device " << device;
    }
  }
}

// Each known arch, suffixed ones included, picks its own cubin on a device of
// exactly that number, and says so.
TEST(Selection, EveryKnownArchMatchesItsOwnDevice) {
  for (const GpuArch &arch : knownArchs()) {
    Target cubin{false, arch};
    auto list = std::vector<ImageDesc>{{Target{true, {75, ArchSuffix::None}}},
                                       {cubin}};
    Selection selection = selectImage(arch.sm, list);
    EXPECT_EQ(chosen(selection, list), cubin.str());
    EXPECT_NE(selection.reason.find("matches the device"), std::string::npos)
        << selection.reason;
  }
}

TEST(Selection, ArchSpecificCubinsRunOnlyOnTheirExactDevice) {
  for (const GpuArch &arch : knownArchs()) {
    if (arch.suffix != ArchSuffix::ArchSpecific)
      continue;
    auto list = std::vector<ImageDesc>{{Target{false, arch}}};
    for (unsigned device : knownDevices())
      EXPECT_EQ(pick(device, list) != "none", device == arch.sm)
          << "sm_" << arch.str() << " on " << device;
  }
  EXPECT_EQ(pick(103, images({"sm_100a"})), "none");
  EXPECT_EQ(pick(121, images({"sm_120a"})), "none");
}

TEST(Selection, FamilySpecificCubinsRunWithinTheirFamily) {
  auto sm100f = images({"sm_100f"});
  EXPECT_EQ(pick(100, sm100f), "sm_100f");
  EXPECT_EQ(pick(103, sm100f), "sm_100f");
  EXPECT_EQ(pick(110, sm100f), "none");
  EXPECT_EQ(pick(120, sm100f), "none");
  EXPECT_EQ(pick(90, sm100f), "none");

  auto sm103f = images({"sm_103f"});
  EXPECT_EQ(pick(100, sm103f), "none");
  EXPECT_EQ(pick(103, sm103f), "sm_103f");

  auto sm120f = images({"sm_120f"});
  EXPECT_EQ(pick(120, sm120f), "sm_120f");
  EXPECT_EQ(pick(121, sm120f), "sm_120f");
  EXPECT_EQ(pick(110, sm120f), "none");
}

TEST(Selection, PlainCubinsRunOnLaterMinorsOfTheirMajorOnly) {
  auto sm80 = images({"sm_80"});
  for (unsigned device : {80u, 86u, 87u, 88u, 89u})
    EXPECT_EQ(pick(device, sm80), "sm_80") << device;
  for (unsigned device : {75u, 90u, 100u, 120u})
    EXPECT_EQ(pick(device, sm80), "none") << device;
  auto sm86 = images({"sm_86"});
  EXPECT_EQ(pick(80, sm86), "none");
  EXPECT_EQ(pick(89, sm86), "sm_86");
}

TEST(Selection, SuffixedPtxRules) {
  auto compute90a = images({"compute_90a"});
  EXPECT_EQ(pick(90, compute90a), "compute_90a");
  EXPECT_EQ(pick(100, compute90a), "none");

  auto compute100f = images({"compute_100f"});
  EXPECT_EQ(pick(90, compute100f), "none");
  EXPECT_EQ(pick(100, compute100f), "compute_100f");
  EXPECT_EQ(pick(103, compute100f), "compute_100f");
  EXPECT_EQ(pick(110, compute100f), "none");
  EXPECT_EQ(pick(120, compute100f), "none");

  auto compute103f = images({"compute_103f"});
  EXPECT_EQ(pick(100, compute103f), "none");
  EXPECT_EQ(pick(103, compute103f), "compute_103f");

  auto compute100 = images({"compute_100"});
  EXPECT_EQ(pick(90, compute100), "none");
  EXPECT_EQ(pick(121, compute100), "compute_100");
}

TEST(Selection, HighestFittingImageWins) {
  EXPECT_EQ(pick(89, images({"sm_86", "sm_80", "sm_89", "sm_90"})), "sm_89");
  EXPECT_EQ(pick(88, images({"sm_86", "sm_80", "sm_89", "sm_90"})), "sm_86");
  // A higher number beats a suffix.
  EXPECT_EQ(pick(103, images({"sm_103", "sm_100f"})), "sm_103");
  EXPECT_EQ(pick(100, images({"compute_75", "compute_90", "compute_80"})),
            "compute_90");
}

TEST(Selection, SameNumberPrefersTheMoreSpecificBuild) {
  for (auto list : {images({"sm_100", "sm_100f", "sm_100a"}),
                    images({"sm_100a", "sm_100f", "sm_100"}),
                    images({"sm_100f", "sm_100a", "sm_100"})}) {
    EXPECT_EQ(pick(100, list), "sm_100a");
    EXPECT_EQ(pick(103, list), "sm_100f"); // the `a` cubin does not fit
  }
  EXPECT_EQ(pick(90, images({"sm_90", "sm_90a"})), "sm_90a");
  EXPECT_EQ(pick(90, images({"sm_90a", "sm_90"})), "sm_90a");
  EXPECT_EQ(pick(103, images({"compute_100", "compute_100f"})), "compute_100f");
  EXPECT_EQ(pick(90, images({"compute_90a", "compute_90"})), "compute_90a");
}

TEST(Selection, DuplicateImagesPickTheFirst) {
  auto list = images({"sm_80", "sm_90", "sm_90"});
  Selection selection = selectImage(90, list);
  EXPECT_EQ(selection.kind, Selection::Kind::Cubin);
  EXPECT_EQ(selection.index, 1u);
}

TEST(Selection, FittingCubinBeatsNewerPtx) {
  EXPECT_EQ(pick(86, images({"compute_86", "sm_80"})), "sm_80");
  EXPECT_EQ(pick(100, images({"compute_100f", "compute_100a", "sm_100"})),
            "sm_100");
}

// One image list, devices of different compute capabilities: each gets the
// image that fits it.
TEST(Selection, HeterogeneousDevicesChooseDifferentImages) {
  auto list = images({"sm_80", "compute_90", "sm_90", "sm_100a"});
  struct Expect {
    unsigned device;
    Selection::Kind kind;
    std::size_t index;
  };
  for (Expect e : std::vector<Expect>{{80, Selection::Kind::Cubin, 0},
                                      {86, Selection::Kind::Cubin, 0},
                                      {90, Selection::Kind::Cubin, 2},
                                      {100, Selection::Kind::Cubin, 3},
                                      {103, Selection::Kind::PtxJit, 1},
                                      {120, Selection::Kind::PtxJit, 1}}) {
    Selection selection = selectImage(e.device, list);
    EXPECT_EQ(selection.kind, e.kind) << e.device;
    EXPECT_EQ(selection.index, e.index) << e.device;
  }
  EXPECT_EQ(selectImage(75, list).kind, Selection::Kind::None);
}

TEST(Selection, ForcePtxIgnoresCubinsWheneverSomePtxFits) {
  SelectionPolicy force;
  force.forcePtx = true;
  auto list = images({"sm_90", "compute_80", "sm_80"});
  EXPECT_EQ(pick(90, list, force), "compute_80");
  EXPECT_EQ(pick(86, list, force), "compute_80");
  EXPECT_EQ(pick(90, list), "sm_90");

  Selection forced = selectImage(90, list, force);
  EXPECT_EQ(forced.kind, Selection::Kind::PtxJit);
  EXPECT_NE(forced.reason.find("forced"), std::string::npos) << forced.reason;
  EXPECT_NE(forced.reason.find("sm_90"), std::string::npos) << forced.reason;

  // No PTX fits: the cubin still runs.
  auto noPtxFits = images({"sm_90", "compute_100"});
  Selection fallback = selectImage(90, noPtxFits, force);
  EXPECT_EQ(chosen(fallback, noPtxFits), "sm_90");
  EXPECT_NE(fallback.reason.find("no PTX fits"), std::string::npos)
      << fallback.reason;
  EXPECT_EQ(pick(75, list, force), "none");
}

// CUDA_DISABLE_PTX_JIT: cubins only, whatever PTX would fit.
TEST(Selection, NoPtxChoosesOnlyCubins) {
  SelectionPolicy noPtx;
  noPtx.noPtx = true;
  auto list = images({"sm_80", "compute_80"});
  EXPECT_EQ(pick(86, list, noPtx), "sm_80");
  EXPECT_EQ(pick(90, list), "compute_80");
  Selection none = selectImage(90, list, noPtx);
  EXPECT_EQ(none.kind, Selection::Kind::None);
  EXPECT_EQ(none.reason, "no cubin for 9.x; compute_80 PTX would fit, but PTX "
                         "JIT compilation is disabled");
  EXPECT_EQ(pick(75, list, noPtx), "none");
}

TEST(Selection, Reasons) {
  EXPECT_EQ(selectImage(90, images({"sm_90"})).reason,
            "sm_90 cubin matches the device (9.0) exactly");
  EXPECT_EQ(selectImage(90, images({"sm_80", "compute_80"})).reason,
            "no cubin for 9.x; compute_80 PTX is the highest PTX <= 9.0, "
            "JIT-compiled by the driver");
  EXPECT_EQ(selectImage(90, images({"sm_80"})).reason,
            "no image fits 9.0: sm_80 cubins run only on 8.x and there is no "
            "PTX");
  EXPECT_EQ(selectImage(86, images({"sm_80"})).reason,
            "sm_80 cubin is the highest cubin that runs on the device (8.6): "
            "same major, minor 0 <= 6");
  EXPECT_EQ(selectImage(103, images({"sm_100f"})).reason,
            "sm_100f cubin is the highest cubin that runs on the device "
            "(10.3): same family, minor 0 <= 3");
  EXPECT_EQ(selectImage(103, images({"sm_100a", "compute_100"})).reason,
            "no cubin fits 10.3 (sm_100a cubins run only on 10.0); "
            "compute_100 PTX is the highest PTX <= 10.3, JIT-compiled by the "
            "driver");
  EXPECT_EQ(selectImage(80, images({"sm_86", "sm_90", "sm_90", "compute_90a",
                                    "compute_100f", "compute_86"}))
                .reason,
            "no image fits 8.0: sm_86 cubins run only on 8.x with x >= 6, "
            "sm_90 cubins run only on 9.x and compute_90a PTX needs exactly "
            "9.0, compute_100f PTX needs 10.x, compute_86 PTX needs 8.6 or "
            "newer");
  EXPECT_EQ(selectImage(90, {}).reason,
            "no image fits 9.0: there is no cubin and there is no PTX");
}

TEST(Selection, SuggestGencode) {
  EXPECT_EQ(suggestGencode(90), "-gencode arch=compute_90,code=sm_90");
  EXPECT_EQ(suggestGencode(86), "-gencode arch=compute_86,code=sm_86");
  EXPECT_EQ(suggestGencode(121), "-gencode arch=compute_121,code=sm_121");
}

// Building what suggestGencode says makes every known device run a cubin.
TEST(Selection, SuggestedGencodeFixesEveryKnownDevice) {
  for (unsigned device : knownDevices()) {
    std::string gencode = suggestGencode(device);
    std::string arch = gencode.substr(gencode.find("arch=") + 5);
    arch = arch.substr(0, arch.find(','));
    std::string code = gencode.substr(gencode.find("code=") + 5);
    auto list = images({"sm_75"});
    for (const std::string &name : {arch, code}) {
      std::optional<Target> target = parseTarget(name);
      ASSERT_TRUE(target.has_value()) << gencode;
      list.push_back({*target});
    }
    Selection selection = selectImage(device, list);
    EXPECT_EQ(selection.kind, Selection::Kind::Cubin) << gencode;
    EXPECT_EQ(list[selection.index].target.arch.sm, device) << gencode;
  }
}

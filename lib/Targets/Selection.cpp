#include "Selection.h"

#include <optional>

namespace mycc {
namespace {

// "9.0" for 90, "10.3" for 103.
std::string ccText(unsigned sm) {
  return std::to_string(sm / 10) + "." + std::to_string(sm % 10);
}

bool cubinRunsOn(const GpuArch &arch, unsigned deviceSm) {
  if (arch.suffix == ArchSuffix::ArchSpecific)
    return arch.sm == deviceSm;
  // Plain and `f` cubins: same major, device minor not lower.
  return arch.major() == deviceSm / 10 && arch.minor() <= deviceSm % 10;
}

bool ptxRunsOn(const GpuArch &arch, unsigned deviceSm) {
  switch (arch.suffix) {
  case ArchSuffix::ArchSpecific:
    return arch.sm == deviceSm;
  case ArchSuffix::FamilySpecific:
    return arch.major() == deviceSm / 10 && arch.minor() <= deviceSm % 10;
  case ArchSuffix::None:
    break;
  }
  return arch.sm <= deviceSm;
}

// Among images of the same number, the more specific build wins: a > f > plain.
unsigned specificity(ArchSuffix suffix) {
  switch (suffix) {
  case ArchSuffix::ArchSpecific:
    return 2;
  case ArchSuffix::FamilySpecific:
    return 1;
  case ArchSuffix::None:
    break;
  }
  return 0;
}

bool ranksAbove(const GpuArch &a, const GpuArch &b) {
  if (a.sm != b.sm)
    return a.sm > b.sm;
  return specificity(a.suffix) > specificity(b.suffix);
}

// Index of the best image of one kind that runs on the device; the first of
// equal images wins so that selection is stable.
std::optional<std::size_t> bestFitting(unsigned deviceSm,
                                       const std::vector<ImageDesc> &images,
                                       bool wantPtx) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < images.size(); ++i) {
    const Target &t = images[i].target;
    if (t.isVirtual != wantPtx)
      continue;
    bool fits = wantPtx ? ptxRunsOn(t.arch, deviceSm)
                        : cubinRunsOn(t.arch, deviceSm);
    if (fits && (!best || ranksAbove(t.arch, images[*best].target.arch)))
      best = i;
  }
  return best;
}

// Where a cubin can run, e.g. "sm_86 cubins run only on 8.x with x >= 6".
std::string cubinRange(const Target &t) {
  std::string text = t.str() + " cubins run only on ";
  if (t.arch.suffix == ArchSuffix::ArchSpecific)
    return text + ccText(t.arch.sm);
  text += std::to_string(t.arch.major()) + ".x";
  if (t.arch.minor() != 0)
    text += " with x >= " + std::to_string(t.arch.minor());
  return text;
}

// What a PTX image needs, e.g. "compute_90 PTX needs 9.0 or newer".
std::string ptxRequirement(const Target &t) {
  std::string text = t.str() + " PTX needs ";
  switch (t.arch.suffix) {
  case ArchSuffix::ArchSpecific:
    return text + "exactly " + ccText(t.arch.sm);
  case ArchSuffix::FamilySpecific:
    text += std::to_string(t.arch.major()) + ".x";
    if (t.arch.minor() != 0)
      text += " with x >= " + std::to_string(t.arch.minor());
    return text;
  case ArchSuffix::None:
    break;
  }
  return text + ccText(t.arch.sm) + " or newer";
}

// The distinct images of one kind (of major `onlyMajor` only, unless 0),
// described by `describe` and joined by ", "; `none` when there are none.
template <typename Describe>
std::string listImages(const std::vector<ImageDesc> &images, bool wantPtx,
                       const std::string &none, Describe describe,
                       unsigned onlyMajor = 0) {
  std::vector<Target> seen;
  std::string text;
  for (const ImageDesc &image : images) {
    const Target &t = image.target;
    if (t.isVirtual != wantPtx || (onlyMajor && t.arch.major() != onlyMajor))
      continue;
    bool duplicate = false;
    for (const Target &s : seen)
      duplicate = duplicate || s == t;
    if (duplicate)
      continue;
    seen.push_back(t);
    text += (text.empty() ? "" : ", ") + describe(t);
  }
  return text.empty() ? none : text;
}

std::string cubinReason(unsigned deviceSm, const Target &t) {
  if (t.arch.sm == deviceSm)
    return t.str() + " cubin matches the device (" + ccText(deviceSm) +
           ") exactly";
  return t.str() + " cubin is the highest cubin that runs on the device (" +
         ccText(deviceSm) + "): same " +
         (t.arch.suffix == ArchSuffix::FamilySpecific ? "family" : "major") +
         ", minor " + std::to_string(t.arch.minor()) +
         " <= " + std::to_string(deviceSm % 10);
}

std::string ptxReason(unsigned deviceSm, const Target &t) {
  return t.str() + " PTX is the highest PTX <= " + ccText(deviceSm) +
         ", JIT-compiled by the driver";
}

// Why no cubin was taken, e.g. "no cubin for 9.x" or
// "no cubin fits 10.3 (sm_100a cubins run only on 10.0)".
std::string noCubinReason(unsigned deviceSm,
                          const std::vector<ImageDesc> &images) {
  unsigned major = deviceSm / 10;
  std::string sameMajor = listImages(images, false, "", cubinRange, major);
  if (sameMajor.empty())
    return "no cubin for " + std::to_string(major) + ".x";
  return "no cubin fits " + ccText(deviceSm) + " (" + sameMajor + ")";
}

} // namespace

Selection selectImage(unsigned deviceSm, const std::vector<ImageDesc> &images,
                      const SelectionPolicy &policy) {
  std::optional<std::size_t> cubin = bestFitting(deviceSm, images, false);
  std::optional<std::size_t> ptx = bestFitting(deviceSm, images, true);
  Selection selection;
  if (policy.noPtx && ptx && !cubin) {
    selection.reason = noCubinReason(deviceSm, images) + "; " +
                       images[*ptx].target.str() +
                       " PTX would fit, but PTX JIT compilation is disabled";
    return selection;
  }
  if (policy.noPtx) ptx.reset();

  if (ptx && (policy.forcePtx || !cubin)) {
    selection.kind = Selection::Kind::PtxJit;
    selection.index = *ptx;
    std::string jit = ptxReason(deviceSm, images[*ptx].target);
    if (cubin)
      selection.reason = "forced PTX JIT: " + jit + " instead of the " +
                         images[*cubin].target.str() + " cubin";
    else
      selection.reason = noCubinReason(deviceSm, images) + "; " + jit;
    return selection;
  }

  if (cubin) {
    selection.kind = Selection::Kind::Cubin;
    selection.index = *cubin;
    selection.reason = cubinReason(deviceSm, images[*cubin].target);
    if (policy.forcePtx)
      selection.reason += " (PTX JIT was forced, but no PTX fits)";
    return selection;
  }

  selection.reason =
      "no image fits " + ccText(deviceSm) + ": " +
      listImages(images, false, "there is no cubin", cubinRange) + " and " +
      listImages(images, true, "there is no PTX", ptxRequirement);
  return selection;
}

std::string suggestGencode(unsigned deviceSm) {
  std::string number = std::to_string(deviceSm);
  return "-gencode arch=compute_" + number + ",code=sm_" + number;
}

} // namespace mycc

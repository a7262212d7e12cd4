// The host object of a .cu file: the lowered host unit compiled in-process
// by Clang, with the fat binary embedded where NVIDIA's tools look for it
// (.nv_fatbin, and the __fatBinC_Wrapper_t in .nvFatBinSegment).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace mycc::offload {

class HostUnit {
public:
  // Compiles the lowered unit (`unitText`, known as `unitName`) to LLVM IR.
  // Source diagnostics go to `diagnostics` (stderr by default).
  static std::unique_ptr<HostUnit> generate(const std::vector<std::string> &cc1,
                                            const std::string &unitName,
                                            const std::string &unitText,
                                            std::string &error,
                                            llvm::raw_ostream *diagnostics = nullptr);
  // The unoptimised IR generate() produced, as bitcode: a job of its own
  // (host-ir) writes it while the device side compiles, and load() takes it
  // back in the job that embeds the device code (compile-host).
  std::string bitcode() const;
  // `cc1` as for generate(); nothing is parsed.
  static std::unique_ptr<HostUnit> load(const std::vector<std::string> &cc1,
                                        const std::string &bitcode,
                                        std::string &error,
                                        llvm::raw_ostream *diagnostics = nullptr);
  ~HostUnit();

  // Embeds the fat binary, optimises and writes the object to `objectFile`
  // (through a temporary file, so a failure leaves no partial output).
  bool emitObject(const std::vector<uint8_t> &fatbin,
                  const std::string &objectFile, std::string &error);

  // -rdc=true: embeds the unit's relocatable device code instead (each
  // element one image in LLVM's offload binary format, DeviceLink.h) and
  // writes the object.
  bool emitRelocatableObject(const std::vector<std::string> &images,
                             const std::string &objectFile,
                             std::string &error);

private:
  HostUnit();
  bool writeObject(const std::string &objectFile, std::string &error);
  struct State;
  std::unique_ptr<State> state;
};

} // namespace mycc::offload

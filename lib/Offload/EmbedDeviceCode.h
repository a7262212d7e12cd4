// The device code put into a host object the host compiler has already
// compiled. The lowered unit leaves the device code's section empty, with
// the wrapper and symbols pointing at its start (LoweringOptions::
// deviceCodeLater); this fills it, so that the host compiler runs beside
// the device side rather than after it (docs/design.md, "The host half").
#pragma once

#include <string>
#include <vector>

namespace mycc::offload {

// Writes `output` (atomically): `object`, an ELF relocatable object, with
// its section `section` holding the bytes of `files`, back to back. Fails
// with a one-line `error` when the object is not ELF or has no such section
// (the host compiler's link-time optimisation keeps the section out of it).
bool fillDeviceCode(const std::string &object, const std::string &section,
                    const std::vector<std::string> &files,
                    const std::string &output, std::string &error);

} // namespace mycc::offload

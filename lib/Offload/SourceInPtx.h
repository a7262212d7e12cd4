// -src-in-ptx: the source lines of a PTX module with line information, as
// comments before the code they became (nvcc's form, `//<file>:<line>
// <text>`).
#pragma once

#include <string>

namespace mycc::offload {

// `ptx` with each `.loc` that moves to another source line preceded by that
// line's text (and, going forward in the same file, by the lines skipped
// since the last one shown, a few at most), read from the files of its
// `.file` directives. PTX without `.loc` (no -lineinfo or -G), and lines of
// files that cannot be read, are left as they are.
std::string interleaveSource(const std::string &ptx);

} // namespace mycc::offload

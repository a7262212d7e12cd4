#include "Graph.h"

#include <algorithm>

namespace mycc::driver {

const char *jobKindName(JobKind kind) {
  switch (kind) {
  case JobKind::PreprocessHost: return "preprocess-host";
  case JobKind::PreprocessDevice: return "preprocess-device";
  case JobKind::LowerHost: return "lower-host";
  case JobKind::CompileDevice: return "compile-device";
  case JobKind::Ptxas: return "ptxas";
  case JobKind::Bundle: return "bundle";
  case JobKind::HostIR: return "host-ir";
  case JobKind::CompileHost: return "compile-host";
  case JobKind::EmbedDeviceCode: return "embed-device-code";
  case JobKind::CompileSource: return "compile-source";
  case JobKind::ScanDeviceCode: return "scan-device-code";
  case JobKind::DeviceLink: return "device-link";
  case JobKind::DeviceLinkHost: return "device-link-host";
  case JobKind::Link: return "link";
  case JobKind::Archive: return "archive";
  case JobKind::Depfile: return "depfile";
  case JobKind::Join: return "join";
  case JobKind::LinkerScript: return "linker-script";
  case JobKind::Remove: return "remove";
  }
  return "?";
}

unsigned Graph::add(Job job) {
  unsigned index = list.size();
  job.deps.clear();
  for (const std::string &input : job.inputs)
    if (auto from = producerOf(input);
        from && std::find(job.deps.begin(), job.deps.end(), *from) ==
                    job.deps.end())
      job.deps.push_back(*from);
  // Standard output is a file too: jobs writing it (-E, -M of several
  // inputs) write in plan order, each after the one before.
  bool toStdout =
      std::find(job.outputs.begin(), job.outputs.end(), "-") != job.outputs.end();
  if (toStdout && lastStdoutWriter &&
      std::find(job.deps.begin(), job.deps.end(), *lastStdoutWriter) ==
          job.deps.end())
    job.deps.push_back(*lastStdoutWriter);
  if (toStdout) lastStdoutWriter = index;
  for (const std::string &output : job.outputs)
    if (output != "-") producers[output] = index;
  list.push_back(std::move(job));
  return index;
}

std::optional<unsigned> Graph::producerOf(const std::string &file) const {
  auto it = producers.find(file);
  if (it == producers.end()) return std::nullopt;
  return it->second;
}

} // namespace mycc::driver

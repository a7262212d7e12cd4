#include "SplitCodegen.h"

#include "SignalCleanup.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/thread.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <map>
#include <set>

namespace mycc::offload {
namespace {

// Who uses `value`, through constant expressions too: `fn` for each function
// whose instructions do, `initializer` (if given) for each global variable
// whose initializer does.
void forEachUser(const llvm::Value *value,
                 const std::function<void(const llvm::Function *)> &fn,
                 const std::function<void()> &initializer = nullptr) {
  for (const llvm::User *user : value->users()) {
    if (const auto *inst = llvm::dyn_cast<llvm::Instruction>(user))
      fn(inst->getFunction());
    else if (llvm::isa<llvm::GlobalVariable>(user)) {
      if (initializer) initializer();
    } else if (llvm::isa<llvm::Constant>(user) &&
               !llvm::isa<llvm::GlobalValue>(user))
      forEachUser(user, fn, initializer);
  }
}

// Groups of defined functions that refer to each other, spread over at most
// `parts` bins by instruction count (largest group first, into the
// lightest bin).
std::vector<std::set<const llvm::Function *>>
partitionFunctions(const llvm::Module &module, unsigned parts) {
  llvm::EquivalenceClasses<const llvm::Function *> groups;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration()) groups.insert(&f);
  for (const llvm::Function &f : module)
    if (!f.isDeclaration())
      forEachUser(&f, [&](const llvm::Function *user) {
        groups.unionSets(&f, user);
      });
  std::vector<std::pair<size_t, std::vector<const llvm::Function *>>> sized;
  for (auto it = groups.begin(); it != groups.end(); ++it) {
    if (!(*it)->isLeader()) continue;
    std::vector<const llvm::Function *> members(groups.member_begin(**it),
                                                groups.member_end());
    size_t size = 0;
    for (const llvm::Function *f : members) size += f->getInstructionCount();
    sized.push_back({size, std::move(members)});
  }
  std::stable_sort(sized.begin(), sized.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  size_t bins = std::min<size_t>(parts, sized.size());
  std::vector<std::set<const llvm::Function *>> out(bins);
  std::vector<size_t> load(bins, 0);
  for (auto &[size, members] : sized) {
    size_t lightest = std::min_element(load.begin(), load.end()) - load.begin();
    load[lightest] += size;
    out[lightest].insert(members.begin(), members.end());
  }
  return out;
}

// Drops declarations nothing uses any more (they would only add noise to
// the part's PTX).
void dropUnusedDeclarations(llvm::Module &m) {
  for (llvm::Function &f : llvm::make_early_inc_range(m))
    if (f.isDeclaration() && !f.isIntrinsic() && f.use_empty())
      f.eraseFromParent();
  for (llvm::GlobalVariable &v : llvm::make_early_inc_range(m.globals()))
    if (v.isDeclaration() && v.use_empty()) v.eraseFromParent();
}

void makeDeclaration(llvm::GlobalValue &gv) {
  if (auto *f = llvm::dyn_cast<llvm::Function>(&gv)) {
    f->deleteBody(); // external linkage, no comdat
  } else if (auto *v = llvm::dyn_cast<llvm::GlobalVariable>(&gv)) {
    v->setInitializer(nullptr);
    v->setLinkage(llvm::GlobalValue::ExternalLinkage);
  }
  if (auto *object = llvm::dyn_cast<llvm::GlobalObject>(&gv))
    object->setComdat(nullptr);
  gv.setVisibility(llvm::GlobalValue::DefaultVisibility);
}

// Where each global variable is defined: with the functions that use it
// when they are all in one part (so that a kernel's static __shared__
// array stays the kernel's own, as without the split), else in part 0,
// which comes first in the joined PTX.
std::map<const llvm::GlobalVariable *, size_t>
variableParts(const llvm::Module &module,
              const std::vector<std::set<const llvm::Function *>> &bins) {
  std::map<const llvm::Function *, size_t> partOf;
  for (size_t b = 0; b < bins.size(); ++b)
    for (const llvm::Function *f : bins[b]) partOf[f] = b + 1;
  std::map<const llvm::GlobalVariable *, size_t> out;
  for (const llvm::GlobalVariable &v : module.globals()) {
    std::set<size_t> parts;
    bool inInitializer = false;
    forEachUser(
        &v,
        [&](const llvm::Function *f) {
          parts.insert(partOf.count(f) ? partOf[f] : 0);
        },
        [&] { inInitializer = true; });
    out[&v] = parts.size() == 1 && !inInitializer ? *parts.begin() : 0;
  }
  return out;
}

// Part 0 holds the shared global variables; part i > 0 the functions of bin
// i-1 and the variables only they use. Each is returned as bitcode, to be
// read into a context of its own.
std::string partBitcode(const llvm::Module &module, size_t part,
                        const std::vector<std::set<const llvm::Function *>> &bins,
                        const std::map<const llvm::GlobalVariable *, size_t> &owners) {
  llvm::ValueToValueMapTy map;
  std::unique_ptr<llvm::Module> clone = llvm::CloneModule(module, map);
  for (const llvm::Function &f : module) {
    if (f.isDeclaration()) continue;
    bool here = part > 0 && bins[part - 1].count(&f);
    if (!here) makeDeclaration(*llvm::cast<llvm::Function>(map[&f]));
  }
  for (const llvm::GlobalVariable &v : module.globals()) {
    auto *copy = llvm::cast<llvm::GlobalVariable>(map[&v]);
    bool special = v.getName().starts_with("llvm.");
    if (special && part > 0 &&
        (v.getName() == "llvm.used" || v.getName() == "llvm.compiler.used"))
      copy->eraseFromParent();
    else if (!special && !v.isDeclaration() && owners.at(&v) != part)
      makeDeclaration(*copy);
  }
  dropUnusedDeclarations(*clone);
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(*clone, os);
  return bitcode;
}

bool hasDebugInfo(const llvm::Module &module) {
  return module.getNamedMetadata("llvm.dbg.cu") != nullptr;
}

} // namespace

SplitResult emitPtxInParts(llvm::Module &module, unsigned parts,
                           unsigned threads, const EmitPart &emit,
                           std::string &ptx, std::string &error) {
  if (parts < 2 || hasDebugInfo(module)) return SplitResult::NotSplit;
  // PTX names unnamed globals by their index in the module, which differs
  // between parts.
  for (llvm::GlobalValue &gv : module.global_values())
    if (!gv.hasName()) gv.setName("__mycc_anonymous");
  std::vector<std::set<const llvm::Function *>> bins =
      partitionFunctions(module, parts);
  if (bins.size() < 2) return SplitResult::NotSplit;
  size_t count = bins.size() + 1;
  std::vector<std::string> bitcode(count), texts(count), errors(count);
  std::vector<char> ok(count, 0);
  std::map<const llvm::GlobalVariable *, size_t> owners =
      variableParts(module, bins);
  for (size_t i = 0; i < count; ++i)
    bitcode[i] = partBitcode(module, i, bins, owners);
  {
    // Each thread takes the next part not yet taken.
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i; (i = next++) < count;) {
        llvm::LLVMContext context;
        auto part = llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(bitcode[i], "part"), context);
        if (!part) {
          errors[i] = "internal error: split device module: " +
                      llvm::toString(part.takeError());
          continue;
        }
        // A crash or an LLVM fatal error in a part (a thread the job's own
        // recovery does not cover) sends the module to the unsplit path,
        // on the job's thread, which reports it as the job's failure.
        llvm::CrashRecoveryContext recovery;
        if (!recovery.RunSafely([&] { ok[i] = emit(**part, texts[i], errors[i]); })) {
          ok[i] = false;
          errors[i].clear();
        }
      }
    };
    // Workers get a job's stack: code generation recurses on the depth of
    // expressions.
    std::vector<llvm::thread> workers;
    for (size_t t = 1; t < std::min<size_t>(std::max(threads, 1u), count); ++t)
      workers.emplace_back(std::optional<unsigned>(support::jobStackBytes()), work);
    work();
    for (auto &t : workers) t.join();
  }
  for (size_t i = 0; i < count; ++i)
    if (!ok[i]) {
      if (errors[i].empty()) return SplitResult::NotSplit;
      error = errors[i];
      return SplitResult::Failed;
    }
  ptx = joinPtxParts(texts);
  return SplitResult::Done;
}

namespace {

// One top-level statement of a PTX module: a directive, a variable, a
// function declaration or definition (with its body), or a comment.
struct PtxItem {
  std::string text;
  enum Kind { Header, Function, Variable, Other } kind = Other;
  std::string name, linkage; // linkage: ".visible", ".weak", ... or ""
  bool definition = false;
};

// The structural words of an item: comments dropped, punctuation split off.
std::vector<std::string> words(const std::string &text, size_t end) {
  std::vector<std::string> out;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) out.push_back(word);
    word.clear();
  };
  for (size_t i = 0; i < end; ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < end && text[i + 1] == '/') {
      while (i < end && text[i] != '\n') ++i;
      flush();
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      flush();
    } else if (std::strchr("(),;[]={}", c)) {
      flush();
      out.push_back(std::string(1, c));
    } else {
      word += c;
    }
  }
  flush();
  return out;
}

void classify(PtxItem &item) {
  std::vector<std::string> w = words(item.text, item.text.size());
  auto has = [&](const char *word) {
    return std::find(w.begin(), w.end(), word) != w.end();
  };
  if (w.empty()) return;
  if (w[0] == ".version" || w[0] == ".target" || w[0] == ".address_size") {
    item.kind = PtxItem::Header;
    return;
  }
  size_t i = 0;
  if (w[0] == ".visible" || w[0] == ".extern" || w[0] == ".weak" ||
      w[0] == ".common")
    item.linkage = w[i++];
  if (i < w.size() && (w[i] == ".func" || w[i] == ".entry")) {
    item.kind = PtxItem::Function;
    ++i;
    if (i < w.size() && w[i] == "(") // the return parameter list
      while (i < w.size() && w[i++] != ")") {
      }
    if (i < w.size()) item.name = w[i];
    item.definition = has("{");
    return;
  }
  static const std::set<std::string> spaces = {".global", ".const", ".shared",
                                               ".local"};
  if (i < w.size() && spaces.count(w[i])) {
    item.kind = PtxItem::Variable;
    for (++i; i < w.size(); ++i) {
      if (w[i] == ".align") {
        ++i;
        continue;
      }
      if (w[i][0] == '.') continue;
      if (w[i] == "[" || w[i] == "=" || w[i] == ";") break;
      item.name = w[i];
    }
    item.definition = item.linkage != ".extern";
  }
}

// Splits a PTX module into its top-level items.
std::vector<PtxItem> items(const std::string &ptx) {
  std::vector<PtxItem> out;
  size_t start = 0, depth = 0;
  bool initializer = false;
  for (size_t i = 0; i < ptx.size(); ++i) {
    char c = ptx[i];
    bool end = false;
    if (c == '/' && i + 1 < ptx.size() && ptx[i + 1] == '/') {
      // A comment belongs to the item that follows it.
      size_t nl = ptx.find('\n', i);
      i = nl == std::string::npos ? ptx.size() - 1 : nl;
      continue;
    } else if (c == '=' && depth == 0) {
      initializer = true;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      if (depth > 0) --depth;
      end = depth == 0 && !initializer;
    } else if (c == ';' && depth == 0) {
      end = true;
    } else if (c == '\n' && depth == 0) {
      // .version, .target and .address_size end at the line's end.
      std::vector<std::string> w = words(ptx.substr(start, i - start), i - start);
      end = !w.empty() && (w[0] == ".version" || w[0] == ".target" ||
                           w[0] == ".address_size");
    }
    if (!end) continue;
    PtxItem item;
    item.text = ptx.substr(start, i + 1 - start);
    classify(item);
    out.push_back(std::move(item));
    start = i + 1;
    initializer = false;
  }
  if (start < ptx.size()) out.push_back({ptx.substr(start)});
  return out;
}

// A declaration with the linkage of the definition it announces.
std::string withLinkage(const PtxItem &decl, const std::string &linkage) {
  std::string text = decl.text;
  size_t at = text.find(decl.linkage.empty() ? ".func" : decl.linkage);
  if (decl.linkage.empty()) {
    if (!linkage.empty() && at != std::string::npos)
      text.insert(at, linkage + " ");
    return text;
  }
  return text.replace(at, decl.linkage.size(), linkage.empty() ? "" : linkage);
}

} // namespace

std::string joinPtxParts(const std::vector<std::string> &parts) {
  std::vector<std::vector<PtxItem>> parsed;
  std::map<std::string, std::string> definedLinkage;
  // A __shared__ variable only one function uses is defined inside that
  // function ("// NAME has been demoted"); other parts still declare it
  // .extern at module scope, which ptxas warns of as unresolved.
  std::set<std::string> demoted;
  for (const std::string &part : parts) {
    parsed.push_back(items(part));
    for (const PtxItem &item : parsed.back())
      if (item.definition) definedLinkage[item.name] = item.linkage;
    static const std::string suffix = " has been demoted";
    for (size_t at = part.find(suffix); at != std::string::npos;
         at = part.find(suffix, at + 1)) {
      size_t line = part.rfind("// ", at);
      if (line != std::string::npos && part.find('\n', line) > at)
        demoted.insert(part.substr(line + 3, at - line - 3));
    }
  }
  std::string out;
  std::set<std::string> defined, declared;
  for (size_t p = 0; p < parsed.size(); ++p)
    for (const PtxItem &item : parsed[p]) {
      if (item.kind == PtxItem::Header && p > 0) continue;
      if (item.kind == PtxItem::Other || item.kind == PtxItem::Header ||
          item.definition) {
        out += item.text;
        if (item.definition) defined.insert(item.name);
        continue;
      }
      // A declaration: once, and only before what it declares.
      if (defined.count(item.name) || !declared.insert(item.name).second)
        continue;
      auto def = definedLinkage.find(item.name);
      if (def == definedLinkage.end() && demoted.count(item.name))
        continue;
      if (def == definedLinkage.end())
        out += item.text; // defined by none: the driver's or ptxas's
      else if (item.kind == PtxItem::Function)
        out += withLinkage(item, def->second);
      // A variable is declared only where another part defines it, and
      // those are all in part 0, before.
    }
  if (!out.empty() && out.back() != '\n') out += '\n';
  return out;
}

} // namespace mycc::offload

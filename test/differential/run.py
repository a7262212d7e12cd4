#!/usr/bin/env python3
"""The differential test of the device API surface (docs/guide-conformance.md).

Every overload mycc-list-device-api finds (the toolkit's device functions and
Clang's CUDA headers' replacements for its intrinsics, the members of the
classes instantiations.cuh names, function templates, the instantiations
instantiations.cuh declares) is called by a kernel that keeps its result and,
where it has one, by a kernel that discards it; the units holding them (PART
calls each) are compiled to PTX by nvcc and by mycc, and each kernel's side
effects are compared: atomics and reductions, fences, barriers, mbarrier and
async copies, traps, profiler events, votes/shuffles/matches, texture and
surface instructions, WMMA and MMA, ordered or cached loads and stores, and
calls of functions the PTX does not define (vprintf, __assertfail, malloc,
...); a function the PTX defines counts with its own effects.

A function template is instantiated with each type of TYPES for its type
parameters (the same type for all) and each candidate the lister gives for
its value parameters (an enumeration's enumerators); its call sits in a
template guarded by a requires-expression, and an inline-asm marker tells
whether the call was viable. An instantiation viable with nvcc and not with
mycc is a difference; one viable with mycc alone is counted, not compared.

Overloads or instantiations nvcc rejects are left out (and counted); one only
mycc rejects, or a compile that prints an error and exits 0, is a failure, as
is a difference not in the allowlist (one reason per entry).

  run.py --mycc M --nvcc N --lister L --cuda C --prelude P --arch sm_90
         --out DIR [--allowlist FILE]
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HEADERS = ["cuda_runtime.h", "cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h",
           "cuda_fp6.h", "cuda_fp4.h"]
INSTANTIATIONS = os.path.join(HERE, "instantiations.cuh")
TYPES = ["int", "unsigned int", "long long", "unsigned long long", "char",
         "float", "double", "__half", "__nv_bfloat16", "__half2", "float2",
         "float4", "int4", "double2"]
EFFECT = re.compile(
    r"^(atom|red|fence|membar|bar|barrier|mbarrier|cp\.async|cp\.reduce\.async|"
    r"trap|pmevent|nanosleep|vote|shfl|match|redux|activemask|griddepcontrol|"
    r"multimem|tex|tld4|suld|sust|sured|txq|suq|wmma|mma|ldmatrix|stmatrix|"
    r"prefetch|prefetchu|discard|applypriority|elect|setmaxnreg|"
    r"st\.(\S*\.)?(relaxed|acquire|release|volatile|weak|mmio|cg|cs|wb|wt)|"
    r"ld\.(\S*\.)?(relaxed|acquire|volatile|mmio))\b")
SPACES = {"global", "shared", "shared::cta", "shared::cluster", "local",
          "param", "const", "gen", "aligned"}
TYPE = re.compile(r"^(b|s|u|f|bf|e4m3|e5m2)\d+(x\d+)?$|^v\d$|^pred$")
VIABLE = "mycc-diff viable"
SEMANTICS = {"relaxed", "acquire", "release", "acq_rel", "sc", "weak", "volatile", "mmio"}
SCOPES = {"cta", "cluster", "gpu", "sys"}
FUNCTION = re.compile(r"^(?:\.(?:visible|weak|extern) )*\.(entry|func)\s+(?:\([^)]*\)\s*)?(\w+)")
PLACEHOLDER = re.compile(r"(?:type|value)-parameter-\d+-(\d+)")

Overload = collections.namedtuple("Overload", "kind object callee ret params tparams")


ROUNDING = {"rn", "rz", "rm", "rp"}


def normalize(op):
    parts = [p for p in op.split(".") if p not in SPACES and not TYPE.match(p)]
    if op.startswith("wmma.mma") and ".f64" in op and not ROUNDING & set(parts):
        # PTX's default rounding of an f64 wmma.mma is .rn: nvcc writes it,
        # LLVM leaves it out; both assemble to the same DMMA.
        parts.append("rn")
    if parts and parts[0] in ("atom", "red"):
        # PTX's defaults: an atomic without them is .relaxed and .gpu.
        sem = [p for p in parts if p in SEMANTICS] or ["relaxed"]
        scope = [p for p in parts if p in SCOPES] or ["gpu"]
        rest = [p for p in parts[1:] if p not in SEMANTICS and p not in SCOPES]
        parts = [parts[0]] + sem + scope + rest
    return ".".join(parts)


def signature(o):
    name = o.callee if o.object == "-" else f"{o.object}::{o.callee}"
    return f"{name}({';'.join(o.params)})"


def function_name(o):
    name = re.sub(r"<.*>$", "", o.callee)
    return name if o.object == "-" or o.kind == "ctor" else f"{o.object}::{name}"


def argument(t, k):
    """An expression of parameter type `t` for argument `k`: values are read
    from `in`, objects referred to or pointed at live in global memory."""
    base = re.sub(r"\b(const|volatile)\b|&", "", t).strip()
    if re.search(r"\(\*\)\[\d+\]$", t):  # a pointer to an array
        return f"({t})(g + 256 * {k})"
    array = re.fullmatch(r"(.*?)\s*\[(\d+)\]", base)
    if array:  # a reference to an array, in global memory
        return f"*({array.group(1)} (*)[{array.group(2)}])(g + 256 * {k})"
    if t.endswith("*"):
        return f"({t})(g + 256 * {k})"
    if t.endswith("&&"):
        return f"static_cast<{base} &&>(*({base} *)(g + 256 * {k}))"
    if t.endswith("&"):
        return f"*({base} *)(g + 256 * {k})"
    return f"*(const {base} *)(in + 16 * {k})"


def instantiations(tparams):
    """The template arguments tried: each type of TYPES for every type
    parameter at once, times every combination of the value parameters'
    candidates (an enumeration's enumerators, 0 for an integer)."""
    combos = [()]
    types = TYPES if any(p.startswith("type") for p in tparams) else [None]
    for t in types:
        partial = [()]
        for p in tparams:
            if p.startswith("type"):
                partial = [c + (t,) for c in partial]
            else:
                partial = [c + (v,) for c in partial for v in p.split("=", 1)[1].split("|")]
        combos += partial
    return combos[1:]


def plain(t):
    """Whether a parameter type uses the template's parameters only as
    itself (T, const T &, T *, T &&, const T (&)[N]): a list of types then
    fits it."""
    base = re.sub(r"\[\d+\]$", "", re.sub(r"\b(const|volatile)\b|[&*]", "", t).strip())
    types = re.findall(r"type-parameter-\d+-\d+", base)
    return not types or re.fullmatch(r"type-parameter-\d+-\d+", base) is not None


def free_parameters(o):
    """Template parameters the parameter types use that the template
    parameters column leaves out (a required one after a defaulted one):
    the list of types cannot instantiate such a template."""
    listed = {int(PLACEHOLDER.fullmatch(p.split("=")[0]).group(1)) for p in o.tparams}
    return {int(m.group(1)) for p in o.params for m in PLACEHOLDER.finditer(p)} - listed


def call_text(o, params, targs=""):
    args = ", ".join(argument(t, k) for k, t in enumerate(params))
    if o.kind == "method":
        # The object's address is read from memory: neither compiler knows
        # its state space (a barrier's members assert it is shared).
        return f"(**({o.object} **)(in + 512)).{o.callee}{targs}({args})"
    return f"{o.callee}{targs}({args})"


def modes(o):
    """The kernels of a call: its result kept (s) and discarded (d); one
    kernel where there is no result."""
    return ("s",) if o.ret == "void" else ("s", "d")


# Calls per generated unit. nvcc's compile time grows faster than its unit
# (sm_80's 12,660 kernels of 7,800 calls: an eighth of them 11 s, a quarter
# 23 s, half 77 s, all 309 s), so the calls are compiled in units of this
# many; each unit parses the headers again, in every round.
PART = 2500


def parts(live):
    """The cases `live` in units of at most PART, in order."""
    return [live[k:k + PART] for k in range(0, len(live), PART)]


def generate(overloads, cases, live, path):
    """Writes the unit with the calls of the cases `live` (kernels k<case>_s
    and k<case>_d); returns {line: case} for every line that can carry an
    error of one case, and {line: cases} for the lines of templates."""
    lines = ["// Generated by test/differential/run.py",
             *[f"#include <{h}>" for h in HEADERS],
             f'#include "{INSTANTIATIONS}"',
             "struct mycc_diff_sink { char *out; };",
             "template <class T> __device__ __forceinline__ void operator,(T &&v, mycc_diff_sink s)"
             " { __builtin_memcpy(s.out, (const void *)__builtin_addressof(v), sizeof v); }"]
    where, helpers, helper_cases = {}, {}, collections.defaultdict(set)
    for c in live:
        i, types = cases[c]
        o = overloads[i]
        if types is None:
            call = call_text(o, o.params)
            bodies = {"s": f"({call}), mycc_diff_sink{{out}};", "d": f"(void)({call});"}
            for mode in modes(o):
                body = bodies[mode]
                where[len(lines) + 1] = c
                lines.append(f'extern "C" __global__ void k{c}_{mode}(char *g, '
                             f'const char *in, char *out) {{ {body} }}')
            continue
        if i not in helpers:  # the guarded call, once per template
            n = len(o.tparams)
            names = {int(PLACEHOLDER.fullmatch(p.split("=")[0]).group(1)): f"T{k}"
                     for k, p in enumerate(o.tparams)}
            params = [PLACEHOLDER.sub(lambda m: names[int(m.group(1))], p) for p in o.params]
            helpers[i] = len(lines) + 1
            call = call_text(o, params, "<" + ", ".join(f"T{k}" for k in range(n)) + ">")
            tps = ", ".join(("auto" if p.startswith("value") else "class") + f" T{k}"
                            for k, p in enumerate(o.tparams))
            lines.append(
                f"template <bool Keep, {tps}> __device__ __forceinline__ void "
                f"mycc_diff_call{i}(char *g, const char *in, char *out) {{ "
                f"if constexpr (requires {{ {call}; }}) {{ "
                f'asm volatile("// {VIABLE}"); '
                f"if constexpr (Keep) ({call}), mycc_diff_sink{{out}}; "
                f"else (void)({call}); }} }}")
        helper_cases[helpers[i]].add(c)
        targs = ", ".join(types)
        for mode in modes(o):
            keep = "true" if mode == "s" else "false"
            where[len(lines) + 1] = c
            lines.append(f'extern "C" __global__ void k{c}_{mode}(char *g, '
                         f'const char *in, char *out) {{ '
                         f"mycc_diff_call{i}<{keep}, {targs}>(g, in, out); }}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return where, helper_cases


def compile_ptx(cmd, src, ptx, where, helper_cases, patterns):
    """Returns (status, set of cases whose lines have errors, text); status
    is "ok", "ptx" (the PTX was written, and only the PTX assembler nvcc
    runs on it found errors, in the kernels of the cases returned) or
    "failed"."""
    r = subprocess.run(cmd + [src, "-o", ptx], capture_output=True, text=True)
    text = r.stdout + r.stderr
    bad = set()
    for pattern in patterns:
        for m in re.finditer(pattern, text):
            line = int(m.group(1))
            if line in where:
                bad.add(where[line])
            bad |= helper_cases.get(line, set())
    # nvcc checks its PTX with ptxas: an error there names a PTX line, which
    # lies in one kernel.
    ptx_lines = [int(m.group(1)) for m in re.finditer(r"\.ptx, line (\d+); error", text)]
    if ptx_lines and os.path.exists(ptx):
        owner, callers, name = {}, collections.defaultdict(set), None
        for n, line in enumerate(open(ptx), 1):
            m = FUNCTION.match(line)
            if m:
                name = m.group(2)
            owner[n] = name
            for target in re.findall(r"\b(\w+)\b", line) if name and "call" in line else ():
                callers[target].add(name)
        for n in ptx_lines:
            todo, seen = [owner.get(n)], set()
            while todo:  # the kernels that reach the function of line n
                f = todo.pop()
                if f is None or f in seen:
                    continue
                seen.add(f)
                m = re.fullmatch(r"k(\d+)_[sd]", f)
                if m:
                    bad.add(int(m.group(1)))
                todo += callers.get(f, ())
    if r.returncode == 0:
        return "ok", bad, text
    source_errors = any(re.search(p, text) for p in patterns)
    return ("ptx" if ptx_lines and bad and not source_errors else "failed"), bad, text


def effects(path):
    """{kernel: set of side effects}, with those of the functions it calls."""
    ops, calls, name, calling = {}, {}, None, False
    defined, header = set(), None
    for line in open(path):
        m = FUNCTION.match(line)
        if m:
            name = header = m.group(2)
            ops.setdefault(name, set())
            calls.setdefault(name, set())
            continue
        if header:  # a definition's body follows; a declaration ends with ';'
            if line.strip() == "{":
                defined.add(header)
                header = None
            elif line.strip().endswith(";"):
                header = name = None
            continue
        text = line.strip()
        if name and VIABLE in text:
            ops[name].add("viable")
        if not name or not text or text.startswith("//"):
            continue
        text = re.sub(r"^@!?%\w+\s+", "", text)
        if EFFECT.match(text):
            ops[name].add(normalize(text.split()[0].rstrip(";")))
        # A call names its function on its line (mycc) or on a later one
        # (nvcc writes `call.uni (retval0),` and the name below).
        m = re.match(r"call(?:\.uni)?\s+(?:\([^)]*\),\s*)?(\w+)", text)
        target = m.group(1) if m else None
        if calling and re.match(r"^\w+,?$", text):
            target = text.rstrip(",")
        calling = text.startswith("call") and (target is None or target == "retval0")
        if target and target != "retval0":
            calls[name].add(target)

    def closure(n, seen):
        out = set(ops.get(n, ()))
        for t in calls.get(n, ()):
            if t in seen:
                continue
            seen.add(t)
            out |= closure(t, seen) if t in defined else {"call " + t}
        return out

    return {n: closure(n, {n}) for n in ops if n.startswith("k")}


def main():
    ap = argparse.ArgumentParser()
    for opt in ("mycc", "nvcc", "lister", "cuda", "prelude", "arch", "out"):
        ap.add_argument("--" + opt, required=True)
    ap.add_argument("--allowlist")
    a = ap.parse_args()
    if not os.access(a.nvcc, os.X_OK):
        print(f"SKIP: no nvcc at {a.nvcc}")
        sys.exit(77)
    # PTX for the virtual arch: nvcc runs ptxas on -ptx output for a real one.
    flags = ["-ptx", "-arch=compute_" + a.arch.split("_", 1)[1], "-std=c++20", "-w",
             "-Xcudafe", "--error_limit=100000"]
    os.makedirs(a.out, exist_ok=True)
    listed = subprocess.run([a.lister, a.cuda, a.arch, a.prelude, INSTANTIATIONS] + HEADERS[1:],
                            capture_output=True, text=True)
    if listed.returncode:
        sys.exit("the lister failed:\n" + listed.stderr[-3000:])
    overloads = []
    for line in listed.stdout.splitlines():
        kind, obj, callee, ret, params, tparams = line.split("\t")
        overloads.append(Overload(kind, obj, callee, ret, [p for p in params.split(";") if p],
                                  [p for p in tparams.split(",") if p]))
    # A toolkit whose headers the lister did not recognise as the toolkit's
    # leaves out most of the API (templates and class members first) and
    # would pass with little compared: that is a failure of the test.
    kinds = collections.Counter("template" if o.tparams else o.kind for o in overloads)
    if not all(kinds[k] for k in ("fn", "method", "ctor", "template")):
        sys.exit(f"the lister found too little of the API ({dict(kinds)}): "
                 f"are {a.cuda}'s headers the toolkit's?")
    allow = {}
    if a.allowlist:
        for line in open(a.allowlist):
            if line.strip() and not line.startswith("#"):
                key, _, reason = line.strip().partition(" ")
                allow[key] = reason.strip()
    cases, unguessed = [], []
    for i, o in enumerate(overloads):
        if not o.tparams:
            cases.append((i, None))
        elif all(plain(p) for p in o.params) and not free_parameters(o):
            cases += [(i, c) for c in instantiations(o.tparams)]
        else:  # e.g. duration<Rep, Period>: instantiations.cuh's business
            unguessed.append(i)
    # Those instantiations.cuh instantiates explicitly are covered.
    explicit = {function_name(o) for o in overloads if not o.tparams and "<" in o.callee}
    unguessed = [signature(overloads[i]) for i in unguessed
                 if function_name(overloads[i]) not in explicit]
    rejected = {"nvcc": set(), "mycc": set()}
    ptx_files = {"nvcc": [], "mycc": []}
    live = list(range(len(cases)))
    patterns = {"nvcc": [r"api\d*\.cu\((\d+)\): error", r"at line (\d+) of \S*api\d*\.cu"],
                "mycc": [r"api\d*\.cu:(\d+):\d+: (?:error|note)"]}
    printed_error = False
    for tool in ("nvcc", "mycc"):  # drop what nvcc rejects, then what mycc rejects
        started_tool, kept = time.time(), []
        for n, part in enumerate(parts(live)):
            src = os.path.join(a.out, f"api{n}.cu")
            ptx = os.path.join(a.out, f"{tool}{n}.ptx")
            for attempt in range(20):
                where, helper_cases = generate(overloads, cases, part, src)
                started = time.time()
                status, bad, text = compile_ptx([getattr(a, tool)] + flags, src, ptx, where,
                                                helper_cases, patterns[tool])
                with open(os.path.join(a.out, f"{tool}{n}-round{attempt}.log"), "w") as log:
                    log.write(text)
                print(f"{tool}, unit {n}: {len(part)} calls, {len(bad)} rejected, "
                      f"{time.time() - started:.0f} s", file=sys.stderr)
                if tool == "mycc" and status == "ok" and re.search(r"\berror\b", text):
                    printed_error = True
                if status == "failed" and not bad:
                    sys.exit(f"{tool} failed without a located error:\n" + text[-3000:])
                rejected[tool] |= bad
                part = [c for c in part if c not in bad]
                # Where only nvcc's PTX check failed, its PTX stands for the
                # other kernels: they are named by case, not by position.
                if status != "failed":
                    break
            else:
                sys.exit(f"{tool} still fails after 20 rounds:\n" + text[-3000:])
            kept += part
            ptx_files[tool].append(ptx)
        live = kept
        print(f"{tool}: {len(live)} calls in {len(ptx_files[tool])} units, "
              f"{time.time() - started_tool:.0f} s", file=sys.stderr)
    mine, theirs = ({k: e for path in ptx_files[tool] for k, e in effects(path).items()}
                    for tool in ("mycc", "nvcc"))
    mismatches, allowed = [], []
    compared = instantiated = mycc_only = 0
    compared_overloads = set()
    for c in live:
        i, types = cases[c]
        o = overloads[i]
        for mode in modes(o):
            k = f"k{c}_{mode}"
            x, y = mine.get(k, set()), theirs.get(k, set())
            if types is not None and "viable" not in y:
                mycc_only += "viable" in x and mode == "s"
                continue
            compared += 1
            compared_overloads.add(i)
            instantiated += types is not None and mode == "s"
            if x == y:
                continue
            sig = signature(o) + (f" with {', '.join(types)}" if types else "")
            entry = (f"{sig} [{'result kept' if mode == 's' else 'result discarded'}]"
                     f": mycc {sorted(x)} nvcc {sorted(y)}")
            key = function_name(o)
            (allowed if key in allow or signature(o) in allow else mismatches).append(entry)
    templates = sum(1 for o in overloads if o.tparams)
    names = {function_name(o) for o in overloads}
    mycc_failed = sorted(rejected["mycc"])
    print(f"target {a.arch}: {len(names)} functions, {len(overloads)} overloads "
          f"({templates} templates, {instantiated} of their instantiations viable with nvcc, "
          f"{len(unguessed)} not instantiated from the list of types; "
          f"{mycc_only} viable with mycc alone), {compared} kernels compared "
          f"({len(compared_overloads)} overloads); nvcc rejects {len(rejected['nvcc'])} calls, "
          f"mycc alone rejects {len(mycc_failed)}; {len(mismatches)} unexplained "
          f"differences, {len(allowed)} allowlisted")
    if printed_error:
        print("mycc printed an error and exited 0")
    for c in mycc_failed:
        i, types = cases[c]
        print(f"mycc rejects {signature(overloads[i])}" + (f" with {', '.join(types)}" if types else ""))
    for u in unguessed:
        print("not instantiated:", u)
    for m in mismatches:
        print("differs:", m)
    for m in allowed:
        print("allowlisted:", m)
    sys.exit(1 if mismatches or mycc_failed or printed_error else 0)


if __name__ == "__main__":
    main()

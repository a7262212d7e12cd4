# Prints each function definition of a PTX file (its text from the linkage
# directive to the closing brace), sorted by name: two PTX files that define
# the same functions with the same code print the same, whatever their order.
# Names LLVM numbers by the function's index in the module (block labels,
# the local stack's depot) are function-local; the index is left out.
import re
import sys

text = open(sys.argv[1]).read()
text = re.sub(r"//[^\n]*", "", text)
text = re.sub(r"\$L__BB\d+_", "$L__BB_", text)
text = re.sub(r"__local_depot\d+", "__local_depot", text)
defs = {}
for m in re.finditer(r"((?:\.visible|\.weak)?\s*\.(?:entry|func)\s*(?:\([^)]*\))?\s*([\w$]+)\s*\([^)]*\)[^{;]*)\{", text):
    start, depth, i = m.end() - 1, 0, m.end() - 1
    while True:
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                break
        i += 1
    defs[m.group(2)] = " ".join(text[m.start():i + 1].split())
for name in sorted(defs):
    print(defs[name])

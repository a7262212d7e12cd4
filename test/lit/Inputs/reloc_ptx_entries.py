"""Compares the kind-64 (relocatable PTX) entries of two objects' .nv_fatbin."""
import struct
import subprocess
import sys
import tempfile


def entries(path):
    with tempfile.NamedTemporaryFile() as out:
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin",
                        path, out.name], check=True)
        data = open(out.name, "rb").read()
    found, offset = [], 16
    while offset + 16 <= len(data):
        kind, _, header, payload = struct.unpack_from("<HHIQ", data, offset)
        if kind == 64:
            found.append(data[offset:offset + header + payload])
        offset += header + payload
    return found


a, b = entries(sys.argv[1]), entries(sys.argv[2])
same = sum(1 for x in a if x in b)
print(f"relocatable PTX entries: {same} identical" if a and len(a) == len(b) == same
      else f"relocatable PTX entries differ: {len(a)} and {len(b)}, {same} identical")

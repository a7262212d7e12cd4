#!/usr/bin/env bash
# GPUJPEG built by mycc and by nvcc (test/realworld/manifest.json): encode and
# decode the same generated images with both builds, compare the JPEG files
# byte for byte and the decoded pixels with the source (PSNR), then time the
# encoder. DIR holds mycc/ and nvcc/, each with gpujpegtool and libgpujpeg.so.0.
cd "${1:?usage: gpujpeg_compare.sh DIR (with mycc/ and nvcc/, each holding gpujpegtool and libgpujpeg.so.0)}"
W=$(mktemp -d)
python3 - "$W" <<'PY'
import sys, math, random
w = sys.argv[1]
random.seed(7)
for (n, (x, y)) in enumerate([(1920, 1080), (640, 480), (33, 17)]):
    px = bytearray()
    for j in range(y):
        for i in range(x):
            px += bytes(((i * 7 + j * 3) % 256, int(127 + 120 * math.sin(i / 17.0 + j / 29.0)), random.randrange(256) if (i // 64 + j // 64) % 5 == 0 else (i ^ j) % 256))
    open(f"{w}/img{n}.pnm", "wb").write(b"P6\n%d %d\n255\n" % (x, y) + px)
PY
for c in mycc nvcc; do
  for n in 0 1 2; do
    for q in 75 95; do
      LD_LIBRARY_PATH=$PWD/$c ./$c/gpujpegtool -e -q $q $W/img$n.pnm $W/$c-$n-$q.jpg > $W/$c-enc.log 2>&1 || echo "$c encode img$n q$q failed: $(tail -1 $W/$c-enc.log)"
      LD_LIBRARY_PATH=$PWD/$c ./$c/gpujpegtool -d $W/$c-$n-$q.jpg $W/$c-$n-$q.pnm > $W/$c-dec.log 2>&1 || echo "$c decode img$n q$q failed: $(tail -1 $W/$c-dec.log)"
    done
  done
done
python3 - "$W" <<'PY'
import sys, os, math
w = sys.argv[1]
def pixels(p):
    d = open(p, "rb").read()
    parts = d.split(b"\n", 3)
    return parts[3]
same = 0; total = 0
for n in range(3):
    src = pixels(f"{w}/img{n}.pnm")
    for q in (75, 95):
        total += 1
        a = open(f"{w}/mycc-{n}-{q}.jpg", "rb").read(); b = open(f"{w}/nvcc-{n}-{q}.jpg", "rb").read()
        same += a == b
        for c in ("mycc", "nvcc"):
            out = pixels(f"{w}/{c}-{n}-{q}.pnm")
            mse = sum((x - y) ** 2 for x, y in zip(src, out)) / len(src)
            psnr = 10 * math.log10(255 ** 2 / mse) if mse else float("inf")
            print(f"img{n} q{q} [{c}] {len(a) if c == 'mycc' else len(b)} bytes, PSNR {psnr:.2f} dB")
print(f"JPEG files identical (mycc vs nvcc): {same}/{total}")
PY
for c in mycc nvcc; do
  echo "== timing [$c]"; LD_LIBRARY_PATH=$PWD/$c ./$c/gpujpegtool -e -n 50 $W/img0.pnm $W/t.jpg 2>&1 | grep -i "encode\|duration\|fps\|time" | tail -3
done

"""Runs a command and reports its exit status, and whether its peak
resident memory and wall time stayed within the limits given:
    run_bounded.py MAX_MB MAX_SECONDS command...
prints "rc=N within limits" or "rc=N over: <what>"; the command's stderr
passes through."""
import resource
import subprocess
import sys
import time

max_mb, max_s = float(sys.argv[1]), float(sys.argv[2])
start = time.monotonic()
rc = subprocess.run(sys.argv[3:], stdout=subprocess.DEVNULL).returncode
seconds = time.monotonic() - start
peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
over = []
if peak_mb > max_mb:
    over.append(f"{peak_mb:.0f} MB")
if seconds > max_s:
    over.append(f"{seconds:.2f} s")
print(f"rc={rc} " + ("within limits" if not over else "over: " + ", ".join(over)))

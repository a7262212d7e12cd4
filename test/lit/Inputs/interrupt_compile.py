"""Starts a compile whose host compiler is slow, sends the driver a signal
once its temporary directory (in TMPDIR) exists, and reports how the driver ended and
what it left in TMPDIR:
    interrupt_compile.py SIGNAL TMPDIR command...
prints "killed by SIGTERM, left: <entries or nothing>". For SIGPIPE the
command's standard output is a pipe that is closed after its first byte (a
reader that stops early, as `| head -c1`), and the command gets no signal."""
import os
import signal
import subprocess
import sys
import time

sig = getattr(signal, sys.argv[1])
tmp = sys.argv[2]
os.makedirs(tmp, exist_ok=True)
env = dict(os.environ, TMPDIR=tmp)
# As a shell starts a foreground job: the signal's default action (a test
# runner's worker may ignore SIGINT, which its children would inherit).
proc = subprocess.Popen(sys.argv[3:], env=env, stderr=subprocess.DEVNULL,
                        stdout=subprocess.PIPE if sig == signal.SIGPIPE else None,
                        start_new_session=True,
                        preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
deadline = time.monotonic() + 30
def run_directory():
    return any(os.path.isdir(os.path.join(tmp, e)) for e in os.listdir(tmp))


while not run_directory() and time.monotonic() < deadline:
    time.sleep(0.02)
if sig == signal.SIGPIPE:
    proc.stdout.read(1)
    proc.stdout.close()
else:
    time.sleep(0.3)  # the first job (the slow host compiler) is running
    proc.send_signal(sig)
rc = proc.wait()
ended = f"killed by {signal.Signals(-rc).name}" if rc < 0 else f"exit {rc}"
time.sleep(0.2)
left = sorted(os.listdir(tmp))
print(f"{ended}, left: {' '.join(left) if left else 'nothing'}")
# The slow host compiler of the interrupted run, if it still sleeps.
try:
    os.killpg(proc.pid, signal.SIGKILL)
except ProcessLookupError:
    pass

# Runs mycc on a full file system: a 64 KB tmpfs mounted at ./full (the test
# runs this in a mount namespace of its own, so the mount goes with it),
# holding an older output, then filled up. Prints each command's exit status
# and what is left in ./full.
#   sh full_disk.sh MYCC SOURCE
mycc=$1 source=$2
mkdir -p full && mount -t tmpfs -o size=64k tmpfs full || exit 99
"$mycc" -c -arch=sm_90 "$source" -o full/out.o || exit 98
cp full/out.o before.o
echo old > full/out.ptx
dd if=/dev/zero of=full/fill bs=1k 2>/dev/null
run() { name=$1; shift; "$mycc" "$@"; echo "$name: exit $?"; }
run object -c -arch=sm_90 "$source" -o full/out.o
run ptx -ptx -arch=sm_90 "$source" -o full/out.ptx
run cubin -cubin -arch=sm_90 "$source" -o full/out.cubin
run fatbin -fatbin -arch=sm_90 "$source" -o full/out.fatbin
run program -arch=sm_90 "$source" -o full/app
run depfile -M "$source" -o full/out.d
# The temporary directory on the full file system, the output elsewhere.
TMPDIR=$PWD/full run tmpdir -c -arch=sm_90 "$source" -o elsewhere.o
cmp full/out.o before.o && echo "object unchanged"
echo "ptx: $(cat full/out.ptx)"
echo "left: $(ls -A full | tr '\n' ' ')"
[ -e elsewhere.o ] && echo "elsewhere.o written"
exit 0

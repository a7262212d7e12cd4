// nvcc's atomic builtins with memory order and scope (CUDA 12.8+:
// __nv_atomic_fetch_add, ..._load_n, ..._thread_fence, ...) compile to the
// PTX nvcc 13 emits for them: the CHECK lines below are nvcc's, checked
// against both compilers, and every kernel's memory operations are compared
// with nvcc's where it is installed. Clang's __scoped_atomic builtins would
// lose the order in LLVM 22's NVPTX back end (an acquire fetch_add became a
// relaxed atom), so mycc's prelude writes each form in PTX.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %mycc -ptx -arch=sm_90 %s -o %t/mycc.ptx
// RUN: FileCheck %s < %t/mycc.ptx
// RUN: %mycc -c -arch=sm_90 %s -o %t/mycc.o
// RUN: %mycc -c -arch=sm_90 --host-in-process %s -o %t/mycc-in-process.o
// RUN: %mycc -ptx -arch=sm_90 -G %s -o %t/mycc-debug.ptx
// RUN: %if nvcc %{ %cuda_path/bin/nvcc -ptx -arch=sm_90 %s -o %t/nvcc.ptx %}
// RUN: %if nvcc %{ FileCheck %s < %t/nvcc.ptx %}
// RUN: %if nvcc %{ %python %inputs/ptx_ops.py memory %t/mycc.ptx %t/nvcc.ptx %}

#define K(name, body) __global__ void name(int *p, unsigned *u, long long *l, unsigned long long *ul, float *f, double *d, int v) { body; }
K(t_thread, p[1] = __nv_atomic_fetch_add(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_THREAD))
K(t_consume, p[1] = __nv_atomic_fetch_add(p, v, __NV_ATOMIC_CONSUME, __NV_THREAD_SCOPE_DEVICE))
K(t_ld_sc, p[1] = __nv_atomic_load_n(p, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE))
K(t_ld_thread, p[1] = __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_THREAD))
K(t_st_sc, __nv_atomic_store_n(p, v, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_BLOCK))
K(t_st_relaxed_sys, __nv_atomic_store_n(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM))
K(t_umin, u[1] = __nv_atomic_fetch_min(u, 3u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE))
K(t_llmax, l[1] = __nv_atomic_fetch_max(l, 3ll, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE))
K(t_ulladd, ul[1] = __nv_atomic_fetch_add(ul, 3ull, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE))
K(t_dadd, d[1] = __nv_atomic_fetch_add(d, 1.0, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE))
K(t_fsub, f[1] = __nv_atomic_fetch_sub(f, 1.0f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE))
K(t_casll, long long e = 1; p[0] = __nv_atomic_compare_exchange_n(l, &e, 2ll, false, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE); l[1] = e)
K(t_fence_acq, __nv_atomic_thread_fence(__NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK))
K(t_fence_rel_sys, __nv_atomic_thread_fence(__NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_SYSTEM))
K(t_fence_relaxed, __nv_atomic_thread_fence(__NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM))
K(t_fence_cluster, __nv_atomic_thread_fence(__NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_CLUSTER))
K(t_fence_thread, __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_THREAD))
K(t_red_sub, __nv_atomic_sub(p, v, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE))
K(t_red_and, __nv_atomic_and(u, 3u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE))
K(t_red_min, __nv_atomic_min(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE))
K(t_red_max, __nv_atomic_max(ul, 4ull, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE))
K(t_red_or, __nv_atomic_or(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE))
K(t_red_xor, __nv_atomic_xor(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE))
K(t_red_fadd, __nv_atomic_add(f, 1.0f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK))
K(t_default, p[1] = __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED))
K(t_ld_generic_struct, int2 r; __nv_atomic_load((int2*)p, &r, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE); p[3]=r.x+r.y)
K(t_unused, __nv_atomic_fetch_add(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE))
K(t_unused_ld, __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE))

#define F(n,o,s) __global__ void n(){ __nv_atomic_thread_fence(o, s); }
F(f_RELAXED_THREAD, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_THREAD)
F(f_RELAXED_BLOCK, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK)
F(f_RELAXED_CLUSTER, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_CLUSTER)
F(f_RELAXED_DEVICE, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE)
F(f_RELAXED_SYSTEM, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_SYSTEM)
F(f_CONSUME_THREAD, __NV_ATOMIC_CONSUME, __NV_THREAD_SCOPE_THREAD)
F(f_CONSUME_BLOCK, __NV_ATOMIC_CONSUME, __NV_THREAD_SCOPE_BLOCK)
F(f_CONSUME_CLUSTER, __NV_ATOMIC_CONSUME, __NV_THREAD_SCOPE_CLUSTER)
F(f_CONSUME_DEVICE, __NV_ATOMIC_CONSUME, __NV_THREAD_SCOPE_DEVICE)
F(f_CONSUME_SYSTEM, __NV_ATOMIC_CONSUME, __NV_THREAD_SCOPE_SYSTEM)
F(f_ACQUIRE_THREAD, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_THREAD)
F(f_ACQUIRE_BLOCK, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK)
F(f_ACQUIRE_CLUSTER, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_CLUSTER)
F(f_ACQUIRE_DEVICE, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE)
F(f_ACQUIRE_SYSTEM, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_SYSTEM)
F(f_RELEASE_THREAD, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_THREAD)
F(f_RELEASE_BLOCK, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK)
F(f_RELEASE_CLUSTER, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_CLUSTER)
F(f_RELEASE_DEVICE, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE)
F(f_RELEASE_SYSTEM, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_SYSTEM)
F(f_ACQ_REL_THREAD, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_THREAD)
F(f_ACQ_REL_BLOCK, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_BLOCK)
F(f_ACQ_REL_CLUSTER, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_CLUSTER)
F(f_ACQ_REL_DEVICE, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_DEVICE)
F(f_ACQ_REL_SYSTEM, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_SYSTEM)
F(f_SEQ_CST_THREAD, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_THREAD)
F(f_SEQ_CST_BLOCK, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_BLOCK)
F(f_SEQ_CST_CLUSTER, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_CLUSTER)
F(f_SEQ_CST_DEVICE, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE)
F(f_SEQ_CST_SYSTEM, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM)

#define L(n,o) __global__ void n(int *p){ p[1] = __nv_atomic_load_n(p, o, __NV_THREAD_SCOPE_DEVICE); }
#define S(n,o) __global__ void n(int *p, int v){ __nv_atomic_store_n(p, v, o, __NV_THREAD_SCOPE_DEVICE); }
#define C(n,o,f) __global__ void n(int *p, int v){ int e = 0; p[1] = __nv_atomic_compare_exchange_n(p, &e, v, false, o, f, __NV_THREAD_SCOPE_DEVICE); p[2]=e; }
L(l_RELAXED, __NV_ATOMIC_RELAXED)
S(s_RELAXED, __NV_ATOMIC_RELAXED)
C(c_RELAXED_RELAXED, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED)
C(c_RELAXED_ACQUIRE, __NV_ATOMIC_RELAXED, __NV_ATOMIC_ACQUIRE)
C(c_RELAXED_SEQ_CST, __NV_ATOMIC_RELAXED, __NV_ATOMIC_SEQ_CST)
L(l_CONSUME, __NV_ATOMIC_CONSUME)
C(c_CONSUME_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_RELAXED)
C(c_CONSUME_ACQUIRE, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE)
C(c_CONSUME_SEQ_CST, __NV_ATOMIC_CONSUME, __NV_ATOMIC_SEQ_CST)
L(l_ACQUIRE, __NV_ATOMIC_ACQUIRE)
C(c_ACQUIRE_RELAXED, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELAXED)
C(c_ACQUIRE_ACQUIRE, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_ACQUIRE)
C(c_ACQUIRE_SEQ_CST, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_SEQ_CST)
S(s_RELEASE, __NV_ATOMIC_RELEASE)
C(c_RELEASE_RELAXED, __NV_ATOMIC_RELEASE, __NV_ATOMIC_RELAXED)
C(c_RELEASE_ACQUIRE, __NV_ATOMIC_RELEASE, __NV_ATOMIC_ACQUIRE)
C(c_RELEASE_SEQ_CST, __NV_ATOMIC_RELEASE, __NV_ATOMIC_SEQ_CST)
C(c_ACQ_REL_RELAXED, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_RELAXED)
C(c_ACQ_REL_ACQUIRE, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_ACQUIRE)
C(c_ACQ_REL_SEQ_CST, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_SEQ_CST)
L(l_SEQ_CST, __NV_ATOMIC_SEQ_CST)
S(s_SEQ_CST, __NV_ATOMIC_SEQ_CST)
C(c_SEQ_CST_RELAXED, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_RELAXED)
C(c_SEQ_CST_ACQUIRE, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_ACQUIRE)
C(c_SEQ_CST_SEQ_CST, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_SEQ_CST)

__global__ void mixed(int *p, float *f, unsigned long long *u, int v, bool *b) {
  int r = 0;
  p[10] = __nv_atomic_fetch_add(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  p[11] = __nv_atomic_fetch_sub(p, v, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
  p[12] = __nv_atomic_fetch_min(p, v, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_CLUSTER);
  p[13] = __nv_atomic_fetch_max(p, v, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_SYSTEM);
  p[14] = __nv_atomic_fetch_and(p, v, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  p[15] = __nv_atomic_fetch_or(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  p[16] = __nv_atomic_fetch_xor(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  f[1] = __nv_atomic_fetch_add(f, 1.0f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  p[17] = __nv_atomic_exchange_n(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_exchange(p, &v, &r, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE); p[18]=r;
  int e = 3; b[0] = __nv_atomic_compare_exchange_n(p, &e, v, false, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  int d = 7; b[1] = __nv_atomic_compare_exchange(p, &e, &d, true, __NV_ATOMIC_RELAXED, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  p[19] = __nv_atomic_load_n(p+1, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_load(p+1, &r, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK); p[20]=r;
  __nv_atomic_store_n(p+2, v, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_SYSTEM);
  __nv_atomic_store(p+3, &v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_add(p+4, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  u[0] = __nv_atomic_fetch_add(u, 1ull, __NV_ATOMIC_RELAXED);
}
// CHECK-LABEL: .entry _Z8t_threadPiPjPxPyPfPdi(
// CHECK: atom.add.relaxed.cta.s32
// CHECK-LABEL: .entry _Z9t_consumePiPjPxPyPfPdi(
// CHECK: atom.add.acquire.gpu.s32
// CHECK-LABEL: .entry _Z7t_ld_scPiPjPxPyPfPdi(
// CHECK: fence.sc.gpu;
// CHECK: ld.acquire.gpu.b32
// CHECK-LABEL: .entry _Z11t_ld_threadPiPjPxPyPfPdi(
// CHECK: ld.relaxed.cta.b32
// CHECK-LABEL: .entry _Z7t_st_scPiPjPxPyPfPdi(
// CHECK: fence.sc.cta;
// CHECK: st.relaxed.cta.b32
// CHECK-LABEL: .entry _Z16t_st_relaxed_sysPiPjPxPyPfPdi(
// CHECK: st.relaxed.sys.b32
// CHECK-LABEL: .entry _Z6t_uminPiPjPxPyPfPdi(
// CHECK: atom.min.relaxed.gpu.u32
// CHECK-LABEL: .entry _Z7t_llmaxPiPjPxPyPfPdi(
// CHECK: atom.max.relaxed.gpu.s64
// CHECK-LABEL: .entry _Z8t_ulladdPiPjPxPyPfPdi(
// CHECK: atom.add.release.gpu.u64
// CHECK-LABEL: .entry _Z6t_daddPiPjPxPyPfPdi(
// CHECK: atom.add.acq_rel.gpu.f64
// CHECK-LABEL: .entry _Z6t_fsubPiPjPxPyPfPdi(
// CHECK: atom.add.relaxed.gpu.f32
// CHECK-LABEL: .entry _Z7t_casllPiPjPxPyPfPdi(
// CHECK: fence.sc.gpu;
// CHECK: atom.cas.acquire.gpu.b64
// CHECK-LABEL: .entry _Z11t_fence_acqPiPjPxPyPfPdi(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z15t_fence_rel_sysPiPjPxPyPfPdi(
// CHECK: fence.sc.sys;
// CHECK-LABEL: .entry _Z15t_fence_relaxedPiPjPxPyPfPdi(
// CHECK: fence.sc.sys;
// CHECK-LABEL: .entry _Z15t_fence_clusterPiPjPxPyPfPdi(
// CHECK: fence.acq_rel.cluster;
// CHECK-LABEL: .entry _Z14t_fence_threadPiPjPxPyPfPdi(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z9t_red_subPiPjPxPyPfPdi(
// CHECK: atom.add.release.gpu.s32
// CHECK-LABEL: .entry _Z9t_red_andPiPjPxPyPfPdi(
// CHECK: atom.and.relaxed.gpu.b32
// CHECK-LABEL: .entry _Z9t_red_minPiPjPxPyPfPdi(
// CHECK: atom.min.relaxed.gpu.s32
// CHECK-LABEL: .entry _Z9t_red_maxPiPjPxPyPfPdi(
// CHECK: fence.sc.gpu;
// CHECK: atom.max.acquire.gpu.u64
// CHECK-LABEL: .entry _Z8t_red_orPiPjPxPyPfPdi(
// CHECK: atom.or.relaxed.gpu.b32
// CHECK-LABEL: .entry _Z9t_red_xorPiPjPxPyPfPdi(
// CHECK: atom.xor.relaxed.gpu.b32
// CHECK-LABEL: .entry _Z10t_red_faddPiPjPxPyPfPdi(
// CHECK: atom.add.relaxed.cta.f32
// CHECK-LABEL: .entry _Z9t_defaultPiPjPxPyPfPdi(
// CHECK: ld.relaxed.sys.b32
// CHECK-LABEL: .entry _Z19t_ld_generic_structPiPjPxPyPfPdi(
// CHECK: ld.relaxed.gpu.b64
// CHECK-LABEL: .entry _Z8t_unusedPiPjPxPyPfPdi(
// CHECK: atom.add.relaxed.gpu.s32
// CHECK-LABEL: .entry _Z11t_unused_ldPiPjPxPyPfPdi(
// CHECK: ld.relaxed.gpu.b32
// CHECK-LABEL: .entry _Z16f_RELAXED_THREADv(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z15f_RELAXED_BLOCKv(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z17f_RELAXED_CLUSTERv(
// CHECK: fence.sc.cluster;
// CHECK-LABEL: .entry _Z16f_RELAXED_DEVICEv(
// CHECK: fence.sc.gpu;
// CHECK-LABEL: .entry _Z16f_RELAXED_SYSTEMv(
// CHECK: fence.sc.sys;
// CHECK-LABEL: .entry _Z16f_CONSUME_THREADv(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z15f_CONSUME_BLOCKv(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z17f_CONSUME_CLUSTERv(
// CHECK: fence.sc.cluster;
// CHECK-LABEL: .entry _Z16f_CONSUME_DEVICEv(
// CHECK: fence.sc.gpu;
// CHECK-LABEL: .entry _Z16f_CONSUME_SYSTEMv(
// CHECK: fence.sc.sys;
// CHECK-LABEL: .entry _Z16f_ACQUIRE_THREADv(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z15f_ACQUIRE_BLOCKv(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z17f_ACQUIRE_CLUSTERv(
// CHECK: fence.sc.cluster;
// CHECK-LABEL: .entry _Z16f_ACQUIRE_DEVICEv(
// CHECK: fence.sc.gpu;
// CHECK-LABEL: .entry _Z16f_ACQUIRE_SYSTEMv(
// CHECK: fence.sc.sys;
// CHECK-LABEL: .entry _Z16f_RELEASE_THREADv(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z15f_RELEASE_BLOCKv(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z17f_RELEASE_CLUSTERv(
// CHECK: fence.sc.cluster;
// CHECK-LABEL: .entry _Z16f_RELEASE_DEVICEv(
// CHECK: fence.sc.gpu;
// CHECK-LABEL: .entry _Z16f_RELEASE_SYSTEMv(
// CHECK: fence.sc.sys;
// CHECK-LABEL: .entry _Z16f_ACQ_REL_THREADv(
// CHECK: fence.acq_rel.cta;
// CHECK-LABEL: .entry _Z15f_ACQ_REL_BLOCKv(
// CHECK: fence.acq_rel.cta;
// CHECK-LABEL: .entry _Z17f_ACQ_REL_CLUSTERv(
// CHECK: fence.acq_rel.cluster;
// CHECK-LABEL: .entry _Z16f_ACQ_REL_DEVICEv(
// CHECK: fence.acq_rel.gpu;
// CHECK-LABEL: .entry _Z16f_ACQ_REL_SYSTEMv(
// CHECK: fence.acq_rel.sys;
// CHECK-LABEL: .entry _Z16f_SEQ_CST_THREADv(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z15f_SEQ_CST_BLOCKv(
// CHECK: fence.sc.cta;
// CHECK-LABEL: .entry _Z17f_SEQ_CST_CLUSTERv(
// CHECK: fence.sc.cluster;
// CHECK-LABEL: .entry _Z16f_SEQ_CST_DEVICEv(
// CHECK: fence.sc.gpu;
// CHECK-LABEL: .entry _Z16f_SEQ_CST_SYSTEMv(
// CHECK: fence.sc.sys;
// CHECK-LABEL: .entry _Z9l_RELAXEDPi(
// CHECK: ld.relaxed.gpu.b32
// CHECK-LABEL: .entry _Z9s_RELAXEDPii(
// CHECK: st.relaxed.gpu.b32
// CHECK-LABEL: .entry _Z17c_RELAXED_RELAXEDPii(
// CHECK: atom.cas.relaxed.gpu.b32
// CHECK-LABEL: .entry _Z17c_RELAXED_ACQUIREPii(
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z17c_RELAXED_SEQ_CSTPii(
// CHECK: fence.sc.gpu;
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z9l_CONSUMEPi(
// CHECK: ld.acquire.gpu.b32
// CHECK-LABEL: .entry _Z17c_CONSUME_RELAXEDPii(
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z17c_CONSUME_ACQUIREPii(
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z17c_CONSUME_SEQ_CSTPii(
// CHECK: fence.sc.gpu;
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z9l_ACQUIREPi(
// CHECK: ld.acquire.gpu.b32
// CHECK-LABEL: .entry _Z17c_ACQUIRE_RELAXEDPii(
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z17c_ACQUIRE_ACQUIREPii(
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z17c_ACQUIRE_SEQ_CSTPii(
// CHECK: fence.sc.gpu;
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z9s_RELEASEPii(
// CHECK: st.release.gpu.b32
// CHECK-LABEL: .entry _Z17c_RELEASE_RELAXEDPii(
// CHECK: atom.cas.release.gpu.b32
// CHECK-LABEL: .entry _Z17c_RELEASE_ACQUIREPii(
// CHECK: atom.cas.release.gpu.b32
// CHECK-LABEL: .entry _Z17c_RELEASE_SEQ_CSTPii(
// CHECK: fence.sc.gpu;
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z17c_ACQ_REL_RELAXEDPii(
// CHECK: atom.cas.acq_rel.gpu.b32
// CHECK-LABEL: .entry _Z17c_ACQ_REL_ACQUIREPii(
// CHECK: atom.cas.acq_rel.gpu.b32
// CHECK-LABEL: .entry _Z17c_ACQ_REL_SEQ_CSTPii(
// CHECK: fence.sc.gpu;
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z9l_SEQ_CSTPi(
// CHECK: fence.sc.gpu;
// CHECK: ld.acquire.gpu.b32
// CHECK-LABEL: .entry _Z9s_SEQ_CSTPii(
// CHECK: fence.sc.gpu;
// CHECK: st.relaxed.gpu.b32
// CHECK-LABEL: .entry _Z17c_SEQ_CST_RELAXEDPii(
// CHECK: fence.sc.gpu;
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z17c_SEQ_CST_ACQUIREPii(
// CHECK: fence.sc.gpu;
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z17c_SEQ_CST_SEQ_CSTPii(
// CHECK: fence.sc.gpu;
// CHECK: atom.cas.acquire.gpu.b32
// CHECK-LABEL: .entry _Z5mixedPiPfPyiPb(
// CHECK: atom.add.relaxed.gpu.s32
// CHECK: atom.add.acquire.cta.s32
// CHECK: atom.min.release.cluster.s32
// CHECK: atom.max.acq_rel.sys.s32
// CHECK: fence.sc.gpu;
// CHECK: atom.and.acquire.gpu.b32
// CHECK: atom.or.relaxed.gpu.b32
// CHECK: atom.xor.relaxed.gpu.b32
// CHECK: atom.add.relaxed.gpu.f32
// CHECK: atom.exch.relaxed.gpu.b32
// CHECK: atom.exch.relaxed.gpu.b32
// CHECK: atom.cas.acq_rel.gpu.b32
// CHECK: atom.cas.relaxed.gpu.b32
// CHECK: ld.acquire.gpu.b32
// CHECK: ld.relaxed.cta.b32
// CHECK: st.release.sys.b32
// CHECK: st.relaxed.gpu.b32
// CHECK: fence.sc.gpu;
// CHECK: atom.add.relaxed.gpu.s32
// CHECK: atom.add.relaxed.sys.u64

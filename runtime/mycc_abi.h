/* The interface between the host code mycc generates and the mycc runtime.
   lib/Lowering pastes this text into every rewritten translation unit, and
   runtime/ implements it, so both always agree. Plain C, no includes. */
#ifndef MYCC_ABI_H
#define MYCC_ABI_H
#define MYCC_ABI_VERSION 1
struct __mycc_kernel_entry {
  const void *stub;        /* host stub: the kernel's identity on the host */
  const char *device_name; /* mangled device-side symbol */
};
struct __mycc_var_entry {
  void *shadow;            /* host shadow: the variable's identity on the host */
  const char *device_name; /* mangled device-side symbol */
  unsigned long long size;
  int is_constant;         /* 1 for __constant__ */
};
struct __mycc_module_desc {
  unsigned abi_version;    /* MYCC_ABI_VERSION */
  const void *fatbin_wrapper; /* __fatBinC_Wrapper_t in .nvFatBinSegment */
  const struct __mycc_kernel_entry *kernels;
  unsigned num_kernels;
  const struct __mycc_var_entry *vars;
  unsigned num_vars;
  const char *source_name; /* the .cu file, for messages */
};
#ifdef __cplusplus
extern "C" {
#endif
/* Called from each translation unit's constructor. */
void __mycc_register_module(const struct __mycc_module_desc *module);
/* Called by each kernel stub: pops the launch configuration pushed at the
   call site and launches. Returns a cudaError_t. */
int __mycc_launch(const void *stub, void **args);
#ifdef __cplusplus
}
#endif
#endif

/* The interface between the host code mycc generates and the mycc runtime.
   lib/Lowering pastes this text into every rewritten translation unit, and
   runtime/ implements it, so both always agree. Plain C, no includes. */
#ifndef MYCC_ABI_H
#define MYCC_ABI_H
#define MYCC_ABI_VERSION 3
struct __mycc_kernel_entry {
  const void *stub;        /* host stub: the kernel's identity on the host */
  const char *device_name; /* mangled device-side symbol */
};
struct __mycc_var_entry {
  /* host shadow: the variable's identity on the host; for a __managed__
     variable the host pointer cudart sets to its managed allocation */
  void *shadow;
  const char *device_name; /* mangled device-side symbol */
  unsigned long long size;
  int flags;               /* __MYCC_VAR_* */
};
enum { __MYCC_VAR_CONSTANT = 1, __MYCC_VAR_MANAGED = 2 };
/* Defined by a device link (-dlink) for each unit of relocatable device code
   it linked: the one fat binary of all of them. */
struct __mycc_linked_image {
  unsigned abi_version;       /* MYCC_ABI_VERSION */
  const void *fatbin_wrapper; /* the device-linked fat binary */
  unsigned num_units;         /* units whose device code it holds */
  const char *name;           /* for messages */
};
struct __mycc_module_desc {
  unsigned abi_version;    /* MYCC_ABI_VERSION */
  /* Whole-program unit: its own fat binary (__fatBinC_Wrapper_t in
     .nvFatBinSegment); null for a unit of relocatable device code. */
  const void *fatbin_wrapper;
  const struct __mycc_kernel_entry *kernels;
  unsigned num_kernels;
  const struct __mycc_var_entry *vars;
  unsigned num_vars;
  const char *source_name; /* the .cu file, for messages */
  /* Relocatable device code: the device link's image, shared by every unit
     it linked; null for a whole-program unit. */
  const struct __mycc_linked_image *linked;
};
#ifdef __cplusplus
extern "C" {
#endif
/* Called from each translation unit's constructor. */
void __mycc_register_module(const struct __mycc_module_desc *module);
/* Called by each kernel stub: pops the launch configuration pushed at the
   call site and launches. Returns a cudaError_t. */
int __mycc_launch(const void *stub, void **args);
/* The same, for a unit compiled with CUDA_API_PER_THREAD_DEFAULT_STREAM
   (-default-stream per-thread): a launch without a stream goes to the
   per-thread default stream, as cudaLaunchKernel_ptsz's. */
int __mycc_launch_ptsz(const void *stub, void **args);
/* nvcc's relocatable device code: called back by the device link's
   registration with the linked image's handle; registers the unit's kernels
   and variables on it. */
void __mycc_register_linked_unit(void **handle,
                                 const struct __mycc_module_desc *module);
/* Called before a unit's first host access to a __managed__ variable: loads
   the module holding it, so that cudart has set the host pointers. */
void __mycc_init_managed(const struct __mycc_module_desc *module);
#ifdef __cplusplus
}
#endif
#endif

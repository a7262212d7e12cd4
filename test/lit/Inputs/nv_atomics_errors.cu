__global__ void k(int *p, float *f, int v){
  p[1] = __nv_atomic_load_n(p, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_store_n(p, v, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  f[1] = __nv_atomic_exchange_n(f, 2.0f, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
}

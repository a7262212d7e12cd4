// A libdevice call (options-toolkit-dirs.test).
__global__ void k(float *p) { p[0] = expf(p[1]) + erff(p[2]); }

// Four kernels, one in a namespace, one extern "C" (options-switch-entries.test).
__global__ void k1(int*p){*p=1;}
__global__ void k2(int*p){*p=2;}
namespace n { __global__ void k3(int*p){*p=3;} }
extern "C" __global__ void k4(int*p){*p=4;}

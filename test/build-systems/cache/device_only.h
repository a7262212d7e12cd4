// Included by kernel.cu's device side only (under __CUDA_ARCH__).
#define DEVICE_VALUE 10

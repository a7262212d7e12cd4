// Included by main.cu's device side only (under __CUDA_ARCH__): the
// dependency rule must still name it.
#define DEVICE_ONLY_VALUE 2

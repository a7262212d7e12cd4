// Included by kernel.cu's host side only.
#define HOST_VALUE 1

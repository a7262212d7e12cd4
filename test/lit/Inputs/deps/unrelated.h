// A header main.cu does not include.
#define UNRELATED 1

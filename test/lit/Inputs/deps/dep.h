// The local header of main.cu.
#define DEP_VALUE 42

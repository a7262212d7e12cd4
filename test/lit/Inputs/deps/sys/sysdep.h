// Found through -isystem: a system header for -MM.
#define SYSDEP_VALUE 1

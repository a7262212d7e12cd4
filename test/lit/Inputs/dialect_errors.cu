// Three errors, for -Xcudafe --error_limit.
__global__ void kernel(int *p) {
  p[0] = undeclared_one;
  p[1] = undeclared_two;
  p[2] = undeclared_three;
}

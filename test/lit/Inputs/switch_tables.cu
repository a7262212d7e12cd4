// Two dense switches (options-switch-entries.test): one of values, one of stores.
__global__ void k(int *p, int s) {
  int r;
  switch (s) { case 0: r = 11; break; case 1: r = 27; break; case 2: r = 3; break; case 3: r = 91; break;
  case 4: r = 5; break; case 5: r = 61; break; case 6: r = 7; break; case 7: r = 8; break; default: r = 0; }
  p[0] = r * p[1];
  switch (s) { case 0: p[2] = p[3]; break; case 1: p[4]=p[5]+1; break; case 2: p[6]*=3; break; case 3: p[7]=0; break; case 4: p[8]=p[9]; break; case 5: p[10]=2;break; case 6: p[11]=p[12]*p[13]; break; case 7: p[14]=1; break; }
}

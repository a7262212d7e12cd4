// Host code that g++ -Wall -Wextra warns about in two ways: how it is
// written (parentheses, dangling else, empty body), which nvcc's lowered
// unit (written anew by cudafe++) never shows, and what it does (unused
// parameter, sign comparison, fall-through, set but unused), which it does.
int f1(int a, int b) { return a << b - 1; }
int f2(int a, int b) { if (a = b) return 1; return 0; }
int f3(int a) { if (a) if (a > 2) return 1; else return 2; return 3; }
int f4(int a) { if (a)
    a++;
    a++; return a; }
int f5(int a, int b) { return !a == b; }
int f6(int a) { if (a); return a; }
int f7(int a) { switch (a) { case 1: a++; case 2: return a; } return 0; }
int f8() { int x; x = 3; return 0; }
int f9(unsigned u, int i) { return u < i; }
int f10(int a, int unusedp) { return a; }
int f11(int a, int b) { return a && b || a; }
int f12(int a) { return a & 1 == 0; }
__global__ void k() {}

// A main for programs whose device code is only compiled and linked here.
int main() { return 0; }

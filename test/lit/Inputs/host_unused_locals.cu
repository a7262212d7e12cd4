// Host code with what CUB's templates have: a local typedef never used
// (cub/thread/thread_search.cuh's MergePathSearch), and unused variables.
template <class It> struct traits { using value_type = int; };
template <class It> void merge_path(It it) {
  /// The value type of the input iterator
  using T = typename traits<It>::value_type;
  (void)it;
}
int count() {
  int unused = 3;
  static int s_unused;
  return 1;
}
static void unused_fn() {}
__global__ void kernel(int *p) { *p = 1; }

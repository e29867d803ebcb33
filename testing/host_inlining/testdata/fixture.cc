// Fixture for check_fast_paths_test: three roots whose optimized code is
// known. straight_line calls nothing; calls_out_of_line keeps a call to a
// function that may not be inlined; calls_child calls through a pointer.

[[gnu::noinline]] int kept_out_of_line(int x) { return x * 3 + 1; }

inline int small(int x) { return x + 1; }

extern "C" int morel_host_root_straight_line(int x) { return small(x) * 2; }

extern "C" int morel_host_root_calls_out_of_line(int x) { return kept_out_of_line(x) + 2; }

extern "C" int morel_host_root_calls_child(int (*child)(int), int x) { return child(x) + 1; }

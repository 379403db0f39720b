// Placeholder: twiddle bench (being written).
#include "commands.hpp"

namespace twiddle::cli {
void add_bench_command(CLI::App&) {}
}  // namespace twiddle::cli

// Placeholder: twiddle fft (being written).
#include "commands.hpp"

namespace twiddle::cli {
void add_fft_command(CLI::App&) {}
}  // namespace twiddle::cli

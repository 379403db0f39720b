// The twiddle command-line tool's subcommands. Each adds itself to the app; its callback does
// the work and throws on failure (main prints one line and exits non-zero).
#pragma once

#include <CLI/CLI.hpp>

#include "twiddle/context.hpp"

namespace twiddle::cli {

void add_info_command(CLI::App& app);

// Throws twiddle::Error carrying the validation layer's messages, if it reported any (with
// TWIDDLE_VALIDATION=1): a command whose Vulkan use was invalid must not report success.
void check_validation(const Context& context);
void add_bench_command(CLI::App& app);
void add_fft_command(CLI::App& app);

}  // namespace twiddle::cli

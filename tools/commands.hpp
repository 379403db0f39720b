// The twiddle command-line tool's subcommands. Each adds itself to the app; its callback does
// the work and throws on failure (main prints one line and exits non-zero).
#pragma once

#include <CLI/CLI.hpp>
#include <exception>
#include <string>

#include "twiddle/context.hpp"

namespace twiddle::cli {

void add_info_command(CLI::App& app);

// Throws twiddle::Error carrying the validation layer's messages, if it reported any (with
// TWIDDLE_VALIDATION=1): a command whose Vulkan use was invalid must not report success.
void check_validation(const Context& context);
void add_bench_command(CLI::App& app);
// twiddle tune: the planner's choices measured per device (twiddle/tuning.hpp).
void add_tune_command(CLI::App& app);

// A CLI check that runs one of twiddle's parsers (parse_normalization, parse_strategy), so that
// a bad name is a usage error like any other, with the parser's message.
template <typename Parse>
CLI::Validator parsed_by(Parse parse) {
    return CLI::Validator(
        [parse](const std::string& name) {
            try {
                parse(name);
                return std::string();
            } catch (const std::exception& e) {
                return std::string(e.what());
            }
        },
        "");
}

void add_fft_command(CLI::App& app);
void add_convolve_command(CLI::App& app);

// sht-synth and sht-analys: twiddle::sht::FourierStage on .npy files.
void add_sht_commands(CLI::App& app);

// twiddle demo: a diffraction pattern computed pass by pass (cmd_demo.cpp).
void add_demo_command(CLI::App& app);
// twiddle serve: the demo as a local web page (cmd_serve.cpp; in builds with cpp-httplib).
void add_serve_command(CLI::App& app);

}  // namespace twiddle::cli

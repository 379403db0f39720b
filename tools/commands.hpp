// The twiddle command-line tool's subcommands. Each adds itself to the app; its callback does
// the work and throws on failure (main prints one line and exits non-zero).
#pragma once

#include <CLI/CLI.hpp>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <exception>
#include <sstream>
#include <string>

#include "shape_args.hpp"
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

// A bad combination of options that a command's callback finds: a usage error, which exits 2
// as the parser's own do (twiddle::Error exits 1).
[[noreturn]] inline void usage_error(const std::string& message) { throw CLI::ValidationError(message); }

// The largest length or count an option takes: no buffer holds 2^32 elements.
inline constexpr uint64_t kMaxCount = 0xffffffffu;

// A CLI transform (->transform, not ->check) that each value is a decimal integer from `low` to
// `high`. CLI11 alone reads "-5" for an unsigned option as 2^64 - 5, 2^64 or more as 2^64 - 1,
// and converts with base 0, so that "010" is 8 and "0x10" 16: each value this passes is handed
// on to CLI11 as the digits of the number it was read as, so "010" is 10 as in a shape.
inline CLI::Validator integer_in(uint64_t low, uint64_t high) {
    return CLI::Validator(
        [low, high](std::string& text) {
            const auto value = parse_decimal(text);
            if (value && *value >= low && *value <= high) {
                text = std::to_string(*value);
                return std::string();
            }
            return "'" + text + "' is not an integer from " + std::to_string(low) + " to " +
                   std::to_string(high);
        },
        high == kMaxCount ? "" : "in [" + std::to_string(low) + " - " + std::to_string(high) + "]");
}

// A CLI transform as integer_in for 0 or a power of two from `low` to `high`: the planner's rule
// for its longest pass, radix and workgroup sizes (Options), where 0 leaves the choice to it.
inline CLI::Validator zero_or_power_of_two(uint64_t low, uint64_t high, const std::string& zero_means) {
    return CLI::Validator(
        [=](std::string& text) {
            const auto value = parse_decimal(text);
            if (value && (*value == 0 || (*value >= low && *value <= high && std::has_single_bit(*value)))) {
                text = std::to_string(*value);
                return std::string();
            }
            return "'" + text + "' is not 0 (" + zero_means + ") or a power of two from " +
                   std::to_string(low) + " to " + std::to_string(high);
        },
        "");
}

// A CLI check that each value is a decimal number (as 0.5 or 5e-7: no sign, space or hex digits;
// not NaN) from `low` to `high`, above `low` where `above_low`. CLI11's Range alone lets NaN and
// "0x1" through.
inline CLI::Validator number_in(double low, double high, bool above_low = false,
                                const std::string& description = "") {
    return CLI::Validator(
        [=](const std::string& text) {
            double value = 0;
            const char* end = text.data() + text.size();
            const auto [ptr, ec] = std::from_chars(text.data(), end, value);
            const auto digit = [&](size_t i) {
                return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
            };
            const bool digits = digit(0) || (text.starts_with('.') && digit(1));
            if (digits && ec == std::errc() && ptr == end && (above_low ? value > low : value >= low) &&
                value <= high)
                return std::string();
            std::ostringstream range;
            if (above_low && std::isinf(high))
                range << "a number over " << low;
            else
                range << (above_low ? "a number over " : "a number from ") << low << " to " << high;
            return "'" + text + "' is not " + range.str();
        },
        description);
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

// twiddle: fast Fourier transforms on GPUs through Vulkan compute.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "commands.hpp"
#include "twiddle/error.hpp"
#include "twiddle/version.hpp"

void twiddle::cli::check_validation(const Context& context) {
    const auto messages = context.take_validation_messages();
    if (messages.empty()) return;
    std::string all = std::to_string(messages.size()) + " Vulkan validation message(s):";
    for (const auto& m : messages) all += " [" + m + "]";
    throw Error(all);
}

namespace {

// `message` on one line: control characters (a newline in a validation message, a device name
// or a file's bytes quoted back) written as C escapes.
std::string one_line(const char* message) {
    std::string out;
    for (const char* c = message; *c; ++c) {
        const auto byte = static_cast<unsigned char>(*c);
        if (byte == '\n') {
            out += "\\n";
        } else if (byte < 0x20 || byte == 0x7f) {
            char escape[8];
            std::snprintf(escape, sizeof escape, "\\x%02x", byte);
            out += escape;
        } else {
            out += *c;
        }
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"twiddle: fast Fourier transforms on GPUs through Vulkan compute"};
    app.set_version_flag("--version", TWIDDLE_VERSION_STRING);
    app.require_subcommand(1);
    twiddle::cli::add_info_command(app);
    twiddle::cli::add_fft_command(app);
    twiddle::cli::add_convolve_command(app);
    twiddle::cli::add_sht_commands(app);
    twiddle::cli::add_bench_command(app);
    twiddle::cli::add_tune_command(app);
    twiddle::cli::add_demo_command(app);
#ifdef TWIDDLE_SERVE
    twiddle::cli::add_serve_command(app);
#endif
    // CLI11 reports an unknown first word as a missing subcommand: name it instead.
    if (argc > 1 && argv[1][0] != '-') {
        try {
            app.get_subcommand(argv[1]);
        } catch (const CLI::OptionNotFound&) {
            std::fprintf(stderr, "twiddle: unknown command '%s' (see --help)\n", one_line(argv[1]).c_str());
            return 2;
        }
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // One line, not CLI11's usage dump: scripts read stderr.
        std::fprintf(stderr, "twiddle: %s (see --help)\n", one_line(e.what()).c_str());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "twiddle: error: out of host memory\n");
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "twiddle: error: %s\n", one_line(e.what()).c_str());
        return 1;
    }
    return 0;
}

// twiddle serve: the diffraction demo as a local web page (cpp-httplib), like the article's: a gap
// selector, a pass slider that plays from 0 to the last pass on load and hands over when dragged,
// a readout of the pass and of the GPU time, and the timing chart. The page is embedded in the
// binary and fetches nothing from elsewhere; the frames are computed on the device by the server,
// all passes of a gap at its first request, and kept.
#include <httplib.h>
#include <sys/socket.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.hpp"
#include "diffraction.hpp"
#include "image.hpp"
#include "twiddle/twiddle.hpp"

namespace twiddle::cli {
namespace {

struct ServeArgs {
    std::string host = "127.0.0.1";
    int port = 8080;
    uint32_t size = 512;
};

// The page: markup, style and script in one document.
constexpr const char* kPage = R"html(<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>twiddle: a diffraction pattern, pass by pass</title>
<style>
  body { font-family: sans-serif; background: #161616; color: #ddd; margin: 24px; }
  h1 { font-size: 20px; font-weight: normal; }
  .controls { display: flex; gap: 20px; align-items: center; flex-wrap: wrap; margin: 12px 0; }
  .gaps button { background: #2a2a2a; color: #ddd; border: 1px solid #555; padding: 4px 10px; cursor: pointer; }
  .gaps button.on { background: #ff4834; color: #fff; border-color: #ff4834; }
  .stage { display: flex; gap: 6px; }
  .stage img { width: 512px; height: 512px; image-rendering: pixelated; border: 1px solid #444; }
  .readout { font-family: monospace; margin: 4px 0; }
  #chart { background: #fff; max-width: 960px; width: 100%; margin-top: 8px; }
</style>
</head>
<body>
<h1>A gap and its diffraction pattern: the 2D Fourier transform, one pass at a time</h1>
<div class="controls">
  <span class="gaps" id="gaps">Gap
    <button data-gap="one">One slit</button>
    <button data-gap="two">Two slits</button>
    <button data-gap="grating">Grating</button>
    <button data-gap="circle">Circle</button>
  </span>
  <label>Pass <input id="pass" type="range" min="0" max="0" step="1" value="0"></label>
  <span id="pass-label" class="readout"></span>
</div>
<div id="readout" class="readout">loading</div>
<div id="speed" class="readout"></div>
<div class="stage"><img id="gap" alt="the gap"><img id="frame" alt="the transform so far"></div>
<h1>How long one transform takes</h1>
<img id="chart" src="/timing.svg" alt="timing chart">
<script>
"use strict";
const slider = document.getElementById("pass");
const readout = document.getElementById("readout");
const label = document.getElementById("pass-label");
let info = null;
let gap = "two";
let running = true;  // plays by itself until the slider is taken over

function show() {
  const p = Number(slider.value);
  document.getElementById("frame").src = `/frame?gap=${gap}&pass=${p}`;
  label.textContent = `${p} of ${info.passes}`;
  readout.textContent = `pass ${p}: ${info.descriptions[p]}`;
}

function choose(name) {
  gap = name;
  for (const b of document.querySelectorAll("#gaps button")) b.classList.toggle("on", b.dataset.gap === name);
  document.getElementById("gap").src = `/aperture?gap=${name}`;
  show();
}

slider.addEventListener("input", () => { running = false; show(); });
for (const b of document.querySelectorAll("#gaps button")) b.addEventListener("click", () => choose(b.dataset.gap));

fetch("/info").then((r) => r.json()).then((i) => {
  info = i;
  slider.max = String(i.passes);
  document.getElementById("speed").textContent =
    `${i.size} by ${i.size} transform on ${i.device}: ${i.gpu_ms.toFixed(3)} ms`;
  choose(gap);
  const timer = setInterval(() => {
    if (!running || Number(slider.value) >= info.passes) { running = false; clearInterval(timer); return; }
    slider.value = String(Number(slider.value) + 1);
    show();
  }, 450);
});
</script>
</body>
</html>
)html";

// The pictures of each gap: its own, and one per pass, as PNG files; made on first request.
class Pictures {
public:
    Pictures(const Context& ctx, uint32_t n) : ctx_(ctx), n_(n) {}

    // The PNG of the gap (pass < 0) or of its transform after `pass` passes, for a gap of
    // diffraction::kGaps and a pass the request checked. Throws twiddle::Error where the device
    // fails.
    std::shared_ptr<const std::vector<uint8_t>> get(const std::string& gap, int pass) {
        std::lock_guard lock(mutex_);
        auto it = gaps_.find(gap);
        if (it == gaps_.end()) {
            const std::vector<float> cells = diffraction::aperture(gap, n_);
            std::vector<std::shared_ptr<const std::vector<uint8_t>>> pngs;
            pngs.push_back(std::make_shared<const std::vector<uint8_t>>(
                image::encode_png(diffraction::draw_gap(cells, n_))));
            for (const auto& r : diffraction::transform_by_passes(ctx_, cells, n_))
                pngs.push_back(std::make_shared<const std::vector<uint8_t>>(
                    image::encode_png(diffraction::draw_spectrum(r, n_))));
            check_validation(ctx_);
            it = gaps_.emplace(gap, std::move(pngs)).first;
        }
        return it->second.at(static_cast<size_t>(pass + 1));
    }

private:
    const Context& ctx_;
    uint32_t n_;
    std::mutex mutex_;
    std::map<std::string, std::vector<std::shared_ptr<const std::vector<uint8_t>>>> gaps_;
};

void run_serve(const ServeArgs& a) {
    httplib::Server server;
    // httplib's default options add SO_REUSEPORT, with which a second server on a port in use
    // binds too and takes part of its requests: SO_REUSEADDR alone.
    server.set_socket_options([](socket_t sock) {
        const int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    // A browser tab keeps up to six connections open, and each idle or slow one holds a thread
    // until its timeout: more threads than httplib's eight, shorter timeouts than its five seconds.
    server.new_task_queue = [] { return new httplib::ThreadPool(64); };
    server.set_keep_alive_timeout(2);
    server.set_read_timeout(2, 0);
    // The address is taken before the device starts, so that one in use fails at once; requests
    // wait in the backlog until the pictures are ready.
    const int port =
        a.port == 0 ? server.bind_to_any_port(a.host) : (server.bind_to_port(a.host, a.port) ? a.port : -1);
    // An IPv6 address is written in brackets in a URL.
    const std::string host = a.host.find(':') == std::string::npos ? a.host : "[" + a.host + "]";
    if (port <= 0) throw Error("cannot listen on " + host + ":" + std::to_string(a.port));
    Context ctx;
    const uint32_t n = a.size;
    std::printf("device: %s; measuring the timing chart\n", ctx.caps().name.c_str());
    std::fflush(stdout);
    const diffraction::Timings timings = diffraction::measure_timings(ctx);
    check_validation(ctx);
    const std::string svg = chart::to_svg(timings.figure);
    const size_t passes = 2 * static_cast<size_t>(std::bit_width(n) - 1);
    nlohmann::json info = {{"device", ctx.caps().name},
                           {"size", n},
                           {"passes", passes},
                           {"gpu_ms", n == 512 ? timings.gpu_ms_512 : diffraction::gpu_ms(ctx, n)},
                           {"gaps", diffraction::kGaps}};
    for (size_t p = 0; p <= passes; ++p) info["descriptions"].push_back(diffraction::describe_pass(p, n));
    const std::string info_text = info.dump();

    Pictures pictures(ctx, n);
    // Every path takes GET (and HEAD, which httplib answers from GET's handler). Another method
    // on one of them is answered 405 with the methods it takes, and any method on another path
    // 404, as HTTP has it (httplib answers 400 or 404 by the method).
    std::vector<std::string> paths;
    const auto get = [&](const std::string& path, httplib::Server::Handler handler) {
        paths.push_back(path);
        server.Get(path, std::move(handler));
    };
    server.set_pre_routing_handler([&](const httplib::Request& req, httplib::Response& res) {
        if (std::find(paths.begin(), paths.end(), req.path) == paths.end()) {
            res.status = 404;
            res.set_content("no such page", "text/plain");
        } else if (req.method != "GET" && req.method != "HEAD") {
            res.status = 405;
            res.set_header("Allow", "GET, HEAD");
            res.set_content(req.method + " is not allowed here: GET or HEAD", "text/plain");
        } else {
            return httplib::Server::HandlerResponse::Unhandled;
        }
        return httplib::Server::HandlerResponse::Handled;
    });
    get("/", [](const httplib::Request&, httplib::Response& res) { res.set_content(kPage, "text/html"); });
    get("/info", [&](const httplib::Request&, httplib::Response& res) {
        res.set_content(info_text, "application/json");
    });
    get("/timing.svg",
        [&](const httplib::Request&, httplib::Response& res) { res.set_content(svg, "image/svg+xml"); });
    // A bad request is answered 400; the device failing, 500.
    auto picture = [&](const httplib::Request& req, httplib::Response& res, bool aperture) {
        const auto refuse = [&](const std::string& why) {
            res.status = 400;
            res.set_content(why, "text/plain");
        };
        const std::string gap = req.get_param_value("gap");
        if (std::find(std::begin(diffraction::kGaps), std::end(diffraction::kGaps), gap) ==
            std::end(diffraction::kGaps))
            return refuse("gap must be one of one, two, grating and circle");
        int pass = -1;  // the aperture
        if (!aperture) {
            // Digits only, as every count on the command line: no sign, no blanks.
            const auto value = parse_decimal(req.get_param_value("pass"));
            if (!value || *value > passes)
                return refuse("pass must be a whole number from 0 to " + std::to_string(passes));
            pass = static_cast<int>(*value);
        }
        try {
            const auto png = pictures.get(gap, pass);
            res.set_content(reinterpret_cast<const char*>(png->data()), png->size(), "image/png");
        } catch (const std::exception& e) {
            res.status = 500;
            res.set_content(e.what(), "text/plain");
        }
    };
    get("/frame", [&](const httplib::Request& req, httplib::Response& res) { picture(req, res, false); });
    get("/aperture", [&](const httplib::Request& req, httplib::Response& res) { picture(req, res, true); });

    std::printf("serving http://%s:%d/ (Ctrl-C stops)\n", host.c_str(), port);
    std::fflush(stdout);
    if (!server.listen_after_bind())
        throw Error("the server on " + a.host + ":" + std::to_string(port) + " failed");
}

}  // namespace

void add_serve_command(CLI::App& app) {
    auto args = std::make_shared<ServeArgs>();
    CLI::App* cmd = app.add_subcommand("serve",
                                       "The diffraction demo as a local web page: a gap selector, a pass "
                                       "slider, the GPU time, the timing chart");
    cmd->add_option("--port", args->port, "TCP port (default 8080; 0: any free one, printed)")
        ->transform(integer_in(0, 65535));
    cmd->add_option("--host", args->host, "Address to listen on (default 127.0.0.1: this machine only)")
        ->check([](const std::string& host) { return host.empty() ? std::string("an empty address") : ""; });
    cmd->add_option("--size", args->size, "Cells on a side, a power of two from 16 to 2048 (default 512)")
        ->transform(diffraction::size_validator());
    cmd->callback([args] { run_serve(*args); });
}

}  // namespace twiddle::cli

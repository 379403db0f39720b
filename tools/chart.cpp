// One layout, drawn on two canvases: SVG elements, or an RGB raster encoded as PNG (image.hpp).
#include "chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>

#include "file_io.hpp"
#include "image.hpp"
#include "twiddle/error.hpp"

namespace twiddle::cli::chart {

namespace {

// GNU Unifont's glyphs of printable ASCII, 8x16, one hex digit pair per row (bit 7 leftmost):
// generated at build time from the unifont package's unifont.hex (embed_font.cmake).
struct Glyph {
    char32_t code;
    const char* rows;
};
constexpr Glyph kGlyphs[] = {
#include "unifont_ascii.inc"
};
constexpr int kGlyphWidth = 8, kGlyphHeight = 16, kBaseline = 14;  // rows above the baseline

const char* glyph_rows(char c) {
    for (const Glyph& g : kGlyphs)
        if (g.code == static_cast<unsigned char>(c)) return g.rows;
    for (const Glyph& g : kGlyphs)
        if (g.code == U'?') return g.rows;
    return nullptr;
}

using Point = std::pair<double, double>;
enum class Anchor { start, middle, end };

const Color kBlack{0, 0, 0}, kGrid{225, 225, 225}, kAxis{90, 90, 90}, kRule{120, 120, 120};
const Color kWhite{255, 255, 255};

// What the layout draws with. Coordinates are pixels from the top left.
class Canvas {
public:
    virtual ~Canvas() = default;
    virtual void rect(double x, double y, double w, double h, Color fill) = 0;
    virtual void polyline(const std::vector<Point>& points, Color color, double width, bool dashed) = 0;
    virtual void dot(double x, double y, double radius, Color color) = 0;
    // Horizontal text: (x, y) is the anchor on the baseline. Vertical text reads upwards; x is
    // its baseline and y the anchor along it. `scale` multiplies the 8x16 cell.
    virtual void text(double x, double y, const std::string& s, Anchor anchor, bool vertical, int scale,
                      Color color) = 0;
};

double text_width(const std::string& s, int scale) { return double(s.size()) * kGlyphWidth * scale; }

std::string rgb(Color c) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "rgb(%d,%d,%d)", c.r, c.g, c.b);
    return buf;
}

std::string xml_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

class SvgCanvas final : public Canvas {
public:
    SvgCanvas(int width, int height) {
        out_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
             << "\" viewBox=\"0 0 " << width << " " << height << "\">\n";
    }
    std::string finish() { return out_.str() + "</svg>\n"; }

    void rect(double x, double y, double w, double h, Color fill) override {
        out_ << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << h
             << "\" fill=\"" << rgb(fill) << "\"/>\n";
    }
    void polyline(const std::vector<Point>& points, Color color, double width, bool dashed) override {
        out_ << "<polyline fill=\"none\" stroke=\"" << rgb(color) << "\" stroke-width=\"" << width << "\"";
        if (dashed) out_ << " stroke-dasharray=\"6 4\"";
        out_ << " points=\"";
        for (const auto& [x, y] : points) out_ << x << "," << y << " ";
        out_ << "\"/>\n";
    }
    void dot(double x, double y, double radius, Color color) override {
        out_ << "<circle cx=\"" << x << "\" cy=\"" << y << "\" r=\"" << radius << "\" fill=\"" << rgb(color)
             << "\"/>\n";
    }
    void text(double x, double y, const std::string& s, Anchor anchor, bool vertical, int scale,
              Color color) override {
        const char* a = anchor == Anchor::start ? "start" : anchor == Anchor::middle ? "middle" : "end";
        // A monospace font advances about 0.6 em: 8 pixels per character, as the bitmap font.
        out_ << "<text font-family=\"DejaVu Sans Mono, monospace\" font-size=\"" << 13.3 * scale
             << "\" text-anchor=\"" << a << "\" fill=\"" << rgb(color) << "\" ";
        if (vertical)
            out_ << "transform=\"translate(" << x << "," << y << ") rotate(-90)\">";
        else
            out_ << "x=\"" << x << "\" y=\"" << y << "\">";
        out_ << xml_escape(s) << "</text>\n";
    }

private:
    std::ostringstream out_;
};

class RasterCanvas final : public Canvas {
public:
    RasterCanvas(int width, int height)
        : width_(width),
          height_(height),
          rgb_(size_t(width) * height * 3, 255),
          coverage_(size_t(width) * height, 0.0f) {}
    const std::vector<uint8_t>& pixels() const { return rgb_; }

    void rect(double x, double y, double w, double h, Color fill) override {
        const int x0 = std::max(0, int(std::lround(x))), x1 = std::min(width_, int(std::lround(x + w)));
        const int y0 = std::max(0, int(std::lround(y))), y1 = std::min(height_, int(std::lround(y + h)));
        for (int j = y0; j < y1; ++j)
            for (int i = x0; i < x1; ++i) blend(i, j, fill, 1.0);
    }

    // Each segment (or dash) adds coverage (distance to the segment against the half width,
    // antialiased over a pixel) to a mask, blended once, so that joints are not drawn twice.
    void polyline(const std::vector<Point>& points, Color color, double width, bool dashed) override {
        const double on = 6, off = 4;
        double phase = 0;  // distance along the dash pattern
        for (size_t k = 1; k < points.size(); ++k) {
            const auto [x0, y0] = points[k - 1];
            const auto [x1, y1] = points[k];
            const double length = std::hypot(x1 - x0, y1 - y0);
            if (!dashed || length == 0) {
                cover_segment(x0, y0, x1, y1, width);
                continue;
            }
            double t = 0;
            while (t < length) {
                const double in_pattern = std::fmod(phase, on + off);
                const double step = std::min(length - t, (in_pattern < on ? on : on + off) - in_pattern);
                if (in_pattern < on) {
                    const double a = t / length, b = (t + step) / length;
                    cover_segment(x0 + a * (x1 - x0), y0 + a * (y1 - y0), x0 + b * (x1 - x0),
                                  y0 + b * (y1 - y0), width);
                }
                t += step;
                phase += step;
            }
        }
        flush(color);
    }

    void dot(double x, double y, double radius, Color color) override {
        cover_segment(x, y, x, y, 2 * radius);
        flush(color);
    }

    void text(double x, double y, const std::string& s, Anchor anchor, bool vertical, int scale,
              Color color) override {
        const double w = text_width(s, scale);
        const double start = anchor == Anchor::start ? 0 : anchor == Anchor::middle ? -w / 2 : -w;
        // Whole pixels, so that the bitmap stays sharp.
        const int base = int(std::lround(vertical ? x : y));
        const int along = int(std::lround(vertical ? y - start : x + start));
        for (size_t c = 0; c < s.size(); ++c) {
            const char* rows = glyph_rows(s[c]);
            if (!rows) continue;
            for (int r = 0; r < kGlyphHeight; ++r) {
                unsigned bits = 0;
                std::sscanf(rows + 2 * r, "%2x", &bits);
                for (int col = 0; col < kGlyphWidth; ++col) {
                    if (!(bits & (0x80u >> col))) continue;
                    const int u = int(c) * kGlyphWidth + col, v = r - kBaseline;  // along, below baseline
                    for (int dy = 0; dy < scale; ++dy)
                        for (int dx = 0; dx < scale; ++dx) {
                            if (vertical)
                                blend(base + v * scale + dy, along - u * scale - dx - 1, color, 1.0);
                            else
                                blend(along + u * scale + dx, base + v * scale + dy, color, 1.0);
                        }
                }
            }
        }
    }

private:
    void cover_segment(double x0, double y0, double x1, double y1, double width) {
        const double half = width / 2;
        const int i0 = std::max(0, int(std::floor(std::min(x0, x1) - half - 1)));
        const int i1 = std::min(width_ - 1, int(std::ceil(std::max(x0, x1) + half + 1)));
        const int j0 = std::max(0, int(std::floor(std::min(y0, y1) - half - 1)));
        const int j1 = std::min(height_ - 1, int(std::ceil(std::max(y0, y1) + half + 1)));
        const double dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy;
        for (int j = j0; j <= j1; ++j)
            for (int i = i0; i <= i1; ++i) {
                const double px = i + 0.5, py = j + 0.5;
                const double t =
                    len2 > 0 ? std::clamp(((px - x0) * dx + (py - y0) * dy) / len2, 0.0, 1.0) : 0;
                const double d = std::hypot(px - (x0 + t * dx), py - (y0 + t * dy));
                const float c = static_cast<float>(std::clamp(half + 0.5 - d, 0.0, 1.0));
                if (c <= 0) continue;
                float& cell = coverage_[size_t(j) * width_ + i];
                if (cell == 0) touched_.push_back(size_t(j) * width_ + i);
                cell = std::max(cell, c);
            }
    }

    void flush(Color color) {
        for (size_t p : touched_) {
            blend(int(p % width_), int(p / width_), color, coverage_[p]);
            coverage_[p] = 0;
        }
        touched_.clear();
    }

    void blend(int i, int j, Color c, double alpha) {
        if (i < 0 || j < 0 || i >= width_ || j >= height_) return;
        uint8_t* p = &rgb_[(size_t(j) * width_ + i) * 3];
        const uint8_t src[3] = {c.r, c.g, c.b};
        for (int k = 0; k < 3; ++k) p[k] = static_cast<uint8_t>(std::lround(p[k] + alpha * (src[k] - p[k])));
    }

    int width_, height_;
    std::vector<uint8_t> rgb_;
    std::vector<float> coverage_;
    std::vector<size_t> touched_;
};

// An axis mapped onto pixels [lo, hi] (hi < lo for y), with its ticks.
struct Mapped {
    Scale scale = Scale::linear;
    double min = 0, max = 1;  // in transformed units (log2 or log10 of the value for log scales)
    double lo = 0, hi = 1;
    std::vector<std::pair<double, std::string>> ticks;  // transformed position, label

    double transform(double v) const {
        if (scale == Scale::linear) return v;
        if (!(v > 0)) return std::numeric_limits<double>::quiet_NaN();
        return scale == Scale::log2 ? std::log2(v) : std::log10(v);
    }
    double pixel_of(double t) const { return lo + (t - min) / (max - min) * (hi - lo); }
    double pixel(double v) const { return pixel_of(transform(v)); }
};

std::string number(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", std::max(0, decimals), v);
    return buf;
}

// The range and ticks of an axis over `values`, leaving `pixels` between ticks at least `spacing`.
Mapped map_axis(const Axis& axis, const std::vector<double>& values, double lo, double hi, double spacing) {
    Mapped m;
    m.scale = axis.scale;
    m.lo = lo;
    m.hi = hi;
    double dmin = std::numeric_limits<double>::infinity(), dmax = -dmin;
    for (double v : values) {
        const double t = m.transform(v);
        if (!std::isfinite(t)) continue;
        dmin = std::min(dmin, t);
        dmax = std::max(dmax, t);
    }
    if (!std::isfinite(dmin)) dmin = 0, dmax = 1;
    if (axis.min) dmin = m.transform(*axis.min);
    if (axis.max) dmax = m.transform(*axis.max);
    const double pixels = std::abs(hi - lo);
    if (axis.scale == Scale::linear) {
        if (!axis.min && dmin > 0) dmin = 0;
        if (dmax <= dmin) dmax = dmin + 1;
        // 1, 2 or 5 times a power of ten, with ticks no closer than `spacing` pixels.
        const double target = (dmax - dmin) * spacing / pixels;
        const double mag = std::pow(10, std::floor(std::log10(target)));
        double step = 10 * mag;
        for (double f : {1.0, 2.0, 5.0})
            if (f * mag >= target) {
                step = f * mag;
                break;
            }
        if (!axis.max) dmax = std::ceil(dmax / step - 1e-9) * step;
        if (!axis.min) dmin = std::floor(dmin / step + 1e-9) * step;
        const int decimals = -int(std::floor(std::log10(step) + 1e-9));
        for (double t = std::ceil(dmin / step - 1e-9) * step; t <= dmax + step * 1e-9; t += step)
            m.ticks.push_back({t, number(std::abs(t) < step * 1e-9 ? 0 : t, decimals)});
    } else {
        // Whole powers of the base; log2 ticks are labelled with the exponent, log10 ones with the
        // value. Unset ends leave a margin, so that no point sits on the frame.
        const double margin = std::max(0.3, 0.04 * (dmax - dmin));
        if (!axis.min) dmin -= margin;
        if (!axis.max) dmax += margin;
        if (dmax <= dmin) dmax = dmin + 1;
        // A range between two whole powers (one point, as log2 100) reaches out to the one below
        // (or, with a fixed minimum, above), so that the axis has a tick.
        if (std::ceil(dmin - 1e-9) > std::floor(dmax + 1e-9)) {
            if (!axis.min)
                dmin = std::floor(dmin);
            else if (!axis.max)
                dmax = std::ceil(dmax);
        }
        int step = 1;
        while ((dmax - dmin) / step * spacing > pixels) step *= 2;
        for (int k = int(std::ceil(dmin - 1e-9)); k <= int(std::floor(dmax + 1e-9)); ++k) {
            if (k % step) continue;
            char buf[32];
            if (axis.scale == Scale::log2)
                std::snprintf(buf, sizeof buf, "%d", k);
            else
                std::snprintf(buf, sizeof buf, "%g", std::pow(10.0, k));
            m.ticks.push_back({double(k), buf});
        }
    }
    m.min = dmin;
    m.max = dmax;
    return m;
}

// Cuts the segment a-b to the rectangle (Liang-Barsky); false if nothing of it is inside.
bool clip(Point& a, Point& b, double x0, double y0, double x1, double y1) {
    double t0 = 0, t1 = 1;
    const double dx = b.first - a.first, dy = b.second - a.second;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.first - x0, x1 - a.first, a.second - y0, y1 - a.second};
    for (int k = 0; k < 4; ++k) {
        if (p[k] == 0) {
            if (q[k] < 0) return false;
            continue;
        }
        const double r = q[k] / p[k];
        if (p[k] < 0)
            t0 = std::max(t0, r);
        else
            t1 = std::min(t1, r);
        if (t0 > t1) return false;
    }
    const Point a0 = a;
    a = {a0.first + t0 * dx, a0.second + t0 * dy};
    b = {a0.first + t1 * dx, a0.second + t1 * dy};
    return true;
}

void draw_chart(const Chart& chart, double ox, double oy, double w, double h, Canvas& c) {
    size_t longest = 0;
    for (const Series& s : chart.series) longest = std::max(longest, s.name.size());
    const double legend = longest ? text_width(std::string(longest, 'x'), 1) + 40 : 0;
    const double left = ox + 72, right = ox + w - 16 - legend, top = oy + 36, bottom = oy + h - 44;

    std::vector<double> xs, ys;
    for (const Series& s : chart.series)
        for (const auto& [x, y] : s.points) {
            if (!std::isfinite(x) || !std::isfinite(y)) continue;
            xs.push_back(x);
            ys.push_back(y);
        }
    for (double r : chart.y_rules) ys.push_back(r);
    const Mapped mx = map_axis(chart.x, xs, left, right, 36);
    const Mapped my = map_axis(chart.y, ys, bottom, top, 32);

    c.text((left + right) / 2, oy + 22, chart.title, Anchor::middle, false, 1, kBlack);
    for (const auto& [t, label] : mx.ticks) {
        const double x = mx.pixel_of(t);
        c.polyline({{x, top}, {x, bottom}}, kGrid, 1, false);
        c.text(x, bottom + 18, label, Anchor::middle, false, 1, kAxis);
    }
    for (const auto& [t, label] : my.ticks) {
        const double y = my.pixel_of(t);
        c.polyline({{left, y}, {right, y}}, kGrid, 1, false);
        c.text(left - 6, y + 5, label, Anchor::end, false, 1, kAxis);
    }
    for (double r : chart.y_rules) {
        const double y = my.pixel(r);
        if (y >= top - 0.5 && y <= bottom + 0.5) c.polyline({{left, y}, {right, y}}, kRule, 1.5, true);
    }
    c.polyline({{left, top}, {left, bottom}, {right, bottom}}, kAxis, 1, false);
    c.text((left + right) / 2, bottom + 38, chart.x.label, Anchor::middle, false, 1, kBlack);
    c.text(ox + 18, (top + bottom) / 2, chart.y.label, Anchor::middle, true, 1, kBlack);

    for (const Series& s : chart.series) {
        std::vector<std::vector<Point>> runs(1);
        std::vector<Point> dots;
        for (const auto& [x, y] : s.points) {
            const double px = mx.pixel(x), py = my.pixel(y);
            if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(px) || !std::isfinite(py)) {
                if (!runs.back().empty()) runs.emplace_back();
                continue;
            }
            runs.back().push_back({px, py});
            if (px >= left - 0.5 && px <= right + 0.5 && py >= top - 0.5 && py <= bottom + 0.5)
                dots.push_back({px, py});
        }
        for (const auto& run : runs) {
            std::vector<Point> piece;
            for (size_t k = 1; k < run.size(); ++k) {
                Point a = run[k - 1], b = run[k];
                if (!clip(a, b, left, top, right, bottom)) continue;
                if (piece.empty() || piece.back() != a) {
                    if (piece.size() > 1) c.polyline(piece, s.color, 2, s.dashed);
                    piece = {a};
                }
                piece.push_back(b);
            }
            if (piece.size() > 1) c.polyline(piece, s.color, 2, s.dashed);
        }
        if (s.markers)
            for (const auto& [px, py] : dots) c.dot(px, py, 3, s.color);
    }

    // The legend, beside the plot.
    double ly = top + 8;
    for (const Series& s : chart.series) {
        if (s.name.empty()) continue;
        const double lx = right + 16;
        c.polyline({{lx, ly}, {lx + 22, ly}}, s.color, 2, s.dashed);
        if (s.markers) c.dot(lx + 11, ly, 3, s.color);
        c.text(lx + 28, ly + 5, s.name, Anchor::start, false, 1, kBlack);
        ly += 20;
    }
}

struct Layout {
    int width = 0, height = 0, title_height = 0, title_scale = 1, rows = 0;
};

Layout layout(const Figure& f) {
    Layout l;
    const int columns = std::max(1, f.columns);
    l.rows = int((f.charts.size() + columns - 1) / columns);
    l.width = columns * f.panel_width;
    l.title_scale = text_width(f.title, 2) + 32 <= l.width ? 2 : 1;
    l.title_height = f.title.empty() ? 8 : 24 + 16 * l.title_scale;
    l.height = l.title_height + std::max(1, l.rows) * f.panel_height;
    return l;
}

void draw(const Figure& f, const Layout& l, Canvas& c) {
    c.rect(0, 0, l.width, l.height, kWhite);
    if (!f.title.empty())
        c.text(l.width / 2.0, 12 + 14 * l.title_scale, f.title, Anchor::middle, false, l.title_scale, kBlack);
    const size_t columns = size_t(std::max(1, f.columns));
    for (size_t k = 0; k < f.charts.size(); ++k) {
        // A chart alone on the last row takes the whole width.
        const bool alone = k + 1 == f.charts.size() && k % columns == 0;
        draw_chart(f.charts[k], double(k % columns) * f.panel_width,
                   l.title_height + double(k / columns) * f.panel_height, alone ? l.width : f.panel_width,
                   f.panel_height, c);
    }
}

}  // namespace

Color palette(size_t index) {
    static const Color colors[] = {{214, 39, 40},   {31, 119, 180}, {44, 160, 44}, {127, 127, 127},
                                   {148, 103, 189}, {255, 127, 14}, {140, 86, 75}, {23, 190, 207}};
    return colors[index % (sizeof colors / sizeof colors[0])];
}

std::string to_svg(const Figure& figure) {
    const Layout l = layout(figure);
    SvgCanvas canvas(l.width, l.height);
    draw(figure, l, canvas);
    return canvas.finish();
}

std::vector<uint8_t> to_png(const Figure& figure) {
    const Layout l = layout(figure);
    RasterCanvas canvas(l.width, l.height);
    draw(figure, l, canvas);
    image::Rgb rgb(static_cast<uint32_t>(l.width), static_cast<uint32_t>(l.height));
    rgb.pixels = canvas.pixels();
    return image::encode_png(rgb);
}

void write(const Figure& figure, const std::string& path) {
    const bool svg = path.size() >= 4 && path.substr(path.size() - 4) == ".svg";
    if (svg) {
        const std::string text = to_svg(figure);
        write_file_atomic(path, std::as_bytes(std::span(text.data(), text.size())));
    } else {
        const std::vector<uint8_t> bytes = to_png(figure);
        write_file_atomic(path, std::as_bytes(std::span(bytes.data(), bytes.size())));
    }
}

}  // namespace twiddle::cli::chart

// Line charts as SVG text and as PNG images, with no run-time dependency: series of (x, y) points
// on linear or logarithmic axes, in one or more panels of a figure, each panel with a title, axis
// labels, ticks and a legend. The PNG's text is GNU Unifont's 8x16 bitmap font, embedded at build
// time; the SVG's is the viewer's monospace font at the same size.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace twiddle::cli::chart {

struct Color {
    uint8_t r = 0, g = 0, b = 0;
};

// A few distinct colours for series, in order.
Color palette(size_t index);

struct Series {
    std::string name;                               // in the legend; empty: not listed
    std::vector<std::pair<double, double>> points;  // joined in order; a non-finite y breaks the line
    Color color;
    bool dashed = false;
    bool markers = true;  // a dot at each point
};

enum class Scale { linear, log2, log10 };

struct Axis {
    std::string label;
    Scale scale = Scale::linear;
    // The range shown. Unset: the data's (a linear axis from 0 where the data are all positive).
    std::optional<double> min, max;
};

struct Chart {
    std::string title;
    Axis x, y;
    std::vector<Series> series;
    std::vector<double> y_rules;  // horizontal reference lines, such as a ratio of 1
};

// Panels in a grid of `columns`, row by row, under a title; one alone on the last row spans it.
struct Figure {
    std::string title;
    std::vector<Chart> charts;
    int columns = 1;
    int panel_width = 640, panel_height = 400;  // pixels, legend included
};

std::string to_svg(const Figure& figure);
// An encoded PNG file (8-bit RGB).
std::vector<uint8_t> to_png(const Figure& figure);

// Writes the figure to `path`: SVG text for a .svg path, else a PNG image (atomically).
void write(const Figure& figure, const std::string& path);

}  // namespace twiddle::cli::chart

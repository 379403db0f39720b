// twiddle::sht: the Fourier stage of a spherical-harmonic transform. Between the Legendre stage's
// m-major spectra and real fields on a latitude-longitude grid, it does the transforms along
// longitude:
//   synthesis: F_m (m <= mmax) of each latitude row to the row's nphi reals,
//              x_j = sum_{k < nphi} X_k e^{+2 pi i jk / nphi} with the Hermitian spectrum
//              X_0 = Re F_0, X_m = F_m, X_{nphi-m} = conj(F_m) for 1 <= m <= mmax, 0 elsewhere
//              (unnormalized);
//   analysis:  the row's reals to F_m = sum_j x_j e^{-2 pi i jm / nphi}, m <= mmax
//              (unnormalized, so analysis(synthesis(F)) = nphi F for F_0 real).
//
// Layouts (as SHTns and the WebGPU stage twiddle grew from), per field f of `fields`:
//   spectral: complex fm[f * (mmax + 1) * nlat + m * nlat + ilat], m-major;
//   spatial:  real spat[f * nlat * nphi + ilat * nphi + iphi].
//
//   twiddle::sht::Grid grid{.nlat = 1024, .nphi = 2048, .mmax = 1023};
//   twiddle::sht::FourierStage stage(context, grid);
//   stage.synthesize(fm, spat);   // or record_synthesis(cmd, ...) into a command buffer
//   stage.analyze(spat, fm);
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "twiddle/buffer.hpp"
#include "twiddle/caps.hpp"
#include "twiddle/context.hpp"
#include "twiddle/export.hpp"
#include "twiddle/logical_plan.hpp"
#include "twiddle/types.hpp"

namespace twiddle::sht {

// The problem: `fields` fields of nlat rows of nphi points, band-limited to orders m <= mmax.
struct TWIDDLE_API Grid {
    uint64_t nlat = 1;
    uint64_t nphi = 1;
    uint64_t mmax = 0;  // 2 mmax < nphi
    uint64_t fields = 1;
    Precision precision = Precision::f32;

    // Throws twiddle::Error naming the field for nlat, nphi or fields of 0, mmax >= nphi / 2
    // (2 mmax >= nphi), sizes that overflow, or a precision that is not a Precision value.
    void validate() const;
    // Elements and bytes of each side: complex fm, real spat.
    uint64_t spectral_elements() const { return fields * (mmax + 1) * nlat; }
    uint64_t spatial_elements() const { return fields * nlat * nphi; }
    uint64_t spectral_bytes() const { return spectral_elements() * complex_bytes(precision); }
    uint64_t spatial_bytes() const { return spatial_elements() * real_bytes(precision); }
};

// How the stage transforms each row:
//   fft: twiddle's planner, any nphi. Where a row's half-length transform is one Stockham pass,
//        one workgroup per row (several rows per workgroup where they fit, so that each m lands
//        as a contiguous run of latitudes), with the m-major layout change fused into the loads
//        (synthesis) or stores (analysis): no transpose pass. Otherwise passes through memory.
//   dft: the direct band-limited sum, O(nphi * mmax) per row, for any nphi; an independent
//        check of fft.
enum class Strategy { fft, dft };

TWIDDLE_API std::string_view to_string(Strategy s);
// Parses "fft" and "dft"; throws twiddle::Error otherwise.
TWIDDLE_API Strategy parse_strategy(std::string_view name);

// How the fft strategy passes through memory:
//   automatic: two passes from nphi 8192 for synthesis and from 4096 for analysis, where they
//              apply; one below (measured on the H200, bench/RESULTS.md: once a row's transform
//              fills a workgroup, one pass reads or writes the m-major side in runs of one to
//              four latitudes, which at that stride move memory at 20-40% of a copy's rate).
//              One also where `fft` asks for a radix (max_radix != 0) or the complex path:
//              those select variants of the one plan;
//   one:       the planner's plan of the rows' real transforms: one pass where the half-length
//              transform fits a workgroup;
//   two:       the half-length transform in the four-step form (nphi a multiple of 64): a pass
//              on the m-major side whose workgroups take runs of 16 latitudes in f32 (8 in f64),
//              joined or split in it, and a strided pass
//              along each row; a scratch buffer of the spatial side's size between them. Throws
//              UnsupportedError where nphi is not such a multiple, and Error with
//              fft.real_path = RealPath::full_length.
enum class Passes { automatic, one, two };

struct StageOptions {
    Strategy strategy = Strategy::fft;
    Passes passes = Passes::automatic;
    // fft: the planner's options for the stage's real transforms. Among them max_radix: the
    // largest butterfly, 2 or 4 as the seed's radix-2 and radix-4 Stockham kernels (or 8, 16,
    // 32; 0 the planner's choice; radices of nphi's other prime factors are their own); and
    // real_path: rows packed into a half-length complex transform (the default), or
    // RealPath::full_length, the complex path of nphi points, for comparison.
    Options fft;
};

// Whether a strategy fits the device for a grid, and how it would run. From the device's
// shared-memory, workgroup and buffer limits; nothing is compiled.
struct StrategySupport {
    Strategy strategy = Strategy::fft;
    bool supported = false;
    std::string reason;  // why not, when unsupported
    // Per direction: passes through memory (1: each row in one workgroup), the largest
    // workgroup, the most shared memory a workgroup uses, and the planner's summary.
    struct Run {
        size_t passes = 0;
        uint32_t workgroup_size = 0;
        uint32_t shared_bytes = 0;
        std::string summary;
    };
    Run synthesis;
    Run analysis;
};

// Both strategies for the grid on a device with `caps` (fft with options.fft).
TWIDDLE_API std::vector<StrategySupport> support(const DeviceCaps& caps, const Grid& grid,
                                                 const StageOptions& options = {});

// The stage on a device: its kernels and tables. Move-only.
class TWIDDLE_API FourierStage {
public:
    // Validates the grid and builds the kernels of both directions (compiled, or loaded from the
    // disk cache). Throws twiddle::Error for bad parameters and UnsupportedError where the
    // device cannot run the strategy.
    FourierStage(const Context& context, const Grid& grid, const StageOptions& options = {});
    FourierStage(FourierStage&&) noexcept;
    FourierStage& operator=(FourierStage&&) noexcept;
    ~FourierStage();

    const Grid& grid() const;
    const StageOptions& options() const;
    // Bytes of scratch buffer record_synthesis and record_analysis need (0: none).
    uint64_t scratch_bytes() const;

    // Append the direction's dispatches to `cmd`; never submit. `fm` holds grid().spectral_bytes()
    // and `spat` grid().spatial_bytes(); they do not overlap, nor does `scratch` (which may be
    // empty when scratch_bytes() is 0) overlap either. Views start on a complex element. The
    // caller orders earlier writes of the source before compute-shader reads, and later reads of
    // the destination after compute-shader writes. Throws twiddle::Error before recording
    // anything for a view that is too small, lacks storage usage or overlaps another. Only the
    // destination's elements are written; the source is only read.
    void record_synthesis(VkCommandBuffer cmd, const BufferView& fm, const BufferView& spat,
                          const BufferView& scratch = {}) const;
    void record_analysis(VkCommandBuffer cmd, const BufferView& spat, const BufferView& fm,
                         const BufferView& scratch = {}) const;

    // Record into a one-time command buffer, submit and wait (scratch allocated by the stage).
    void synthesize(const BufferView& fm, const BufferView& spat) const;
    void analyze(const BufferView& spat, const BufferView& fm) const;
    void synthesize(const Buffer& fm, const Buffer& spat) const;
    void analyze(const Buffer& spat, const Buffer& fm) const;

private:
    struct Impl;
    Impl& impl() const;  // throws twiddle::Error once moved from
    std::unique_ptr<Impl> impl_;
};

}  // namespace twiddle::sht

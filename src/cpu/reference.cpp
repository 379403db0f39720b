#include "cpu/reference.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "core/unit_root.hpp"
#include "twiddle/error.hpp"

namespace twiddle::cpu {

namespace {

// a * b without the checks for infinite and NaN parts that operator* makes (C99 Annex G), a
// call into libgcc in the inner loops. The reference's inputs are finite.
cld mul(const cld& a, const cld& b) {
    return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// Power-of-two transforms up to this many points run in place (they and their table fit the
// cache); longer ones by the four-step form.
constexpr size_t kDirectLimit = 4096;

// Unnormalized forward DFT of n <= kDirectLimit points at a, a power of two, in place: decimation
// in time after a bit reversal, the levels two at a time (radix 4: half the loads and stores of
// radix 2), after one radix-2 level where their number is odd. roots[k] = W_n^k for k < n / 2.
void fft_pow2_direct(cld* a, size_t n, const cld* roots) {
    for (size_t i = 1, j = 0; i < n; ++i) {  // bit reversal
        size_t bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) std::swap(a[i], a[j]);
    }
    size_t len = 1;  // of the transforms done
    if (std::countr_zero(n) % 2) {
        for (size_t i = 0; i < n; i += 2) {
            const cld u = a[i], v = a[i + 1];
            a[i] = u + v;
            a[i + 1] = u - v;
        }
        len = 2;
    }
    // Four transforms A, B, C, D of len points into one of 4 len: X = A + W B and Y = C + W D of
    // 2 len points (W = W_{2 len}^k), then X + V Y of 4 len (V = W_{4 len}^k; the odd quarter's
    // W_{4 len}^{k + len} is -i V).
    for (; len < n; len *= 4) {
        const size_t step2 = n / (2 * len), step4 = n / (4 * len);
        for (size_t i = 0; i < n; i += 4 * len)
            for (size_t k = 0; k < len; ++k) {
                const cld w = roots[k * step2], v = roots[k * step4];
                cld* p = a + i + k;
                const cld av = p[0], bv = mul(p[len], w), cv = p[2 * len], dv = mul(p[3 * len], w);
                const cld x0 = av + bv, x1 = av - bv, y0 = mul(cv + dv, v), y1 = mul(cv - dv, v);
                const cld y1i = {y1.imag(), -y1.real()};  // -i y1
                p[0] = x0 + y0;
                p[2 * len] = x0 - y0;
                p[len] = x1 + y1i;
                p[3 * len] = x1 - y1i;
            }
    }
}

// W_n^k for k < n / 2.
std::vector<cld> half_roots(size_t n) {
    std::vector<cld> roots(n / 2);
    for (size_t k = 0; k < n / 2; ++k) roots[k] = unit_root(k, n);
    return roots;
}

// Runs body(first, last) over [0, count) in contiguous parts, on up to one thread per core where
// `parallel` (the four-step form of long rows: a 2^22-point row took 1.6 s on one thread of the
// 2-core build machine), else on the caller's thread.
void for_parts(size_t count, bool parallel, const std::function<void(size_t, size_t)>& body) {
    const size_t threads =
        parallel ? std::clamp<size_t>(std::thread::hardware_concurrency(), 1, std::min<size_t>(count, 16))
                 : 1;
    if (threads <= 1) return body(0, count);
    std::exception_ptr failure;
    std::mutex lock;
    std::vector<std::jthread> workers;  // last, so that unwinding joins them before the above go
    workers.reserve(threads);
    for (size_t t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
            try {
                body(count * t / threads, count * (t + 1) / threads);
            } catch (...) {
                const std::lock_guard held(lock);
                failure = std::current_exception();
            }
        });
    workers.clear();  // joins
    if (failure) std::rethrow_exception(failure);
}

void fft_pow2(cld* a, size_t n);

// The four-step form of n = n1 x n2 points (x_{i n2 + j}, i < n1, j < n2), for rows too long for
// the cache: X_{k1 + n1 k2} = sum_j W_n^{j k1} W_n2^{j k2} sum_i x_{i n2 + j} W_n1^{i k1}. Columns
// and rows are transformed in groups of `kGroup`, gathered into contiguous rows (so that each
// access to a takes a run of kGroup points), then transposed into place.
void fft_pow2_four_step(cld* a, size_t n) {
    constexpr size_t kGroup = 16;
    const int bits = std::countr_zero(n);
    const size_t n2 = size_t(1) << (bits / 2), n1 = n / n2;  // n1 >= n2 >= kGroup
    // W_n^m = high[m >> low_bits] * low[m & (2^low_bits - 1)], m < n: two tables of about sqrt(n)
    // entries instead of one of n / 2 read at random.
    const int low_bits = bits / 2;
    std::vector<cld> low(size_t(1) << low_bits), high(n >> low_bits);
    for (size_t k = 0; k < low.size(); ++k) low[k] = unit_root(k, n);
    for (size_t k = 0; k < high.size(); ++k) high[k] = unit_root(k << low_bits, n);
    const bool parallel = n >= (size_t(1) << 16);
    // Columns j: the n1-point transforms over i, times W_n^{j k1}, back where they were.
    for_parts(n2 / kGroup, parallel, [&](size_t first, size_t last) {
        std::vector<cld> rows(kGroup * n1);
        for (size_t group = first; group < last; ++group) {
            const size_t j0 = group * kGroup;
            for (size_t i = 0; i < n1; ++i)
                for (size_t g = 0; g < kGroup; ++g) rows[g * n1 + i] = a[i * n2 + j0 + g];
            for (size_t g = 0; g < kGroup; ++g) {
                cld* row = rows.data() + g * n1;
                fft_pow2(row, n1);
                for (size_t k1 = 1; k1 < n1; ++k1) {
                    const size_t m = (j0 + g) * k1;
                    row[k1] = mul(row[k1], mul(high[m >> low_bits], low[m & (low.size() - 1)]));
                }
            }
            for (size_t k1 = 0; k1 < n1; ++k1)
                for (size_t g = 0; g < kGroup; ++g) a[k1 * n2 + j0 + g] = rows[g * n1 + k1];
        }
    });
    // Rows k1: the n2-point transforms over j, in place, then X_{k1 + n1 k2} into `out` (the
    // form's one buffer of n points besides the row).
    std::vector<cld> out(n);
    for_parts(n1 / kGroup, parallel, [&](size_t first, size_t last) {
        for (size_t group = first; group < last; ++group) {
            const size_t k10 = group * kGroup;
            for (size_t g = 0; g < kGroup; ++g) fft_pow2(a + (k10 + g) * n2, n2);
            for (size_t k2 = 0; k2 < n2; ++k2)
                for (size_t g = 0; g < kGroup; ++g) out[k10 + g + n1 * k2] = a[(k10 + g) * n2 + k2];
        }
    });
    std::copy(out.begin(), out.end(), a);
}

// Unnormalized forward DFT of a power-of-two row of n points at a, in place.
void fft_pow2(cld* a, size_t n) {
    if (n <= 1) return;
    if (n > kDirectLimit) return fft_pow2_four_step(a, n);
    // This thread's tables, one per power of two up to kDirectLimit (256 KiB in all): the reference
    // takes many rows of one length in turn (the lines of an array, Bluestein's three transforms,
    // the four-step form's columns and rows).
    thread_local std::map<size_t, std::vector<cld>> tables;
    std::vector<cld>& roots = tables[n];
    if (roots.empty()) roots = half_roots(n);
    fft_pow2_direct(a, n, roots.data());
}

void fft_pow2(std::vector<cld>& a) { fft_pow2(a.data(), a.size()); }

// roots[k * stride] = W_n^k for n = a.size(): a table of the roots of a multiple of n, shared by the
// recursion of fft_any.
void dft_direct(std::vector<cld>& a, const std::vector<cld>& roots, size_t stride) {
    const size_t n = a.size();
    std::vector<cld> out(n);
    for (size_t k = 0; k < n; ++k) {
        cld acc = 0;
        for (size_t j = 0, e = 0; j < n; ++j, e = e + k < n ? e + k : e + k - n)  // e = j k mod n
            acc += mul(a[j], roots[e * stride]);
        out[k] = acc;
    }
    a.swap(out);
}

// Bluestein: the DFT as a convolution with the chirp W_{2n}^{k^2}, through power-of-two
// transforms of at least 2n - 1 points.
void bluestein(std::vector<cld>& a) {
    const uint64_t n = a.size();
    const size_t m = std::bit_ceil(2 * n - 1);
    std::vector<cld> chirp(n), x(m), y(m);
    for (uint64_t k = 0; k < n; ++k) chirp[k] = unit_root((k * k) % (2 * n), 2 * n);
    for (uint64_t k = 0; k < n; ++k) x[k] = a[k] * chirp[k];
    y[0] = std::conj(chirp[0]);
    for (uint64_t k = 1; k < n; ++k) y[k] = y[m - k] = std::conj(chirp[k]);
    fft_pow2(x);
    fft_pow2(y);
    for (size_t k = 0; k < m; ++k) x[k] = std::conj(x[k] * y[k]);
    fft_pow2(x);  // the inverse, through conjugation
    for (uint64_t k = 0; k < n; ++k) a[k] = std::conj(x[k]) * chirp[k] / static_cast<long double>(m);
}

// The smallest odd prime factor of n, so that the power-of-two part is left to fft_pow2; 1 for a
// power of two.
size_t smallest_odd_prime_factor(size_t n) {
    const size_t odd = n >> std::countr_zero(n);
    if (odd == 1) return 1;
    size_t p = 3;
    while (p * p <= odd && odd % p != 0) p += 2;
    return odd % p == 0 ? p : odd;
}

// Any length: powers of two directly, a composite n = p * m as p interleaved m-point
// transforms combined by p-point DFTs (decimation in time, p the smallest odd prime factor), primes
// up to 64 points by the definition, and lengths whose smallest odd prime factor exceeds 64 by
// Bluestein (combining by such a p would cost O(n p): 2 * 999983 points, say).
// roots[k * stride] = W_n^k: the top level's table serves every level (made once; a table per
// level made Bluestein's 20480-point spectrum of a 10007-point plan take 39 ms of sines and
// cosines).
void fft_any(std::vector<cld>& a, const std::vector<cld>& roots, size_t stride) {
    const size_t n = a.size();
    if (n <= 1) return;
    const size_t p = smallest_odd_prime_factor(n);
    if (p == 1) return fft_pow2(a);
    if (p > 64) return bluestein(a);
    if (p == n) return dft_direct(a, roots, stride);
    const size_t m = n / p;
    std::vector<std::vector<cld>> sub(p, std::vector<cld>(m));
    for (size_t r = 0; r < p; ++r) {
        for (size_t j = 0; j < m; ++j) sub[r][j] = a[j * p + r];
        fft_any(sub[r], roots, stride * p);
    }
    // X_{k + m q} = sum_r W_p^{r q} (W_n^{r k} S_r[k]), W_p^j = W_n^{j m}.
    std::vector<cld> t(p);
    for (size_t k = 0; k < m; ++k) {
        t[0] = sub[0][k];
        for (size_t r = 1; r < p; ++r) t[r] = mul(sub[r][k], roots[r * k * stride]);  // r k < n
        for (size_t q = 0; q < p; ++q) {
            cld acc = t[0];
            for (size_t r = 1, e = q; r < p; ++r, e = e + q < p ? e + q : e + q - p)  // e = r q mod p
                acc += mul(t[r], roots[e * m * stride]);
            a[k + m * q] = acc;
        }
    }
}

void fft_any(std::vector<cld>& a) {
    const size_t n = a.size();
    if (n <= 1 || std::has_single_bit(n)) return fft_pow2(a);
    if (smallest_odd_prime_factor(n) > 64) return bluestein(a);  // before making roots it would not use
    // The table of the last length this thread transformed up to kCachedRoots points (2 MiB), as
    // fft_pow2 keeps its own; longer ones are made for the row. Safe while the recursion below
    // never comes back here (it reaches fft_pow2 and bluestein only), which would replace the table
    // it reads.
    constexpr size_t kCachedRoots = 65536;
    thread_local std::vector<cld> cached;
    std::vector<cld> own;
    std::vector<cld>& roots = n <= kCachedRoots ? cached : own;
    if (roots.size() != n) {
        roots.resize(n);
        for (size_t k = 0; k < n; ++k) roots[k] = unit_root(k, n);
    }
    fft_any(a, roots, 1);
}

void transform_row(cld* row, size_t n, Direction direction) {
    if (direction == Direction::inverse)
        for (size_t i = 0; i < n; ++i) row[i] = std::conj(row[i]);
    if (std::has_single_bit(n)) {
        fft_pow2(row, n);
    } else {
        std::vector<cld> a(row, row + n);
        fft_any(a);
        std::copy(a.begin(), a.end(), row);
    }
    if (direction == Direction::inverse)
        for (size_t i = 0; i < n; ++i) row[i] = std::conj(row[i]);
}

void transform_row(std::vector<cld>& row, Direction direction) {
    transform_row(row.data(), row.size(), direction);
}

}  // namespace

std::vector<cld> twiddle_values(const std::vector<TwiddleEntry>& entries) {
    std::vector<cld> out;
    out.reserve(entries.size());
    for (const auto& e : entries) out.push_back(unit_root(e.exponent, e.period));
    return out;
}

std::vector<cld> table_values(const LogicalPlan& plan) {
    std::vector<cld> out = twiddle_values(plan.twiddles);
    for (const auto& t : plan.spectra) {
        std::vector<cld> b(t.m, cld(0));
        if (t.generator) {
            // Rader: b_q = W_n^{g^-q mod n}, q < n - 1.
            const uint32_t inverse = inverse_mod_prime(t.generator, t.n);
            for (uint64_t q = 0; q < t.m; ++q) b[q] = unit_root(pow_mod(inverse, q, t.n), t.n);
        } else {
            // Bluestein: b_j = e^{i pi j^2 / n} = conj(c_j) for j < n, mirrored at m - j.
            const uint64_t period = 2 * uint64_t(t.n);
            for (uint64_t j = 0; j < t.n; ++j) {
                b[j] = std::conj(unit_root(j * j % period, period));
                if (j > 0) b[t.m - j] = b[j];
            }
        }
        fft_any(b);
        for (uint64_t k = 0; k < t.m; ++k) out.at(t.offset + k) = b[k] / static_cast<long double>(t.m);
    }
    return out;
}

void reference_dft(std::span<const std::complex<double>> in, std::span<std::complex<double>> out,
                   uint64_t length, uint64_t batch, Direction direction) {
    if (in.size() < length * batch || out.size() < length * batch)
        throw Error("reference_dft: buffers hold fewer than length * batch elements");
    std::vector<cld> row(length);
    for (uint64_t b = 0; b < batch; ++b) {
        for (uint64_t i = 0; i < length; ++i) row[i] = cld(in[b * length + i]);
        transform_row(row, direction);
        for (uint64_t i = 0; i < length; ++i)
            out[b * length + i] = {static_cast<double>(row[i].real()), static_cast<double>(row[i].imag())};
    }
}

std::vector<cld> reference_dft(std::span<const cld> row, Direction direction) {
    std::vector<cld> out(row.begin(), row.end());
    transform_row(out, direction);
    return out;
}

std::vector<cld> execute(const LogicalPlan& plan, std::span<const cld> input, Direction direction,
                         Placement placement) {
    const FftDesc& desc = plan.desc;
    if (input.size() != buffer_slots(desc, true))
        throw Error("execute: input must hold buffer_slots(desc, true)");
    if (placement == Placement::in_place && !desc.same_layouts())
        throw Error("execute: in place needs input and output laid out alike (FftDesc::same_layouts)");
    const std::vector<cld> tw = table_values(plan);

    // The buffers by role. In place, the input is the output buffer. Untouched output elements
    // stay 0.
    std::vector<cld> in(input.begin(), input.end()), out(buffer_slots(desc, false)),
        scratch(plan.scratch_bytes(placement) / complex_bytes(desc.precision()));
    if (placement == Placement::in_place) {
        // One buffer, as large as the larger of the two sides.
        out = in;
        out.resize(std::max(in.size(), buffer_slots(desc, false)));
    }
    auto buffer = [&](BufferRole role) -> std::vector<cld>& {
        return role == BufferRole::input ? in : role == BufferRole::output ? out : scratch;
    };
    const auto& routes = plan.routes(placement);
    // Inverse through conjugation, as the kernels do it: conj on the first load and on the last
    // store, which also scales.
    const long double scale = scale_factor(desc.normalization(), direction, desc.length());
    const bool inverse = direction == Direction::inverse;
    // What a pass writes (complex values, or reals at real indices), gathered before it lands,
    // since passes may run in place.
    std::vector<std::pair<uint64_t, cld>> writes;
    std::vector<std::pair<uint64_t, long double>> real_writes;
    std::vector<cld> col, next;
    std::map<uint64_t, std::vector<cld>> split_z;  // by the transform's destination offset
    for (size_t pi = 0; pi < plan.passes.size(); ++pi) {
        const Pass& pass = plan.passes[pi];
        const PassKernel& k = pass.kernel;
        const std::vector<cld>& src = buffer(routes[pi].src);
        const uint64_t src_at = routes[pi].src_at, dst_at = routes[pi].dst_at;
        auto load = [&](uint64_t at) {
            const cld v = src.at(src_at + at);
            return inverse && pi == 0 ? std::conj(v) : v;
        };
        writes.clear();
        real_writes.clear();
        const uint64_t L = k.length, T = k.columns_per_transform(), R = k.radix, span = k.span;
        if (k.kind == KernelKind::real) {
            const uint64_t n = L, half = n / 2;
            for (uint64_t row = 0; row < pass.columns; ++row) {
                const auto at = k.place(row);
                auto get = [&](uint64_t i) { return load(at.src + i * k.src_stride); };
                auto put = [&](uint64_t i, cld v) {
                    writes.push_back({dst_at + at.dst + i * k.dst_stride, v});
                };
                // The complex side's points: X_k for k < spectrum_points only.
                const uint64_t m = k.spectrum_points;
                auto get_point = [&](uint64_t i) { return i < m ? get(i) : cld(0); };
                switch (k.real_step) {
                case RealStep::split:
                case RealStep::join: {
                    // PassKernel::real_step: the pairs k, M - k.
                    const bool join = k.real_step == RealStep::join;
                    const long double f = join ? 1.0L : 0.5L;
                    for (uint64_t i = 0; i <= n / 4; ++i) {
                        const uint64_t mi = half - i;
                        cld a = join ? get_point(i) : get(i);
                        cld b = std::conj(join ? get_point(mi) : get(i > 0 ? mi : 0));
                        if (join && i == 0) a = a.real(), b = b.real();
                        const cld e = (a + b) * f, o = (a - b) * f;
                        const cld t = tw[k.table_offset + i] * cld(o.imag(), -o.real());
                        if (join || i < m) put(i, e + t);
                        if (mi != i && !(join && i == 0) && (join || mi < m)) put(mi, std::conj(e - t));
                    }
                    break;
                }
                case RealStep::widen:
                    for (uint64_t j = 0; j < n; ++j) {
                        const uint64_t r = 2 * src_at + at.src + j * k.src_stride;
                        put(j, r % 2 ? src.at(r / 2).imag() : src.at(r / 2).real());
                    }
                    break;
                case RealStep::crop:
                    for (uint64_t i = 0; i < m; ++i) put(i, get(i));
                    break;
                case RealStep::mirror:
                    for (uint64_t i = 0; i < n; ++i)
                        put(i, i == 0 || 2 * i == n ? cld(get_point(i).real())
                               : i <= half          ? get_point(i)
                                                    : std::conj(get_point(n - i)));
                    break;
                case RealStep::narrow:
                    for (uint64_t j = 0; j < n; ++j)
                        real_writes.push_back({2 * dst_at + at.dst + j * k.dst_stride, get(j).real()});
                    break;
                }
            }
        } else if (k.kind == KernelKind::direct) {
            // X_k = sum_j x_j W_N^{jk} from the table's W_N^e.
            for (uint64_t b = 0; b < pass.columns; ++b) {
                const auto at = k.place(b);
                for (uint64_t o = 0; o < L; ++o) {
                    cld acc = 0;
                    for (uint64_t j = 0; j < L; ++j)
                        acc += load(at.src + j * k.src_stride) * tw[k.table_offset + (j * o) % L];
                    writes.push_back({dst_at + at.dst + o * k.dst_stride, acc});
                }
            }
        } else {
            col.resize(R);
            next.resize(R);
            // Stockham stages within the column: y[(q - j) r + j + m ns] = DFT_r over m' of
            // x[q + m' R/r] W_{ns r}^{j m'}.
            auto stages = [&] {
                for (const Stage& s : k.stages) {
                    const uint64_t r = s.radix, ns = s.span, stride = R / r;
                    for (uint64_t q = 0; q < stride; ++q) {
                        const uint64_t j = q % ns;
                        for (uint64_t m = 0; m < r; ++m) {
                            cld acc = 0;
                            for (uint64_t mp = 0; mp < r; ++mp) {
                                cld x = col[q + mp * stride];
                                if (ns > 1 && mp > 0) x *= tw[s.twiddle_offset + (mp - 1) * ns + j];
                                acc += x * unit_root(mp * m, r);
                            }
                            next[(q - j) * r + j + m * ns] = acc;
                        }
                    }
                    col.swap(next);
                }
            };
            for (uint64_t c = 0; c < pass.columns; ++c) {
                const auto at = k.place(c);
                if (k.rader_prime) {
                    // PassKernel::rader_prime: two transforms of p - 1 points between permutations.
                    const uint64_t p = k.rader_prime, g = k.rader_generator;
                    const uint64_t g_inv = inverse_mod_prime(k.rader_generator, k.rader_prime);
                    const cld x0 = load(at.src);
                    for (uint64_t q = 0, x = 1; q < R; ++q, x = x * g % p)
                        col[q] = load(at.src + x * k.src_stride);
                    stages();
                    const cld sum = col[0];
                    for (uint64_t q = 0; q < R; ++q) col[q] = std::conj(col[q] * tw[k.rader_offset + q]);
                    stages();
                    writes.push_back({dst_at + at.dst, x0 + sum});
                    for (uint64_t m = 0, x = 1; m < R; ++m, x = x * g_inv % p)
                        writes.push_back({dst_at + at.dst + x * k.dst_stride, std::conj(col[m]) + x0});
                    continue;
                }
                const uint64_t t = at.t, jj = t % span;
                for (uint64_t r = 0; r < R; ++r) {
                    // Bluestein's chirped input, zero-padded (PassKernel::chirp_load).
                    const uint64_t x = t + r * T;
                    if (k.chirp_load) {
                        col[r] =
                            x < k.chirp_length ? load(at.src + x * k.src_stride) * tw[k.chirp_offset + x] : 0;
                    } else if (k.join_load) {
                        // PassKernel::join_load: join's output x, from points below spectrum_points
                        // (in its only pass or the first of several: x = t + r T).
                        const uint64_t xm = x ? L - x : L, m = k.spectrum_points;
                        cld a = x < m ? load(at.src + x * k.src_stride) : 0,
                            b = std::conj(xm < m ? load(at.src + xm * k.src_stride) : 0);
                        if (x == 0) a = a.real(), b = b.real();
                        const cld o = a - b;
                        col[r] = a + b + tw[k.real_offset + x] * cld(o.imag(), -o.real());
                    } else
                        col[r] = load(at.src + x * k.src_stride);
                    if (span > 1) {
                        // Point r = i + m * threads of the column is held by invocation i.
                        const uint64_t threads = k.threads_per_column, i = r % threads, m = r / threads;
                        if (threads > 1) {
                            const uint64_t j_lo = jj % k.lane_columns, e = (jj - j_lo) * i;
                            const uint64_t hi = e >> k.fine_bits, lo = e & ((1u << k.fine_bits) - 1);
                            col[r] *= tw[k.coarse_offset + hi] * tw[k.fine_offset + lo] *
                                      tw[k.lane_offset + i * k.lane_columns + j_lo];
                        }
                        if (m > 0) {
                            const uint64_t split = k.step_split, highs = (span + split - 1) / split;
                            col[r] *= tw[k.step_low_offset + (m - 1) * split + jj % split];
                            if (highs > 1) col[r] *= tw[k.step_high_offset + (m - 1) * highs + jj / split];
                        }
                    }
                }
                stages();
                if (k.split_store) {
                    // A split fused into the pass (its only pass, or the last of several): the
                    // transform's points Z_x, x = t + r * span, gathered for split below.
                    std::vector<cld>& z = split_z[at.dst];
                    z.resize(L);
                    for (uint64_t r = 0; r < R; ++r) z[t + r * span] = col[r];
                    continue;
                }
                for (uint64_t r = 0; r < R; ++r) {
                    const uint64_t x = (t - jj) * R + jj + r * span;
                    cld v = col[r];
                    if (k.spectrum_store) v = std::conj(v * tw[k.spectrum_offset + x]);
                    if (k.chirp_store) {
                        if (x >= k.chirp_length) continue;
                        v = tw[k.chirp_offset + x] * std::conj(v);
                    }
                    writes.push_back({dst_at + at.dst + x * k.dst_stride, v});
                }
            }
            // PassKernel::split_store: X_k from Z_k and Z_{L-k} (Z_L meaning Z_0), with
            // W_{2L}^k = -conj(W_{2L}^{L-k}) for k > L / 2, for k <= L below spectrum_points.
            for (const auto& [base, z] : split_z) {
                for (uint64_t kk = 0; kk <= L && kk < k.spectrum_points; ++kk) {
                    const cld a = z[kk % L], b = std::conj(z[(L - kk) % L]);
                    const cld e = (a + b) * 0.5L, o = (a - b) * 0.5L;
                    const cld w =
                        kk <= L / 2 ? tw[k.real_offset + kk] : -std::conj(tw[k.real_offset + L - kk]);
                    const cld tt = w * cld(o.imag(), -o.real());
                    writes.push_back({dst_at + base + kk * k.dst_stride, e + tt});
                }
            }
            split_z.clear();
        }
        std::vector<cld>& dst = buffer(routes[pi].dst);
        const bool last = pi + 1 == plan.passes.size();
        for (const auto& [at, v] : writes) dst.at(at) = last ? (inverse ? std::conj(v) : v) * scale : v;
        for (const auto& [at, v] : real_writes) {
            const long double x = last ? v * scale : v;
            dst.at(at / 2) = at % 2 ? cld(dst.at(at / 2).real(), x) : cld(x, dst.at(at / 2).imag());
        }
    }
    // The output's logical elements (reals as slots of complex values: real_slot).
    std::vector<cld> result(buffer_slots(desc, false));
    for (uint64_t e : logical_indices(desc, false)) {
        if (!desc.output_real()) {
            result[e] = out[e];
        } else {
            const long double x = e % 2 ? out[e / 2].imag() : out[e / 2].real();
            result[e / 2] = e % 2 ? cld(result[e / 2].real(), x) : cld(x, result[e / 2].imag());
        }
    }
    return result;
}

uint64_t buffer_slots(const FftDesc& desc, bool input) {
    const uint64_t elements = input ? desc.input_elements() : desc.output_elements();
    return (input ? desc.input_real() : desc.output_real()) ? (elements + 1) / 2 : elements;
}

std::vector<uint64_t> logical_indices(const FftDesc& desc, bool input) {
    std::vector<Dim> all = input ? desc.input_dims() : desc.output_dims();
    all.insert(all.end(), desc.batch_dims().begin(), desc.batch_dims().end());
    std::vector<uint64_t> out{0};
    // Last dim fastest, as a C-order array of dims then batch dims.
    for (auto d = all.rbegin(); d != all.rend(); ++d) {
        std::vector<uint64_t> next;
        next.reserve(out.size() * d->n);
        const uint64_t stride = input ? d->in_stride : d->out_stride;
        for (uint64_t i = 0; i < d->n; ++i)
            for (uint64_t o : out) next.push_back(o + i * stride);
        out.swap(next);
    }
    return out;
}

namespace {

// Transforms the lines along dim `d` of a packed C-order array of `extents`, batch-major: `batch`
// arrays one after the other. Contiguous lines are transformed where they lie; lines across the
// array are gathered kLineGroup neighbours at a time, so that each access to `a` takes a run of
// them (a 4096 x 4096 array's columns one by one took most of its 12 s on the build machine).
// Lines or groups go to all cores for arrays of 2^16 points or more, where the lines are short
// enough to run on one thread each (the four-step form threads by itself from 2^16 points).
void transform_lines(std::vector<cld>& a, const std::vector<uint64_t>& extents, uint64_t batch, size_t d,
                     Direction direction) {
    constexpr uint64_t kLineGroup = 16;
    uint64_t total = 1, inner = 1;
    for (size_t i = 0; i < extents.size(); ++i) {
        total *= extents[i];
        if (i > d) inner *= extents[i];
    }
    const uint64_t n = extents[d];
    // Blocks of n x inner points, each with its groups of lines: a task per group.
    const uint64_t blocks = batch * (total / (n * inner)), groups = (inner + kLineGroup - 1) / kLineGroup;
    const bool parallel = total * batch >= (uint64_t(1) << 16) && n < (uint64_t(1) << 16);
    for_parts(blocks * groups, parallel, [&](size_t first, size_t last) {
        std::vector<cld> lines(inner > 1 ? kLineGroup * n : 0);
        for (size_t task = first; task < last; ++task) {
            const uint64_t i0 = task % groups * kLineGroup, width = std::min(kLineGroup, inner - i0);
            cld* base = a.data() + task / groups * n * inner + i0;
            if (inner == 1) {
                transform_row(base, n, direction);
                continue;
            }
            for (uint64_t x = 0; x < n; ++x)
                for (uint64_t w = 0; w < width; ++w) lines[w * n + x] = base[x * inner + w];
            for (uint64_t w = 0; w < width; ++w) transform_row(lines.data() + w * n, n, direction);
            for (uint64_t x = 0; x < n; ++x)
                for (uint64_t w = 0; w < width; ++w) base[x * inner + w] = lines[w * n + x];
        }
    });
}

// Whether one side's layout is the array reference_nd works in: its dims packed in C order, the
// batch dims' arrays one after another (logical_indices would count 0, 1, 2, ...).
bool packed_batch_major(const FftDesc& desc, bool input) {
    std::vector<Dim> all = desc.batch_dims();  // outermost
    const std::vector<Dim> dims = input ? desc.input_dims() : desc.output_dims();
    all.insert(all.end(), dims.begin(), dims.end());
    uint64_t stride = 1;
    for (auto d = all.rbegin(); d != all.rend(); ++d) {
        if (d->n > 1 && (input ? d->in_stride : d->out_stride) != stride) return false;
        stride *= d->n;
    }
    return true;
}

// Element `e` of a buffer in slots (buffer_slots): a complex value, or a real.
cld get_slot(std::span<const std::complex<double>> buf, uint64_t e, bool real) {
    if (!real) return cld(buf[e]);
    return e % 2 ? buf[e / 2].imag() : buf[e / 2].real();
}

void set_slot(std::span<std::complex<double>> buf, uint64_t e, bool real, cld v) {
    if (!real) {
        buf[e] = {static_cast<double>(v.real()), static_cast<double>(v.imag())};
    } else if (e % 2) {
        buf[e / 2].imag(static_cast<double>(v.real()));
    } else {
        buf[e / 2].real(static_cast<double>(v.real()));
    }
}

}  // namespace

void reference_nd(std::span<const std::complex<double>> in, std::span<std::complex<double>> out,
                  const FftDesc& desc, Direction direction) {
    if (in.size() < buffer_slots(desc, true) || out.size() < buffer_slots(desc, false))
        throw Error("reference_nd: buffers are smaller than the layouts' extents");
    if (desc.transform() == Transform::r2c) direction = Direction::forward;
    if (desc.transform() == Transform::c2r) direction = Direction::inverse;
    // Gather into a packed array indexed [batch dims..., dims...] (C order) with each side's
    // extents, transform each dim's lines, scatter back. Normalization is the caller's.
    const uint64_t batch = desc.batch();
    std::vector<uint64_t> in_extents, out_extents;
    for (const Dim& d : desc.input_dims()) in_extents.push_back(d.n);
    for (const Dim& d : desc.output_dims()) out_extents.push_back(d.n);
    auto count = [](const std::vector<uint64_t>& e) {
        uint64_t c = 1;
        for (uint64_t x : e) c *= x;
        return c;
    };
    const uint64_t in_length = count(in_extents), out_length = count(out_extents);
    std::vector<cld> a(in_length * batch);
    if (packed_batch_major(desc, true)) {
        for (uint64_t e = 0; e < a.size(); ++e) a[e] = get_slot(in, e, desc.input_real());
    } else {
        // logical_indices runs over dims then batch dims, last fastest; reorder to batch-major.
        const auto idx = logical_indices(desc, true);
        for (uint64_t x = 0; x < in_length; ++x)
            for (uint64_t b = 0; b < batch; ++b)
                a[b * in_length + x] = get_slot(in, idx[x * batch + b], desc.input_real());
    }
    const size_t halved = in_extents.size() - 1;
    for (size_t d = 0; d < halved; ++d) transform_lines(a, in_extents, batch, d, direction);
    if (desc.transform() == Transform::c2r) {
        // numpy's irfftn: the other dims first, then each line along the halved dim completed
        // to n points (the real parts of points 0 and n / 2) and transformed.
        // Points k >= m of a band-limited spectrum (FftDesc::spectrum_length) are 0.
        const uint64_t m = in_extents[halved], n = out_extents[halved];
        std::vector<cld> full(out_length * batch);
        std::vector<cld> line(n);
        for (uint64_t row = 0; row < batch * (in_length / m); ++row) {
            auto point = [&](uint64_t k) { return k < m ? a[row * m + k] : cld(0); };
            for (uint64_t k = 0; k < n; ++k)
                line[k] = k == 0 || 2 * k == n ? cld(point(k).real())
                          : 2 * k < n          ? point(k)
                                               : std::conj(point(n - k));
            transform_row(line, direction);
            for (uint64_t k = 0; k < n; ++k) full[row * n + k] = line[k];
        }
        a.swap(full);
    } else {
        transform_lines(a, in_extents, batch, halved, direction);
        if (desc.transform() == Transform::r2c) {
            // Keep points k < m (spectrum_length, at most n / 2 + 1) of each line.
            const uint64_t n = in_extents[halved], m = out_extents[halved];
            std::vector<cld> half(out_length * batch);
            for (uint64_t row = 0; row < batch * (in_length / n); ++row)
                for (uint64_t k = 0; k < m; ++k) half[row * m + k] = a[row * n + k];
            a.swap(half);
        }
    }
    if (packed_batch_major(desc, false)) {
        for (uint64_t e = 0; e < a.size(); ++e) set_slot(out, e, desc.output_real(), a[e]);
        return;
    }
    const auto idx = logical_indices(desc, false);
    for (uint64_t x = 0; x < out_length; ++x)
        for (uint64_t b = 0; b < batch; ++b)
            set_slot(out, idx[x * batch + b], desc.output_real(), a[b * out_length + x]);
}

namespace {
template <typename T>
double rel_l2(std::span<const std::complex<T>> a, std::span<const std::complex<double>> b) {
    if (a.size() != b.size()) throw Error("relative_l2: sizes differ");
    long double num = 0, den = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        const std::complex<double> d = std::complex<double>(a[i]) - b[i];
        num += std::norm(d);
        den += std::norm(b[i]);
    }
    if (den == 0) return num == 0 ? 0.0 : INFINITY;
    return static_cast<double>(std::sqrt(num / den));
}
}  // namespace

double relative_l2(std::span<const std::complex<float>> a, std::span<const std::complex<double>> b) {
    return rel_l2(a, b);
}
double relative_l2(std::span<const std::complex<double>> a, std::span<const std::complex<double>> b) {
    return rel_l2(a, b);
}

}  // namespace twiddle::cpu

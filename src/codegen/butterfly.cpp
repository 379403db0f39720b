#include "codegen/butterfly.hpp"

#include <numeric>
#include <stdexcept>

#include "core/unit_root.hpp"

namespace twiddle::codegen {

namespace {

std::string decl(std::string_view type, const std::string& name, const std::string& expr) {
    return std::string(type) + " " + name + " = " + expr + ";";
}

std::vector<std::string> dft2(GlslWriter& w, const std::vector<std::string>& x, Precision p,
                              TempNames& temps) {
    const auto t = types(p);
    const std::string d = temps.next();
    w.line(decl(t.complex, d, x[0] + " - " + x[1]));
    w.line(x[0] + " += " + x[1] + ";");
    return {x[0], d};
}

std::vector<std::string> dft4(GlslWriter& w, const std::vector<std::string>& x, Precision p,
                              TempNames& temps) {
    const auto t = types(p);
    const std::string s0 = temps.next(), d0 = temps.next(), s1 = temps.next(), d1 = temps.next();
    w.line(decl(t.complex, s0, x[0] + " + " + x[2]));
    w.line(decl(t.complex, d0, x[0] + " - " + x[2]));
    w.line(decl(t.complex, s1, x[1] + " + " + x[3]));
    // -i * (x1 - x3)
    w.line(
        decl(t.complex, d1,
             std::string(t.complex) + "(" + x[1] + ".y - " + x[3] + ".y, " + x[3] + ".x - " + x[1] + ".x)"));
    const std::string y0 = temps.next(), y1 = temps.next(), y2 = temps.next(), y3 = temps.next();
    w.line(decl(t.complex, y0, s0 + " + " + s1));
    w.line(decl(t.complex, y1, d0 + " + " + d1));
    w.line(decl(t.complex, y2, s0 + " - " + s1));
    w.line(decl(t.complex, y3, d0 + " - " + d1));
    return {y0, y1, y2, y3};
}

// An odd prime p from the pairs x_j +- x_{p-j}, j = 1..h with h = (p - 1) / 2:
//   X_k = x_0 + sum_j (x_j + x_{p-j}) cos(2 pi jk/p) - i sum_j (x_j - x_{p-j}) sin(2 pi jk/p),
// and X_{p-k} the same with +i. (p - 1)^2 / 2 real multiplications per component, with the
// constants rounded once from long double.
std::vector<std::string> dft_odd_prime(GlslWriter& w, const std::vector<std::string>& x, Precision p,
                                       TempNames& temps) {
    const auto t = types(p);
    const size_t n = x.size(), h = (n - 1) / 2;
    std::vector<std::string> sum(h + 1), dif(h + 1);
    for (size_t j = 1; j <= h; ++j) {
        sum[j] = temps.next();
        dif[j] = temps.next();
        w.line(decl(t.complex, sum[j], x[j] + " + " + x[n - j]));
        w.line(decl(t.complex, dif[j], x[j] + " - " + x[n - j]));
    }
    std::vector<std::string> out(n);
    for (size_t k = 1; k <= h; ++k) {
        // a = x_0 + sum cos * sum_j, b = sum sin * dif_j (sin of the e^{+} angle).
        std::string a = x[0], b;
        for (size_t j = 1; j <= h; ++j) {
            const auto root = unit_root((j * k) % n, n);  // cos - i sin
            a += " + " + sum[j] + " * " + literal(root.real(), p);
            b += (j > 1 ? " + " : "") + dif[j] + " * " + literal(-root.imag(), p);
        }
        const std::string av = temps.next(), bv = temps.next();
        w.line(decl(t.complex, av, a));
        w.line(decl(t.complex, bv, b));
        // X_k = a - i b, X_{n-k} = a + i b.
        out[k] = temps.next();
        out[n - k] = temps.next();
        w.line(
            decl(t.complex, out[k], av + " + " + std::string(t.complex) + "(" + bv + ".y, -" + bv + ".x)"));
        w.line(decl(t.complex, out[n - k],
                    av + " + " + std::string(t.complex) + "(-" + bv + ".y, " + bv + ".x)"));
    }
    // X_0 last: x_0 is read above.
    std::string s0 = x[0];
    for (size_t j = 1; j <= h; ++j) s0 += " + " + sum[j];
    out[0] = temps.next();
    w.line(decl(t.complex, out[0], s0));
    return out;
}

// n = a * b with a and b coprime, by Good and Thomas's mapping, which needs no twiddles between
// the a-point and the b-point DFTs (a 10-point DFT saves four complex multiplications):
// input x_{(b n1 + a n2) mod n}, output X_{(k1 b (b^-1 mod a) + k2 a (a^-1 mod b)) mod n}.
// H200, f32, one pass against the twiddled split: 1000 3443 -> 3503 GB/s, 6000 2142 -> 2195,
// 10000 2112 -> 2144, 4095 1821 -> 1845, and lower errors (1000: 1.22e-7 -> 1.10e-7).
std::vector<std::string> prime_factor_dft(GlslWriter& w, const std::vector<std::string>& x, size_t a,
                                          Precision p, TempNames& temps) {
    const size_t n = x.size(), b = n / a;
    auto inverse = [](size_t v, size_t mod) {
        for (size_t i = 1; i < mod; ++i)
            if (v * i % mod == 1) return i;
        return size_t{1};  // mod == 1
    };
    const size_t to_k1 = b * inverse(b % a, a) % n, to_k2 = a * inverse(a % b, b) % n;
    std::vector<std::vector<std::string>> y(b);  // y[n2][k1]
    for (size_t n2 = 0; n2 < b; ++n2) {
        std::vector<std::string> column;
        for (size_t n1 = 0; n1 < a; ++n1) column.push_back(x[(b * n1 + a * n2) % n]);
        y[n2] = emit_dft(w, column, p, temps);
    }
    std::vector<std::string> out(n);
    for (size_t k1 = 0; k1 < a; ++k1) {
        std::vector<std::string> row;
        for (size_t n2 = 0; n2 < b; ++n2) row.push_back(y[n2][k1]);
        const auto z = emit_dft(w, row, p, temps);
        for (size_t k2 = 0; k2 < b; ++k2) out[(k1 * to_k1 + k2 * to_k2) % n] = z[k2];
    }
    return out;
}

}  // namespace

void emit_mul_root(GlslWriter& w, const std::string& v, uint64_t exponent, uint64_t period, Precision p) {
    exponent %= period;
    if (exponent == 0) return;
    const uint64_t g = std::gcd(exponent, period);
    const uint64_t e = exponent / g, n = period / g;
    const auto t = types(p);
    const std::string c = std::string(t.complex);
    const std::string x = v + ".x", y = v + ".y";
    if (n == 2) {
        w.line(v + " = -" + v + ";");
    } else if (n == 4) {
        // e = 1: -i v = (y, -x); e = 3: +i v = (-y, x)
        w.line(v + " = " + c + (e == 1 ? "(" + y + ", -" + x + ");" : "(-" + y + ", " + x + ");"));
    } else if (n == 8) {
        const std::string h = literal(0.707106781186547524400844362104849039L, p);
        const std::string sum = "(" + x + " + " + y + ")", dif = "(" + y + " - " + x + ")";
        switch (e) {
        case 1: w.line(v + " = " + c + "(" + sum + ", " + dif + ") * " + h + ";"); break;
        case 3: w.line(v + " = " + c + "(" + dif + ", -" + sum + ") * " + h + ";"); break;
        case 5: w.line(v + " = " + c + "(-" + sum + ", -" + dif + ") * " + h + ";"); break;
        default: w.line(v + " = " + c + "(-" + dif + ", " + sum + ") * " + h + ";"); break;
        }
    } else {
        const auto r = unit_root(e, n);
        const std::string re = literal(r.real(), p), im = literal(r.imag(), p);
        w.line(v + " = " + c + "(" + x + " * " + re + " - " + y + " * " + im + ", " + x + " * " + im + " + " +
               y + " * " + re + ");");
    }
}

std::vector<std::string> emit_dft(GlslWriter& w, const std::vector<std::string>& x, Precision p,
                                  TempNames& temps) {
    const size_t n = x.size();
    if (n == 1) return x;
    if (n == 2) return dft2(w, x, p, temps);
    if (n == 4) return dft4(w, x, p, temps);
    if (n > kMaxButterfly) throw std::logic_error("emit_dft: unsupported radix " + std::to_string(n));
    // The smallest prime factor, and its whole power in n.
    size_t prime = 2;
    while (n % prime != 0) ++prime;
    if (prime == n) return dft_odd_prime(w, x, p, temps);
    size_t power = prime;
    while (n % (power * prime) == 0) power *= prime;
    if (power < n) return prime_factor_dft(w, x, power, p, temps);
    // A prime power: radix 4 first where it divides n, else the prime.
    const size_t a = n % 4 == 0 ? 4 : prime;
    // n = a * b: input n = b * n1 + n2, output k = k1 + a * k2.
    // 1. for each n2, an a-point DFT over n1; 2. multiply by W_n^{n2 k1}; 3. for each k1, a
    // b-point DFT over n2.
    const size_t b = n / a;
    std::vector<std::vector<std::string>> y(b);  // y[n2][k1]
    for (size_t n2 = 0; n2 < b; ++n2) {
        std::vector<std::string> column;
        for (size_t n1 = 0; n1 < a; ++n1) column.push_back(x[b * n1 + n2]);
        y[n2] = emit_dft(w, column, p, temps);
        for (size_t k1 = 1; k1 < a; ++k1) emit_mul_root(w, y[n2][k1], n2 * k1, n, p);
    }
    std::vector<std::string> out(n);
    for (size_t k1 = 0; k1 < a; ++k1) {
        std::vector<std::string> row;
        for (size_t n2 = 0; n2 < b; ++n2) row.push_back(y[n2][k1]);
        const auto z = emit_dft(w, row, p, temps);
        for (size_t k2 = 0; k2 < b; ++k2) out[k1 + a * k2] = z[k2];
    }
    return out;
}

}  // namespace twiddle::codegen

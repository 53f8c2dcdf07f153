// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Parallax developers
// The random numbers of synthesized and generated trials (synth.cpp, the algebra's property tests).
#pragma once

#include <cstdint>

namespace parallax {

/// splitmix64: tiny, fast and identical on every platform (std distributions are not), so a seed
/// gives the same trial everywhere.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed)
        : m_state(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1), from the top 53 bits.
    double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
    /// Uniform in [0, n) for n > 0.
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    /// True with probability p.
    bool chance(double p) { return uniform() < p; }

private:
    std::uint64_t m_state;
};

} // namespace parallax
